#define NCURSES_WIDECHAR 1
#define _XOPEN_SOURCE_EXTENDED 1
#include "CTerminal.h"

#include <curses.h>
#include <dlfcn.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>

/* ncursesw is loaded the first time browse starts (see CTerminal.h); its
   header gives the types and attribute bits, and every call goes through
   these pointers (named call_*: the header defines some names as macros). */
#define TERMINAL_FUNCTIONS(X) \
    X(SCREEN *, newterm, (const char *type, FILE *output, FILE *input)) \
    X(SCREEN *, set_term, (SCREEN *screen)) \
    X(int, cbreak, (void)) \
    X(int, noecho, (void)) \
    X(int, nonl, (void)) \
    X(int, curs_set, (int visibility)) \
    X(int, intrflush, (WINDOW *window, bool flag)) \
    X(int, werase, (WINDOW *window)) \
    X(int, mvwaddnwstr, (WINDOW *window, int row, int column, const wchar_t *text, int length)) \
    X(int, wattr_set, (WINDOW *window, attr_t attributes, short pair, void *options)) \
    X(int, wrefresh, (WINDOW *window)) \
    X(int, clearok, (WINDOW *window, bool flag)) \
    X(int, endwin, (void)) \
    X(void, delscreen, (SCREEN *screen)) \
    X(bool, isendwin, (void)) \
    X(int, resizeterm, (int rows, int columns)) \
    X(int, getmaxy, (const WINDOW *window)) \
    X(int, getmaxx, (const WINDOW *window)) \
    X(bool, has_colors, (void)) \
    X(int, start_color, (void)) \
    X(int, use_default_colors, (void)) \
    X(int, init_pair, (short pair, short foreground, short background)) \
    X(char *, tigetstr, (const char *capability))

#define DECLARE_POINTER(result, name, parameters) result(*call_##name) parameters;
static struct {
    TERMINAL_FUNCTIONS(DECLARE_POINTER)
    WINDOW **stdscr;
    int *color_pairs;
} ncurses;

static SCREEN *screen;
static int is_open;
/* Colour pairs handed out so far: pair n+1 is (pair_colors[n][0], [1]). */
static short pair_colors[4096][2];
static int pairs_used;
static int pairs_available;

/* What a crash must undo, prepared while nothing is wrong, so that the
   handler makes async-signal-safe calls only: the terminal's modes as they
   were before browse, and the sequences that leave the alternate screen
   and show the cursor (terminfo's rmcup and cnorm). */
static struct termios modes_before;
static int have_modes_before;
static char leave_sequence[256];
static size_t leave_sequence_length;
/* SIGILL is what a Swift runtime trap raises on x86-64 (ud2); SIGTRAP on
   arm64 and under a debugger's breakpoint. */
static const int crash_signals[] = {SIGQUIT, SIGSEGV, SIGABRT, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGSYS};
static struct sigaction actions_before[sizeof crash_signals / sizeof crash_signals[0]];
static int crash_handlers_installed;
/* Mouse reporting (xterm's button events, SGR coordinates), when asked for. */
static int mouse_on;
static const char mouse_enable[] = "\033[?1000h\033[?1006h";
static const char mouse_disable[] = "\033[?1006l\033[?1000l";

static void write_all(const char *bytes, size_t length) {
    while (length > 0) {
        ssize_t written = write(STDOUT_FILENO, bytes, length);
        if (written <= 0) return;
        bytes += written;
        length -= (size_t)written;
    }
}

static void append_capability(const char *name) {
    char *sequence = ncurses.call_tigetstr(name);
    if (!sequence || sequence == (char *)-1) return;
    size_t length = strlen(sequence);
    if (leave_sequence_length + length >= sizeof leave_sequence) return;
    memcpy(leave_sequence + leave_sequence_length, sequence, length);
    leave_sequence_length += length;
}

