#include "CHTML.h"
#include <libxml/HTMLparser.h>
#include <string.h>

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
    htmlSAXHandler handler;
    memset(&handler, 0, sizeof handler);
    handler.startElement = on_start;
    handler.endElement = on_end;
    handler.characters = on_characters;
    comics_html_state state = { callbacks, context };
    htmlParserCtxtPtr parser = htmlCreatePushParserCtxt(&handler, &state, NULL, 0, NULL, XML_CHAR_ENCODING_UTF8);
    if (parser == NULL) return -1;
    htmlCtxtUseOptions(parser, HTML_PARSE_RECOVER | HTML_PARSE_NONET | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING
        | HTML_PARSE_IGNORE_ENC | HTML_PARSE_NOIMPLIED);
    const size_t chunk = 256 * 1024;
    size_t offset = 0;
    do {
        size_t count = length - offset < chunk ? length - offset : chunk;
        int last = offset + count >= length;
        htmlParseChunk(parser, bytes + offset, (int)count, last);
        offset += count;
    } while (offset < length);
    htmlFreeParserCtxt(parser);
    return 0;
}
