#include "CHTML.h"

#include <dlfcn.h>
#include <libxml/HTMLparser.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* The libxml2 functions comics calls, resolved from libxml2.so.2. */
static struct {
    htmlParserCtxtPtr (*create_push_parser)(htmlSAXHandlerPtr, void *, const char *, int, const char *, xmlCharEncoding);
    int (*use_options)(htmlParserCtxtPtr, int);
    int (*parse_chunk)(htmlParserCtxtPtr, const char *, int, int);
    void (*free_parser)(htmlParserCtxtPtr);
} xml;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int load_status = -1;
static char load_error[512] = "libxml2 was not loaded";

#define RESOLVE(field, name)                                                          \
    do {                                                                              \
        *(void **)(&xml.field) = dlsym(library, name);                                \
        if (xml.field == NULL) {                                                      \
            snprintf(load_error, sizeof load_error, "libxml2.so.2 lacks %s", name); \
            return;                                                                   \
        }                                                                             \
    } while (0)

static void load(void) {
    void *library = dlopen("libxml2.so.2", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof load_error, "%s", reason ? reason : "cannot load libxml2.so.2");
        return;
    }
    RESOLVE(create_push_parser, "htmlCreatePushParserCtxt");
    RESOLVE(use_options, "htmlCtxtUseOptions");
    RESOLVE(parse_chunk, "htmlParseChunk");
    RESOLVE(free_parser, "htmlFreeParserCtxt");
    load_status = 0;
}

int comics_html_load(void) {
    pthread_once(&load_once, load);
    return load_status;
}

const char *comics_html_load_error(void) {
    return load_error;
}

typedef struct {
    const comics_html_callbacks *callbacks;
    void *context;
} comics_html_state;

static void on_start(void *state, const xmlChar *name, const xmlChar **attributes) {
    comics_html_state *s = state;
    s->callbacks->start(s->context, (const char *)name, (const char *const *)attributes);
}

static void on_end(void *state, const xmlChar *name) {
    comics_html_state *s = state;
    s->callbacks->end(s->context, (const char *)name);
}

static void on_characters(void *state, const xmlChar *bytes, int length) {
    comics_html_state *s = state;
    s->callbacks->characters(s->context, (const char *)bytes, length);
}

int comics_html_parse(const char *bytes, size_t length, const comics_html_callbacks *callbacks, void *context) {
    if (comics_html_load() != 0) return -1;
    htmlSAXHandler handler;
    memset(&handler, 0, sizeof handler);
    handler.startElement = on_start;
    handler.endElement = on_end;
    handler.characters = on_characters;
    comics_html_state state = { callbacks, context };
    htmlParserCtxtPtr parser = xml.create_push_parser(&handler, &state, NULL, 0, NULL, XML_CHAR_ENCODING_UTF8);
    if (parser == NULL) return -1;
    xml.use_options(parser, HTML_PARSE_RECOVER | HTML_PARSE_NONET | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING
        | HTML_PARSE_IGNORE_ENC | HTML_PARSE_NOIMPLIED);
    const size_t chunk = 256 * 1024;
    size_t offset = 0;
    do {
        size_t count = length - offset < chunk ? length - offset : chunk;
        int last = offset + count >= length;
        xml.parse_chunk(parser, bytes + offset, (int)count, last);
        offset += count;
    } while (offset < length);
    xml.free_parser(parser);
    return 0;
}
