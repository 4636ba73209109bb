#ifndef REWIND_STUB_EXECINFO_H
#define REWIND_STUB_EXECINFO_H
int backtrace(void **buffer, int size);
#endif
