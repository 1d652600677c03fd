#ifndef COMICS_CZSTD_SHIM_H
#define COMICS_CZSTD_SHIM_H
// zstd's one-call ZSTD_compress/ZSTD_decompress need no wrapping: the
// header alone gives Swift what the text store uses.
#include <zstd.h>
#endif
