#ifndef COMICS_CGDKPIXBUF_SHIM_H
#define COMICS_CGDKPIXBUF_SHIM_H

#include <gdk-pixbuf/gdk-pixbuf.h>

#endif
