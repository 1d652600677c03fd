#ifndef COMICS_CXML2_SHIM_H
#define COMICS_CXML2_SHIM_H
// libxml2's compile and link flags (pkg-config libxml-2.0) for CHTML, the
// one target that includes its headers.
#include <libxml/HTMLparser.h>
#endif
