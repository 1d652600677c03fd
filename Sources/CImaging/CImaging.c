#include "CImaging.h"

#include <dlfcn.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* gdk-pixbuf and chafa (and the GLib they bring) are loaded with dlopen
   the first time a picture is drawn: linked, their 17 libraries cost every
   command about half of its start-up in the dynamic loader. So this file
   declares the little of their API it calls instead of including their
   headers. The enum values are those of chafa 1.12's headers; chafa keeps
   them stable and appends new ones. */
typedef struct {
    unsigned domain;
    int code;
    char *message;
} GError;

typedef struct {
    char *str;
    size_t len;
    size_t allocated_len;
} GString;

enum {
    CHAFA_TERM_SEQ_SET_COLOR_FGBG_DIRECT = 33,
    CHAFA_TERM_SEQ_SET_COLOR_FGBG_256 = 36,
    CHAFA_TERM_SEQ_BEGIN_SIXELS = 40,
    CHAFA_TERM_SEQ_BEGIN_KITTY_IMMEDIATE_IMAGE_V1 = 43,
    CHAFA_TERM_SEQ_BEGIN_ITERM2_IMAGE = 47,
};
enum { CHAFA_PIXEL_MODE_SYMBOLS = 0, CHAFA_PIXEL_MODE_SIXELS = 1, CHAFA_PIXEL_MODE_KITTY = 2, CHAFA_PIXEL_MODE_ITERM2 = 3 };
enum { CHAFA_CANVAS_MODE_TRUECOLOR = 0, CHAFA_CANVAS_MODE_INDEXED_240 = 2, CHAFA_CANVAS_MODE_INDEXED_16 = 3, CHAFA_CANVAS_MODE_FGBG = 5 };
enum { CHAFA_SYMBOL_TAG_SPACE = 1, CHAFA_SYMBOL_TAG_BLOCK = 8, CHAFA_SYMBOL_TAG_BORDER = 16 };
enum { CHAFA_PIXEL_RGBA8_UNASSOCIATED = 4 };

#define IMAGING_FUNCTIONS(X) \
    X(void *, chafa_term_db_get_default, (void)) \
    X(void *, chafa_term_db_detect, (void *database, char **environment)) \
    X(void *, chafa_term_db_get_fallback_info, (void *database)) \
    X(int, chafa_term_info_have_seq, (void *info, int sequence)) \
    X(void, chafa_term_info_supplement, (void *info, void *source)) \
    X(void, chafa_term_info_unref, (void *info)) \
    X(void *, chafa_symbol_map_new, (void)) \
    X(void, chafa_symbol_map_add_by_tags, (void *map, int tags)) \
    X(void, chafa_symbol_map_unref, (void *map)) \
    X(void *, chafa_canvas_config_new, (void)) \
    X(void, chafa_canvas_config_set_geometry, (void *config, int width, int height)) \
    X(void, chafa_canvas_config_set_cell_geometry, (void *config, int width, int height)) \
    X(void, chafa_canvas_config_set_pixel_mode, (void *config, int mode)) \
    X(void, chafa_canvas_config_set_canvas_mode, (void *config, int mode)) \
    X(void, chafa_canvas_config_set_symbol_map, (void *config, const void *map)) \
    X(void, chafa_canvas_config_unref, (void *config)) \
    X(void *, chafa_canvas_new, (const void *config)) \
    X(void, chafa_canvas_draw_all_pixels, (void *canvas, int type, const uint8_t *pixels, int width, int height, int rowstride)) \
    X(GString *, chafa_canvas_print, (void *canvas, void *info)) \
    X(void, chafa_canvas_unref, (void *canvas)) \
    X(void, chafa_set_n_threads, (int count)) \
    X(void, chafa_calc_canvas_geometry, (int width, int height, int *columns, int *rows, float font_ratio, int zoom, int stretch)) \
    X(void *, gdk_pixbuf_loader_new_with_type, (const char *type, GError **error)) \
    X(int, gdk_pixbuf_loader_write, (void *loader, const uint8_t *bytes, size_t count, GError **error)) \
    X(int, gdk_pixbuf_loader_close, (void *loader, GError **error)) \
    X(void *, gdk_pixbuf_loader_get_pixbuf, (void *loader)) \
    X(void *, gdk_pixbuf_loader_get_animation, (void *loader)) \
    X(int, gdk_pixbuf_animation_is_static_image, (void *animation)) \
    X(void *, gdk_pixbuf_add_alpha, (const void *pixbuf, int substitute, unsigned char red, unsigned char green, unsigned char blue)) \
    X(int, gdk_pixbuf_get_width, (const void *pixbuf)) \
    X(int, gdk_pixbuf_get_height, (const void *pixbuf)) \
    X(int, gdk_pixbuf_get_rowstride, (const void *pixbuf)) \
    X(const uint8_t *, gdk_pixbuf_read_pixels, (const void *pixbuf)) \
    X(void, g_object_unref, (void *object)) \
    X(void, g_error_free, (GError *error)) \
    X(char *, g_string_free, (GString *string, int free_segment))

