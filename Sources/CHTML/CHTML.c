#include "CHTML.h"

#include <dlfcn.h>
#include <libxml/HTMLparser.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The libxml2 functions comics calls, resolved from libxml2.so.2. */
static struct {
    htmlParserCtxtPtr (*create_push_parser)(htmlSAXHandlerPtr, void *, const char *, int, const char *, xmlCharEncoding);
    int (*use_options)(htmlParserCtxtPtr, int);
    int (*parse_chunk)(htmlParserCtxtPtr, const char *, int, int);
    void (*free_parser)(htmlParserCtxtPtr);
    void (*init_parser)(void);
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

/* RTLD_LAZY, as for libcurl: libxml2 brings ICU, whose calls are bound
   when first made rather than all at load. */
static void load(void) {
    void *library = dlopen("libxml2.so.2", RTLD_LAZY | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof load_error, "%s", reason ? reason : "cannot load libxml2.so.2");
        return;
    }
    RESOLVE(create_push_parser, "htmlCreatePushParserCtxt");
    RESOLVE(use_options, "htmlCtxtUseOptions");
    RESOLVE(parse_chunk, "htmlParseChunk");
    RESOLVE(free_parser, "htmlFreeParserCtxt");
    RESOLVE(init_parser, "xmlInitParser");
    /* Once, before any thread parses: libxml2's own set-up is not safe to race. */
    xml.init_parser();
    load_status = 0;
}

int comics_html_load(void) {
    pthread_once(&load_once, load);
    return load_status;
}

const char *comics_html_load_error(void) {
    return load_error;
}

/* The parse runs on a thread of its own while the caller's thread walks
   what it found: libxml2 and the walk each take about half of the time an
   HTML edition costs. The parser's thread writes each event onto a tape
   (blocks of bytes, at most `QUEUED_BLOCKS` waiting: 2 MiB whatever the
   file); the caller replays the tape through its callbacks, in order.
   Without a thread, the parse writes the whole tape first and the replay
   follows. */

enum { EVENT_START = 1, EVENT_END = 2, EVENT_CHARACTERS = 3 };
enum { BLOCK_BYTES = 16 * 1024, QUEUED_BLOCKS = 128, MAXIMUM_ATTRIBUTES = 64 };

typedef struct tape_block {
    struct tape_block *next;
    size_t used;
    size_t capacity;
    unsigned char bytes[];
} tape_block;

typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    tape_block *first, *last; /* published, not yet replayed */
    int queued;
    int finished;             /* the parser is done: no block comes after `last` */
    int threaded;
    tape_block *writing;      /* the parser's block, not yet published */
    int out_of_memory;        /* events past it are dropped */
    const char *input;
    size_t length;
} tape;

static void publish(tape *t, tape_block *block) {
    pthread_mutex_lock(&t->lock);
    while (t->threaded && t->queued >= QUEUED_BLOCKS) pthread_cond_wait(&t->changed, &t->lock);
    if (t->last) t->last->next = block; else t->first = block;
    t->last = block;
    t->queued += 1;
    pthread_cond_broadcast(&t->changed);
    pthread_mutex_unlock(&t->lock);
}

/* Room for `size` more bytes in the block being written, or NULL. */
static unsigned char *reserve(tape *t, size_t size) {
    if (t->out_of_memory) return NULL;
    tape_block *block = t->writing;
    if (block && block->capacity - block->used >= size) {
        unsigned char *at = block->bytes + block->used;
        block->used += size;
        return at;
    }
    if (block) publish(t, block);
    size_t capacity = size > BLOCK_BYTES ? size : BLOCK_BYTES;
    block = malloc(sizeof *block + capacity);
    t->writing = block;
    if (block == NULL) {
        t->out_of_memory = 1;
        return NULL;
    }
    block->next = NULL;
    block->used = size;
    block->capacity = capacity;
    return block->bytes;
}

static unsigned char *put_length(unsigned char *at, size_t length) {
    uint32_t value = (uint32_t)length;
    memcpy(at, &value, sizeof value);
    return at + sizeof value;
}

/* A length, the bytes and a NUL, so that the replay hands out C strings. */
static unsigned char *put_string(unsigned char *at, const char *text, size_t length) {
    at = put_length(at, length);
    memcpy(at, text, length);
    at[length] = 0;
    return at + length + 1;
}

static size_t string_size(size_t length) { return sizeof(uint32_t) + length + 1; }

static void on_start(void *state, const xmlChar *name, const xmlChar **attributes) {
    if (name == NULL) return;
    tape *t = state;
    size_t name_length = strlen((const char *)name);
    size_t size = 1 + string_size(name_length) + 1;
    int pairs = 0;
    for (; attributes && attributes[2 * pairs] && pairs < MAXIMUM_ATTRIBUTES; pairs++) {
        size += string_size(strlen((const char *)attributes[2 * pairs])) + 1;
        if (attributes[2 * pairs + 1]) size += string_size(strlen((const char *)attributes[2 * pairs + 1]));
    }
    unsigned char *at = reserve(t, size);
    if (at == NULL) return;
    *at++ = EVENT_START;
    at = put_string(at, (const char *)name, name_length);
    *at++ = (unsigned char)pairs;
    for (int pair = 0; pair < pairs; pair++) {
        const char *key = (const char *)attributes[2 * pair], *value = (const char *)attributes[2 * pair + 1];
        at = put_string(at, key, strlen(key));
        *at++ = value != NULL;
        if (value) at = put_string(at, value, strlen(value));
    }
}

