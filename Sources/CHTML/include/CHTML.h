#ifndef COMICS_CHTML_H
#define COMICS_CHTML_H
#include <stddef.h>

// libxml2's HTML parser behind three callbacks, so that Swift sees none of
// libxml2's headers (they bring an ICU that clashes with Foundation's).
// libxml2 is loaded with dlopen the first time an HTML edition is read:
// linked, it and the ICU it needs would load with every command.
typedef struct {
    // `attributes`: name, value, name, value, …, NULL (a value may be NULL).
    void (*start)(void *context, const char *name, const char *const *attributes);
    void (*end)(void *context, const char *name);
    void (*characters)(void *context, const char *bytes, int length);
} comics_html_callbacks;

// 0 when libxml2 is loaded (once, thread-safe); otherwise
// comics_html_load_error() says why.
int comics_html_load(void);
const char *comics_html_load_error(void);

// Parses `length` bytes of UTF-8 HTML: recovering from any markup, never
// touching the network, ignoring the document's own encoding hints (the
// caller has decoded it), in chunks, on a thread of its own. The callbacks
// are called on the caller's thread, in the document's order, as the parse
// goes on. Returns 0, or -1 when libxml2 could not be loaded or memory ran
// out (the callbacks then saw only the start of the document).
int comics_html_parse(const char *bytes, size_t length, const comics_html_callbacks *callbacks, void *context);

#endif
