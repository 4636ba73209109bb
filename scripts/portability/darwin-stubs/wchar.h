#ifndef REWIND_STUB_WCHAR_H
#define REWIND_STUB_WCHAR_H
#include <stddef.h>
typedef int wint_t;   /* Darwin's __darwin_wint_t */
int wcwidth(wchar_t character);
#endif
