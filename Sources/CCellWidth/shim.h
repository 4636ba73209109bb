#ifndef REWIND_CCELLWIDTH_SHIM_H
#define REWIND_CCELLWIDTH_SHIM_H

// The C library's wcwidth, which Swift's Glibc module does not export: the
// width ncurses gives each code point (Sources/Inspector/Render/TerminalWidth.swift).
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700
#endif
#include <wchar.h>
#include <locale.h>

static inline int CCellWidth_wcwidth(unsigned int codePoint) { return wcwidth((wchar_t)codePoint); }

#endif
