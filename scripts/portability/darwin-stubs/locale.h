#ifndef REWIND_STUB_LOCALE_H
#define REWIND_STUB_LOCALE_H
#define LC_ALL 0
char *setlocale(int category, const char *locale);
#endif
