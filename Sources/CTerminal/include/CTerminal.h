#ifndef COMICS_CTERMINAL_H
#define COMICS_CTERMINAL_H

/* The full-screen terminal of `comics browse`, drawn with ncursesw. The
   library is loaded with dlopen when browse starts, so no other command
   pays for it. Only plain C types cross this header. comics reads and
   decodes the keyboard itself; ncurses owns the screen: terminfo, the
   alternate screen, and redrawing only the cells that changed. */
#include <stddef.h>
#include <stdint.h>

enum {
    COMICS_TEXT_BOLD = 1,
    COMICS_TEXT_REVERSE = 2,
    COMICS_TEXT_DIM = 4,
    COMICS_TEXT_UNDERLINE = 8,
    COMICS_TEXT_ITALIC = 16,
};

/* Enters the full screen (alternate screen, no echo, no line buffering;
   signals still raised by Ctrl-C and Ctrl-Z). While it is open, SIGQUIT
   (Ctrl-\ ) and the signals of a crash (SIGSEGV, SIGABRT, SIGBUS, SIGILL,
   SIGTRAP, SIGFPE, SIGSYS) give the terminal back before they end the
   process as they would (a core dump). 0 on success, else -1 with
   the reason in `error`. */
int comics_terminal_open(char *error, size_t error_size);
/* Gives the terminal back as it was. Safe to call twice, and from a
   signal handler's aftermath. */
void comics_terminal_close(void);
/* Takes the terminal again after comics_terminal_close (Ctrl-Z, then fg). */
void comics_terminal_reopen(void);
/* Turns mouse reporting on or off (SGR sequences; off again on close or a crash). */
void comics_terminal_mouse(int on);
int comics_terminal_is_open(void);

/* The size ncurses draws for; after a resize, comics_terminal_resize with
   the new one. */
void comics_terminal_size(int *rows, int *columns);
void comics_terminal_resize(int rows, int columns);

/* Starts a frame: every cell blank. Then `put` the text of the frame, and
   `show` sends only what differs from the frame before. */
void comics_terminal_erase(void);
/* `length` UCS-4 scalars at (row, column) with COMICS_TEXT_* attributes;
   the caller has measured them to fit. */
void comics_terminal_put(int row, int column, const uint32_t *text, int length, int attributes);
/* The same, in a colour pair from comics_terminal_color_pair. */
void comics_terminal_put_colored(int row, int column, const uint32_t *text, int length, int attributes, int pair);
/* A pair for two of the 256 indexed colours (-1: the terminal's default),
   made the first time it is asked for; 0 (no colour) when the terminal has
   none or the pairs run out. */
int comics_terminal_color_pair(int foreground, int background);
void comics_terminal_show(void);
/* Whether the open terminal draws colours (pairs to paint symbols with). */
int comics_terminal_has_colors(void);
/* The next `show` repaints every cell (after something else wrote to the terminal). */
void comics_terminal_repaint_all(void);

#endif
