#ifndef REWIND_STUB_CURSES_H
#define REWIND_STUB_CURSES_H
/* What Sources/CNcurses/shim.h uses of macOS's <curses.h>: ncurses 6.0 with
   NCURSES_MOUSE_VERSION 1, so there is no BUTTON5_PRESSED and the wheel-down
   step arrives as REPORT_MOUSE_POSITION (see the shim). */
#include <stddef.h>
#include <stdbool.h>
#include <wchar.h>

#define NCURSES_MOUSE_VERSION 1
#define OK 0
#define ERR (-1)
#define KEY_CODE_YES 0400
#define KEY_F0 0410
#define KEY_F(n) (KEY_F0 + (n))

typedef unsigned int chtype;
typedef chtype attr_t;
typedef unsigned long mmask_t;
typedef struct _win_st WINDOW;
typedef struct screen SCREEN;
typedef struct { short id; int x, y, z; mmask_t bstate; } MEVENT;
typedef struct __sFILE FILE;
extern FILE *__stdoutp, *__stdinp;
#define stdout __stdoutp
#define stdin __stdinp

extern WINDOW *stdscr;
extern int LINES, COLS;

#define NCURSES_ATTR_SHIFT 8
#define NCURSES_BITS(mask, shift) ((attr_t)(mask) << ((shift) + NCURSES_ATTR_SHIFT))
#define A_NORMAL ((attr_t)0)
#define A_COLOR NCURSES_BITS(((1U) << 8) - 1U, 0)
#define A_REVERSE NCURSES_BITS(1U, 10)
#define A_UNDERLINE NCURSES_BITS(1U, 9)
#define A_DIM NCURSES_BITS(1U, 12)
#define A_BOLD NCURSES_BITS(1U, 13)
#define COLOR_PAIR(n) (NCURSES_BITS((n), 0) & A_COLOR)

/* Mouse version 1: four buttons of six bits each, then the reserved ones. */
#define NCURSES_MOUSE_MASK(b, m) ((m) << (((b) - 1) * 6))
#define NCURSES_BUTTON_PRESSED 002L
#define NCURSES_BUTTON_CLICKED 004L
#define BUTTON1_PRESSED NCURSES_MOUSE_MASK(1, NCURSES_BUTTON_PRESSED)
#define BUTTON1_CLICKED NCURSES_MOUSE_MASK(1, NCURSES_BUTTON_CLICKED)
#define BUTTON4_PRESSED NCURSES_MOUSE_MASK(4, NCURSES_BUTTON_PRESSED)
#define REPORT_MOUSE_POSITION NCURSES_MOUSE_MASK(5, 0010L)
#define ALL_MOUSE_EVENTS (REPORT_MOUSE_POSITION - 1)

int getmaxy(const WINDOW *window);
int getmaxx(const WINDOW *window);
char *tigetstr(const char *name);
int wattrset(WINDOW *window, int attributes);
int mvwaddwstr(WINDOW *window, int y, int x, const wchar_t *text);
int wget_wch(WINDOW *window, wint_t *character);
int getmouse(MEVENT *event);
SCREEN *newterm(const char *type, FILE *output, FILE *input);
int set_escdelay(int milliseconds);
#endif
