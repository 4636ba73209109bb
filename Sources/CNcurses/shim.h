#ifndef REWIND_CNCURSES_SHIM_H
#define REWIND_CNCURSES_SHIM_H

// Wide-character ncurses. Swift cannot import C macros that take arguments or
// C globals whose address changes after initscr(), so every one Rewind needs is
// wrapped below in a prefixed static inline function.
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <locale.h>
// The header per platform: macOS ships ncurses 6 as <curses.h> (wide-capable
// with the two macros above) and links it as -lncurses; Debian and most Linux
// distributions put the wide build at <ncursesw/curses.h>, linked as
// -lncursesw (the library names are set in Package.swift, per platform).
#if defined(__APPLE__)
#include <curses.h>
#elif __has_include(<ncursesw/curses.h>)
#include <ncursesw/curses.h>
#else
#include <curses.h>
#endif

// True when the terminal started by newterm can move the cursor (terminfo `cup`):
// `TERM=dumb` and other line terminals cannot draw a full screen.
static inline int CNcurses_can_address_cursor(void) {
    char *cup = tigetstr("cup");
    return cup != NULL && cup != (char *)-1;
}

static inline WINDOW *CNcurses_stdscr(void) { return stdscr; }
static inline int CNcurses_lines(void) { return LINES; }
static inline int CNcurses_cols(void) { return COLS; }
static inline int CNcurses_getmaxy(WINDOW *w) { return getmaxy(w); }
static inline int CNcurses_getmaxx(WINDOW *w) { return getmaxx(w); }
static inline int CNcurses_COLOR_PAIR(int n) { return (int)COLOR_PAIR(n); }
static inline unsigned int CNcurses_A_BOLD(void) { return A_BOLD; }
static inline unsigned int CNcurses_A_REVERSE(void) { return A_REVERSE; }
static inline unsigned int CNcurses_A_UNDERLINE(void) { return A_UNDERLINE; }
static inline unsigned int CNcurses_A_DIM(void) { return A_DIM; }
static inline unsigned int CNcurses_A_NORMAL(void) { return A_NORMAL; }
static inline int CNcurses_KEY_F(int n) { return KEY_F(n); }
static inline int CNcurses_ERR(void) { return ERR; }
static inline int CNcurses_OK(void) { return OK; }
// The mouse events Rewind reads: presses, clicks and the wheel (see CNcurses_is_wheel_down).
static inline mmask_t CNcurses_mouse_events(void) {
#if defined(BUTTON5_PRESSED)
    return ALL_MOUSE_EVENTS;
#else
    return ALL_MOUSE_EVENTS | REPORT_MOUSE_POSITION;
#endif
}
static inline mmask_t CNcurses_BUTTON1_PRESSED(void) { return BUTTON1_PRESSED; }
static inline mmask_t CNcurses_BUTTON1_CLICKED(void) { return BUTTON1_CLICKED; }
static inline mmask_t CNcurses_BUTTON4_PRESSED(void) { return BUTTON4_PRESSED; }
// Whether a mouse event is one step of the wheel down. ncurses with mouse
// version 2 (Linux) reports it as button 5; version 1 (macOS's ncurses) has no
// button 5 and reports the step as REPORT_MOUSE_POSITION alone (handle_wheel
// in ncurses' lib_mouse.c). That event must be asked for (CNcurses_mouse_events);
// in the press-and-release tracking ncurses 6.0 turns on, xterm sends no motion.
static inline int CNcurses_is_wheel_down(mmask_t buttons) {
#if defined(BUTTON5_PRESSED)
    return (buttons & BUTTON5_PRESSED) != 0;
#else
    return buttons == REPORT_MOUSE_POSITION;
#endif
}
static inline int CNcurses_setlocale_all(void) { return setlocale(LC_ALL, "") != NULL; }

static inline int CNcurses_KEY_CODE_YES(void) { return KEY_CODE_YES; }

// Attributes as one call (wattrset is a macro in some ncurses builds).
static inline int CNcurses_set_attributes(WINDOW *w, unsigned int attributes) { return wattrset(w, (int)attributes); }
// A NUL-terminated wide string at (y, x): wide characters take two cells.
static inline int CNcurses_put_wide_string(WINDOW *w, int y, int x, const wchar_t *text) { return mvwaddwstr(w, y, x, text); }
// One key: returns OK (character in *out), KEY_CODE_YES (key code in *out) or ERR (timeout).
static inline int CNcurses_read_key(WINDOW *w, unsigned int *out) {
    wint_t value = 0;
    int result = wget_wch(w, &value);
    *out = (unsigned int)value;
    return result;
}
// The pending mouse event's position and button state; 0 on success.
static inline int CNcurses_read_mouse(int *x, int *y, unsigned long *buttons) {
    MEVENT event;
    if (getmouse(&event) != OK) return -1;
    *x = event.x; *y = event.y; *buttons = (unsigned long)event.bstate;
    return 0;
}
// Starts curses on stdout/stdin; NULL (instead of exiting, as initscr does) when TERM is unusable.
static inline SCREEN *CNcurses_start_on_standard_streams(void) { return newterm(NULL, stdout, stdin); }
static inline int CNcurses_set_escdelay(int milliseconds) { return set_escdelay(milliseconds); }

#endif
