#ifndef COMICS_CZLIB_SHIM_H
#define COMICS_CZLIB_SHIM_H
// zlib's one-call compress2/uncompress need no wrapping: the header alone
// gives Swift what the text store uses.
#include <zlib.h>
#endif