/* Ctrl-\ or a crash: the terminal is given back, then the signal does
   what it would have done (a core dump), the handler being reset on entry. */
static void on_crash(int number) {
    if (have_modes_before) tcsetattr(STDIN_FILENO, TCSANOW, &modes_before);
    if (leave_sequence_length) {
        ssize_t written = write(STDOUT_FILENO, leave_sequence, leave_sequence_length);
        (void)written;
    }
    raise(number);
}

static void install_crash_handlers(void) {
    if (crash_handlers_installed) return;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_crash;
    action.sa_flags = SA_RESETHAND | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    for (size_t index = 0; index < sizeof crash_signals / sizeof crash_signals[0]; index++) {
        sigaction(crash_signals[index], &action, &actions_before[index]);
    }
    crash_handlers_installed = 1;
}

static void remove_crash_handlers(void) {
    if (!crash_handlers_installed) return;
    for (size_t index = 0; index < sizeof crash_signals / sizeof crash_signals[0]; index++) {
        sigaction(crash_signals[index], &actions_before[index], NULL);
    }
    crash_handlers_installed = 0;
}

static int load(char *error, size_t error_size) {
    static int state = 0; /* 0: not tried, 1: loaded, -1: failed */
    static char failure[256];
    if (state == 0) {
        void *library = dlopen("libncursesw.so.6", RTLD_NOW | RTLD_LOCAL);
        state = library ? 1 : -1;
        if (!library) snprintf(failure, sizeof failure, "cannot load ncursesw: %s", dlerror());
#define RESOLVE(result, name, parameters)                                          \
        if (state == 1 && !(*(void **)&ncurses.call_##name = dlsym(library, #name))) {    \
            snprintf(failure, sizeof failure, "ncursesw lacks %s", #name);         \
            state = -1;                                                            \
        }
        TERMINAL_FUNCTIONS(RESOLVE)
#undef RESOLVE
        if (state == 1 && (!(ncurses.stdscr = dlsym(library, "stdscr")) || !(ncurses.color_pairs = dlsym(library, "COLOR_PAIRS")))) {
            snprintf(failure, sizeof failure, "ncursesw lacks stdscr or COLOR_PAIRS");
            state = -1;
        }
    }
    if (state < 0) snprintf(error, error_size, "%s", failure);
    return state == 1 ? 0 : -1;
}

int comics_terminal_open(char *error, size_t error_size) {
    if (load(error, error_size) != 0) return -1;
    /* ncursesw writes wide characters in the locale's encoding: UTF-8,
       whatever LANG says, since every string comics holds is Unicode. */
    if (!setlocale(LC_CTYPE, "") || strcmp(nl_langinfo(CODESET), "UTF-8") != 0) setlocale(LC_CTYPE, "C.UTF-8");
    have_modes_before = tcgetattr(STDIN_FILENO, &modes_before) == 0;
    screen = ncurses.call_newterm(NULL, stdout, stdin);
    if (!screen) {
        snprintf(error, error_size, "the terminal type (TERM) is unknown to terminfo");
        return -1;
    }
    char *cursor_address = ncurses.call_tigetstr("cup");
    if (!cursor_address || cursor_address == (char *)-1) {
        ncurses.call_endwin();
        ncurses.call_delscreen(screen);
        screen = NULL;
        snprintf(error, error_size, "browse needs a terminal that can move the cursor (terminfo gives this TERM no cup)");
        return -1;
    }
    leave_sequence_length = 0;
    append_capability("rmcup");
    append_capability("cnorm");
    ncurses.call_set_term(screen);
    ncurses.call_cbreak();
    ncurses.call_noecho();
    ncurses.call_nonl();
    ncurses.call_intrflush(*ncurses.stdscr, FALSE);
    ncurses.call_curs_set(0);
    pairs_used = 0;
    pairs_available = 0;
    if (ncurses.call_has_colors() && ncurses.call_start_color() == OK) {
        ncurses.call_use_default_colors();
        pairs_available = *ncurses.color_pairs - 1;
    }
    install_crash_handlers();
    is_open = 1;
    return 0;
}

int comics_terminal_has_colors(void) {
    return is_open && pairs_available > 0;
}

void comics_terminal_mouse(int on) {
    if (on == mouse_on || !is_open) return;
    mouse_on = on;
    write_all(on ? mouse_enable : mouse_disable, (on ? sizeof mouse_enable : sizeof mouse_disable) - 1);
    /* A crash turns it off with the rest. */
    if (on && leave_sequence_length + sizeof mouse_disable < sizeof leave_sequence) {
        memcpy(leave_sequence + leave_sequence_length, mouse_disable, sizeof mouse_disable - 1);
        leave_sequence_length += sizeof mouse_disable - 1;
    }
}

void comics_terminal_close(void) {
    if (!is_open) return;
    if (mouse_on) write_all(mouse_disable, sizeof mouse_disable - 1);
    if (!ncurses.call_isendwin()) ncurses.call_endwin();
    remove_crash_handlers();
    is_open = 0;
}

void comics_terminal_reopen(void) {
    if (!screen || is_open) return;
    install_crash_handlers();
    is_open = 1;
    ncurses.call_clearok(*ncurses.stdscr, TRUE);
    ncurses.call_wrefresh(*ncurses.stdscr);
    if (mouse_on) write_all(mouse_enable, sizeof mouse_enable - 1);
}

int comics_terminal_is_open(void) { return is_open; }

void comics_terminal_size(int *rows, int *columns) {
    *rows = ncurses.call_getmaxy(*ncurses.stdscr);
    *columns = ncurses.call_getmaxx(*ncurses.stdscr);
}

void comics_terminal_resize(int rows, int columns) { ncurses.call_resizeterm(rows, columns); }

void comics_terminal_erase(void) { ncurses.call_werase(*ncurses.stdscr); }

int comics_terminal_color_pair(int foreground, int background) {
    for (int index = 0; index < pairs_used; index++) {
        if (pair_colors[index][0] == foreground && pair_colors[index][1] == background) return index + 1;
    }
    if (pairs_used >= pairs_available || pairs_used >= (int)(sizeof pair_colors / sizeof pair_colors[0])) return 0;
    if (ncurses.call_init_pair((short)(pairs_used + 1), (short)foreground, (short)background) != OK) return 0;
    pair_colors[pairs_used][0] = (short)foreground;
    pair_colors[pairs_used][1] = (short)background;
    return ++pairs_used;
}

void comics_terminal_put(int row, int column, const uint32_t *text, int length, int attributes) {
    comics_terminal_put_colored(row, column, text, length, attributes, 0);
}

void comics_terminal_put_colored(int row, int column, const uint32_t *text, int length, int attributes, int pair) {
    attr_t bits = A_NORMAL;
    if (attributes & COMICS_TEXT_BOLD) bits |= A_BOLD;
    if (attributes & COMICS_TEXT_REVERSE) bits |= A_REVERSE;
    if (attributes & COMICS_TEXT_DIM) bits |= A_DIM;
    if (attributes & COMICS_TEXT_UNDERLINE) bits |= A_UNDERLINE;
#ifdef A_ITALIC
    if (attributes & COMICS_TEXT_ITALIC) bits |= A_ITALIC;
#endif
    WINDOW *window = *ncurses.stdscr;
    ncurses.call_wattr_set(window, bits, (short)pair, NULL);
    ncurses.call_mvwaddnwstr(window, row, column, (const wchar_t *)text, length);
    ncurses.call_wattr_set(window, A_NORMAL, 0, NULL);
}

void comics_terminal_show(void) { ncurses.call_wrefresh(*ncurses.stdscr); }

void comics_terminal_repaint_all(void) { ncurses.call_clearok(*ncurses.stdscr, TRUE); }