static void on_end(void *state, const xmlChar *name) {
    if (name == NULL) return;
    tape *t = state;
    size_t name_length = strlen((const char *)name);
    unsigned char *at = reserve(t, 1 + string_size(name_length));
    if (at == NULL) return;
    *at++ = EVENT_END;
    put_string(at, (const char *)name, name_length);
}

static void on_characters(void *state, const xmlChar *bytes, int length) {
    if (length <= 0) return;
    tape *t = state;
    unsigned char *at = reserve(t, 1 + sizeof(uint32_t) + (size_t)length);
    if (at == NULL) return;
    *at++ = EVENT_CHARACTERS;
    at = put_length(at, (size_t)length);
    memcpy(at, bytes, (size_t)length);
}

static void *parse(void *state) {
    tape *t = state;
    htmlSAXHandler handler;
    memset(&handler, 0, sizeof handler);
    handler.startElement = on_start;
    handler.endElement = on_end;
    handler.characters = on_characters;
    htmlParserCtxtPtr parser = xml.create_push_parser(&handler, t, NULL, 0, NULL, XML_CHAR_ENCODING_UTF8);
    if (parser != NULL) {
        xml.use_options(parser, HTML_PARSE_RECOVER | HTML_PARSE_NONET | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING
            | HTML_PARSE_IGNORE_ENC | HTML_PARSE_NOIMPLIED);
        const size_t chunk = 256 * 1024;
        size_t offset = 0;
        do {
            size_t count = t->length - offset < chunk ? t->length - offset : chunk;
            int last = offset + count >= t->length;
            xml.parse_chunk(parser, t->input + offset, (int)count, last);
            offset += count;
        } while (offset < t->length);
        xml.free_parser(parser);
    } else {
        t->out_of_memory = 1;
    }
    if (t->writing) publish(t, t->writing);
    t->writing = NULL;
    pthread_mutex_lock(&t->lock);
    t->finished = 1;
    pthread_cond_broadcast(&t->changed);
    pthread_mutex_unlock(&t->lock);
    return NULL;
}

static uint32_t get_length(const unsigned char **at) {
    uint32_t value;
    memcpy(&value, *at, sizeof value);
    *at += sizeof value;
    return value;
}

static const char *get_string(const unsigned char **at) {
    uint32_t length = get_length(at);
    const char *text = (const char *)*at;
    *at += length + 1;
    return text;
}

static void replay(const tape_block *block, const comics_html_callbacks *callbacks, void *context) {
    const char *attributes[2 * MAXIMUM_ATTRIBUTES + 2];
    const unsigned char *at = block->bytes, *end = block->bytes + block->used;
    while (at < end) {
        switch (*at++) {
        case EVENT_START: {
            const char *name = get_string(&at);
            int pairs = *at++, filled = 0;
            for (int pair = 0; pair < pairs; pair++) {
                attributes[filled++] = get_string(&at);
                attributes[filled++] = *at++ ? get_string(&at) : NULL;
            }
            attributes[filled] = NULL;
            callbacks->start(context, name, attributes);
            break;
        }
        case EVENT_END:
            callbacks->end(context, get_string(&at));
            break;
        default: {
            uint32_t length = get_length(&at);
            callbacks->characters(context, (const char *)at, (int)length);
            at += length;
            break;
        }
        }
    }
}

int comics_html_parse(const char *bytes, size_t length, const comics_html_callbacks *callbacks, void *context) {
    if (comics_html_load() != 0) return -1;
    tape t = { .input = bytes, .length = length };
    pthread_mutex_init(&t.lock, NULL);
    pthread_cond_init(&t.changed, NULL);
    pthread_t parser;
    /* Set before the thread starts, which reads it; no thread, no reader. */
    t.threaded = 1;
    if (pthread_create(&parser, NULL, parse, &t) != 0) {
        t.threaded = 0;
        parse(&t);
    }
    for (;;) {
        pthread_mutex_lock(&t.lock);
        while (t.first == NULL && !t.finished) pthread_cond_wait(&t.changed, &t.lock);
        tape_block *block = t.first;
        if (block) {
            t.first = block->next;
            if (t.first == NULL) t.last = NULL;
            t.queued -= 1;
            pthread_cond_broadcast(&t.changed);
        }
        pthread_mutex_unlock(&t.lock);
        if (block == NULL) break;
        replay(block, callbacks, context);
        free(block);
    }
    if (t.threaded) pthread_join(parser, NULL);
    pthread_cond_destroy(&t.changed);
    pthread_mutex_destroy(&t.lock);
    return t.out_of_memory ? -1 : 0;
}
