#ifndef COMICS_CCHAFA_SHIM_H
#define COMICS_CCHAFA_SHIM_H

#include <chafa.h>

#endif
