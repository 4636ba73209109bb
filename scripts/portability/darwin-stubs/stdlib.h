#ifndef REWIND_STUB_STDLIB_H
#define REWIND_STUB_STDLIB_H
#include <stddef.h>
char *getenv(const char *name);
void *malloc(size_t size);
void free(void *pointer);
#endif
