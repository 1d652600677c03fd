#include "CImaging.h"

#include <chafa.h>
#include <gdk-pixbuf/gdk-pixbuf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

unsigned comics_imaging_terminal_abilities(char **environment) {
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

char *comics_imaging_draw(const uint8_t *bytes, size_t length, const char *type, int max_columns, int max_rows,
                          int mode, int colors, int cell_width, int cell_height, char **environment,
                          int *is_animated, char *error, size_t error_size) {
    *is_animated = 0;
    if (mode < COMICS_DRAW_SYMBOLS || mode > COMICS_DRAW_ITERM2 || colors < COMICS_COLORS_TRUECOLOR ||
        colors > COMICS_COLORS_NONE || max_columns < 1 || max_rows < 1 || cell_width < 1 || cell_height < 1) {
        snprintf(error, error_size, "bad drawing parameters");
        return NULL;
    }
    GdkPixbuf *pixbuf = decode(bytes, length, type, is_animated, error, error_size);
    if (pixbuf == NULL) return NULL;
    int width = gdk_pixbuf_get_width(pixbuf);
    int height = gdk_pixbuf_get_height(pixbuf);
    int columns = max_columns;
    int rows = max_rows;
    chafa_calc_canvas_geometry(width, height, &columns, &rows, (gfloat)cell_width / (gfloat)cell_height, TRUE, FALSE);
    char *result = draw(pixbuf, columns, rows, mode, colors, cell_width, cell_height, environment);
    if (result == NULL) snprintf(error, error_size, "chafa could not draw the image");
    g_object_unref(pixbuf);
    return result;
}

void comics_imaging_free(char *text) { free(text); }
