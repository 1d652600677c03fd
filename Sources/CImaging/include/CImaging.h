#ifndef COMICS_CIMAGING_H
#define COMICS_CIMAGING_H

/* Pictures for the terminal: gdk-pixbuf decodes PNG, JPEG and GIF; chafa
   draws the pixels as kitty, iTerm2 or sixel graphics, or as Unicode
   symbols in colour. Only plain C types cross this header, so Swift needs
   no GLib types. */
#include <stddef.h>
#include <stdint.h>

/* What the terminal described by `environment` (NAME=value strings, NULL
   last) can do, by chafa's terminal database: COMICS_TERMINAL_* bits. */
enum {
    COMICS_TERMINAL_KITTY = 1,
    COMICS_TERMINAL_ITERM2 = 2,
    COMICS_TERMINAL_SIXELS = 4,
    COMICS_TERMINAL_TRUECOLOR = 8,
    COMICS_TERMINAL_256_COLORS = 16,
};
unsigned comics_imaging_terminal_abilities(char **environment);

enum {
    COMICS_DRAW_SYMBOLS = 0,
    COMICS_DRAW_SIXELS = 1,
    COMICS_DRAW_KITTY = 2,
    COMICS_DRAW_ITERM2 = 3,
};

enum {
    COMICS_COLORS_TRUECOLOR = 0,
    COMICS_COLORS_256 = 1,
    COMICS_COLORS_16 = 2,
    COMICS_COLORS_NONE = 3,
};

/* Decodes `length` bytes of `type` ("png", "jpeg" or "gif"; the first
   frame of an animation) and draws them as large as fits in
   `max_columns` x `max_rows` cells of `cell_width` x `cell_height`
   pixels, keeping the picture's shape, with the sequences of the terminal
   `environment` describes (chafa's defaults fill in what it lacks, so a
   forced mode still works). Returns a malloc'd string to free with
   comics_imaging_free, and whether the source was animated; or NULL with
   the reason in `error`. */
char *comics_imaging_draw(const uint8_t *bytes, size_t length, const char *type, int max_columns, int max_rows,
                          int mode, int colors, int cell_width, int cell_height, char **environment,
                          int *is_animated, char *error, size_t error_size);

void comics_imaging_free(char *text);

#endif