#define DECLARE_POINTER(result, name, parameters) result(*name) parameters;
static struct {
    IMAGING_FUNCTIONS(DECLARE_POINTER)
} imaging;

/* Loads the libraries once; 0 on success, else -1 with the reason. GLib's
   functions are found through gdk-pixbuf's handle, which depends on it. */
static int load_libraries(char *error, size_t error_size) {
    static int state = 0; /* 0: not tried, 1: loaded, -1: failed */
    static char failure[256];
    if (state == 0) {
        void *pixbuf = dlopen("libgdk_pixbuf-2.0.so.0", RTLD_NOW | RTLD_LOCAL);
        void *chafa = pixbuf ? dlopen("libchafa.so.0", RTLD_NOW | RTLD_LOCAL) : NULL;
        state = 1;
        if (chafa == NULL) {
            snprintf(failure, sizeof failure, "cannot load gdk-pixbuf and chafa: %s", dlerror());
            state = -1;
        }
#define RESOLVE(result, name, parameters)                                                        \
        if (state == 1) {                                                                        \
            *(void **)&imaging.name = dlsym(strncmp(#name, "chafa", 5) == 0 ? chafa : pixbuf, #name); \
            if (imaging.name == NULL) {                                                          \
                snprintf(failure, sizeof failure, "%s lacks %s", strncmp(#name, "chafa", 5) == 0 ? "chafa" : "gdk-pixbuf", #name); \
                state = -1;                                                                      \
            }                                                                                    \
        }
        IMAGING_FUNCTIONS(RESOLVE)
#undef RESOLVE
    }
    if (state < 0) snprintf(error, error_size, "%s", failure);
    return state == 1 ? 0 : -1;
}

#define chafa_term_db_get_default imaging.chafa_term_db_get_default
#define chafa_term_db_detect imaging.chafa_term_db_detect
#define chafa_term_db_get_fallback_info imaging.chafa_term_db_get_fallback_info
#define chafa_term_info_have_seq imaging.chafa_term_info_have_seq
#define chafa_term_info_supplement imaging.chafa_term_info_supplement
#define chafa_term_info_unref imaging.chafa_term_info_unref
#define chafa_symbol_map_new imaging.chafa_symbol_map_new
#define chafa_symbol_map_add_by_tags imaging.chafa_symbol_map_add_by_tags
#define chafa_symbol_map_unref imaging.chafa_symbol_map_unref
#define chafa_canvas_config_new imaging.chafa_canvas_config_new
#define chafa_canvas_config_set_geometry imaging.chafa_canvas_config_set_geometry
#define chafa_canvas_config_set_cell_geometry imaging.chafa_canvas_config_set_cell_geometry
#define chafa_canvas_config_set_pixel_mode imaging.chafa_canvas_config_set_pixel_mode
#define chafa_canvas_config_set_canvas_mode imaging.chafa_canvas_config_set_canvas_mode
#define chafa_canvas_config_set_symbol_map imaging.chafa_canvas_config_set_symbol_map
#define chafa_canvas_config_unref imaging.chafa_canvas_config_unref
#define chafa_canvas_new imaging.chafa_canvas_new
#define chafa_canvas_draw_all_pixels imaging.chafa_canvas_draw_all_pixels
#define chafa_canvas_print imaging.chafa_canvas_print
#define chafa_canvas_unref imaging.chafa_canvas_unref
#define chafa_set_n_threads imaging.chafa_set_n_threads
#define chafa_calc_canvas_geometry imaging.chafa_calc_canvas_geometry
#define gdk_pixbuf_loader_new_with_type imaging.gdk_pixbuf_loader_new_with_type
#define gdk_pixbuf_loader_write imaging.gdk_pixbuf_loader_write
#define gdk_pixbuf_loader_close imaging.gdk_pixbuf_loader_close
#define gdk_pixbuf_loader_get_pixbuf imaging.gdk_pixbuf_loader_get_pixbuf
#define gdk_pixbuf_loader_get_animation imaging.gdk_pixbuf_loader_get_animation
#define gdk_pixbuf_animation_is_static_image imaging.gdk_pixbuf_animation_is_static_image
#define gdk_pixbuf_add_alpha imaging.gdk_pixbuf_add_alpha
#define gdk_pixbuf_get_width imaging.gdk_pixbuf_get_width
#define gdk_pixbuf_get_height imaging.gdk_pixbuf_get_height
#define gdk_pixbuf_get_rowstride imaging.gdk_pixbuf_get_rowstride
#define gdk_pixbuf_read_pixels imaging.gdk_pixbuf_read_pixels
#define g_object_unref imaging.g_object_unref
#define g_error_free imaging.g_error_free
#define g_string_free imaging.g_string_free

typedef void GdkPixbuf;
typedef void GdkPixbufLoader;
typedef void GdkPixbufAnimation;
typedef void ChafaTermInfo;
typedef void ChafaTermDb;
typedef void ChafaSymbolMap;
typedef void ChafaCanvasConfig;
typedef void ChafaCanvas;
typedef int ChafaPixelMode;
typedef int ChafaCanvasMode;
typedef int gboolean;
typedef float gfloat;
#define TRUE 1
#define FALSE 0

unsigned comics_imaging_terminal_abilities(char **environment) {
    char ignored[256];
    if (load_libraries(ignored, sizeof ignored) != 0) return 0;
    ChafaTermInfo *info = chafa_term_db_detect(chafa_term_db_get_default(), environment);
    if (info == NULL) return 0;
    unsigned abilities = 0;
    if (chafa_term_info_have_seq(info, CHAFA_TERM_SEQ_BEGIN_KITTY_IMMEDIATE_IMAGE_V1)) abilities |= COMICS_TERMINAL_KITTY;
    if (chafa_term_info_have_seq(info, CHAFA_TERM_SEQ_BEGIN_ITERM2_IMAGE)) abilities |= COMICS_TERMINAL_ITERM2;
    if (chafa_term_info_have_seq(info, CHAFA_TERM_SEQ_BEGIN_SIXELS)) abilities |= COMICS_TERMINAL_SIXELS;
    if (chafa_term_info_have_seq(info, CHAFA_TERM_SEQ_SET_COLOR_FGBG_DIRECT)) abilities |= COMICS_TERMINAL_TRUECOLOR;
    if (chafa_term_info_have_seq(info, CHAFA_TERM_SEQ_SET_COLOR_FGBG_256)) abilities |= COMICS_TERMINAL_256_COLORS;
    chafa_term_info_unref(info);
    return abilities;
}

static void set_error(char *error, size_t error_size, GError *reason, const char *fallback) {
    snprintf(error, error_size, "%s", reason && reason->message ? reason->message : fallback);
    if (reason) g_error_free(reason);
}

/* The first frame as RGBA, or NULL with the reason in `error`. */
static GdkPixbuf *decode(const uint8_t *bytes, size_t length, const char *type, int *is_animated, char *error,
                         size_t error_size) {
    GError *reason = NULL;
    GdkPixbufLoader *loader = gdk_pixbuf_loader_new_with_type(type, &reason);
    if (loader == NULL) {
        set_error(error, error_size, reason, "no decoder for this type of image");
        return NULL;
    }
    gboolean written = gdk_pixbuf_loader_write(loader, bytes, length, &reason);
    /* A loader must be closed even after a failed write; for a truncated
       file, closing is what fails. */
    GError *close_reason = NULL;
    gboolean closed = gdk_pixbuf_loader_close(loader, written ? &close_reason : NULL);
    GdkPixbuf *rgba = NULL;
    if (!written || !closed) {
        set_error(error, error_size, written ? close_reason : reason, "the image data is damaged");
    } else {
        GdkPixbuf *frame = gdk_pixbuf_loader_get_pixbuf(loader);
        GdkPixbufAnimation *animation = gdk_pixbuf_loader_get_animation(loader);
        *is_animated = animation != NULL && !gdk_pixbuf_animation_is_static_image(animation);
        rgba = frame ? gdk_pixbuf_add_alpha(frame, FALSE, 0, 0, 0) : NULL;
        if (rgba == NULL) snprintf(error, error_size, "the image has no pixels");
    }
    g_object_unref(loader);
    return rgba;
}

static const ChafaPixelMode pixel_modes[] = {
    [COMICS_DRAW_SYMBOLS] = CHAFA_PIXEL_MODE_SYMBOLS,
    [COMICS_DRAW_SIXELS] = CHAFA_PIXEL_MODE_SIXELS,
    [COMICS_DRAW_KITTY] = CHAFA_PIXEL_MODE_KITTY,
    [COMICS_DRAW_ITERM2] = CHAFA_PIXEL_MODE_ITERM2,
};

static const ChafaCanvasMode canvas_modes[] = {
    [COMICS_COLORS_TRUECOLOR] = CHAFA_CANVAS_MODE_TRUECOLOR,
    [COMICS_COLORS_256] = CHAFA_CANVAS_MODE_INDEXED_240,
    [COMICS_COLORS_16] = CHAFA_CANVAS_MODE_INDEXED_16,
    [COMICS_COLORS_NONE] = CHAFA_CANVAS_MODE_FGBG,
};

static char *draw(GdkPixbuf *pixbuf, int columns, int rows, int mode, int colors, int cell_width, int cell_height,
                  char **environment) {
    ChafaTermDb *database = chafa_term_db_get_default();
    ChafaTermInfo *info = chafa_term_db_detect(database, environment);
    ChafaTermInfo *fallback = chafa_term_db_get_fallback_info(database);
    chafa_term_info_supplement(info, fallback);
    chafa_term_info_unref(fallback);

    ChafaSymbolMap *symbols = chafa_symbol_map_new();
    chafa_symbol_map_add_by_tags(symbols, CHAFA_SYMBOL_TAG_BLOCK | CHAFA_SYMBOL_TAG_BORDER | CHAFA_SYMBOL_TAG_SPACE);
    ChafaCanvasConfig *config = chafa_canvas_config_new();
    chafa_canvas_config_set_geometry(config, columns, rows);
    chafa_canvas_config_set_cell_geometry(config, cell_width, cell_height);
    chafa_canvas_config_set_pixel_mode(config, pixel_modes[mode]);
    chafa_canvas_config_set_canvas_mode(config, canvas_modes[colors]);
    chafa_canvas_config_set_symbol_map(config, symbols);

    char *result = NULL;
    ChafaCanvas *canvas = chafa_canvas_new(config);
    if (canvas != NULL) {
        chafa_canvas_draw_all_pixels(canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, gdk_pixbuf_read_pixels(pixbuf),
                                     gdk_pixbuf_get_width(pixbuf), gdk_pixbuf_get_height(pixbuf),
                                     gdk_pixbuf_get_rowstride(pixbuf));
        GString *printed = chafa_canvas_print(canvas, info);
        if (printed != NULL) {
            result = strdup(printed->str);
            g_string_free(printed, TRUE);
        }
        chafa_canvas_unref(canvas);
    }
    chafa_canvas_config_unref(config);
    chafa_symbol_map_unref(symbols);
    chafa_term_info_unref(info);
    return result;
}

/* The picture is drawn under an address-space limit: each thread of
   chafa's pool reserves a stack and may get a malloc arena of 64 MiB, so
   on a machine of many cores the reservations alone would pass it. A few
   threads and arenas draw any comic as fast. */
static void bound_memory_reserved(void) {
    long processors = sysconf(_SC_NPROCESSORS_ONLN);
    int threads = processors < 1 ? 1 : processors > 4 ? 4 : (int)processors;
    mallopt(M_ARENA_MAX, threads);
    chafa_set_n_threads(threads);
}

/* The most pixels a drawing is made of, 4096 × 4096 (more than a 5K
   screen): a pane of 1,000 × 1,000 cells of 10 × 20 pixels would be
   gigabytes. A cell is counted at least 8 × 8, what chafa samples a
   symbol from, and no side of a cell is taken past 256 pixels. */
static const double largest_canvas = 4096.0 * 4096.0;

static void bound_canvas(int *columns, int *rows, int *cell_width, int *cell_height) {
    if (*cell_width > 256) *cell_width = 256;
    if (*cell_height > 256) *cell_height = 256;
    double cell = (double)*cell_width * *cell_height;
    if (cell < 64) cell = 64;
    while ((double)*columns * *rows * cell > largest_canvas && (*columns > 1 || *rows > 1)) {
        *columns = *columns > 1 ? *columns * 7 / 8 : 1;
        *rows = *rows > 1 ? *rows * 7 / 8 : 1;
    }
}

char *comics_imaging_draw(const uint8_t *bytes, size_t length, const char *type, int max_columns, int max_rows,
                          int mode, int colors, int cell_width, int cell_height, char **environment,
                          int *is_animated, char *error, size_t error_size) {
    *is_animated = 0;
    if (mode < COMICS_DRAW_SYMBOLS || mode > COMICS_DRAW_ITERM2 || colors < COMICS_COLORS_TRUECOLOR ||
        colors > COMICS_COLORS_NONE || max_columns < 1 || max_rows < 1 || cell_width < 1 || cell_height < 1) {
        snprintf(error, error_size, "bad drawing parameters");
        return NULL;
    }
    if (load_libraries(error, error_size) != 0) return NULL;
    bound_memory_reserved();
    GdkPixbuf *pixbuf = decode(bytes, length, type, is_animated, error, error_size);
    if (pixbuf == NULL) return NULL;
    int width = gdk_pixbuf_get_width(pixbuf);
    int height = gdk_pixbuf_get_height(pixbuf);
    int columns = max_columns;
    int rows = max_rows;
    bound_canvas(&columns, &rows, &cell_width, &cell_height);
    chafa_calc_canvas_geometry(width, height, &columns, &rows, (gfloat)cell_width / (gfloat)cell_height, TRUE, FALSE);
    char *result = draw(pixbuf, columns, rows, mode, colors, cell_width, cell_height, environment);
    if (result == NULL) snprintf(error, error_size, "chafa could not draw the image");
    g_object_unref(pixbuf);
    return result;
}

void comics_imaging_free(char *text) { free(text); }
