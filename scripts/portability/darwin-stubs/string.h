#ifndef REWIND_STUB_STRING_H
#define REWIND_STUB_STRING_H
#include <stddef.h>
void *memcpy(void *restrict destination, const void *restrict source, size_t count);
void *memmove(void *destination, const void *source, size_t count);
void *memset(void *destination, int value, size_t count);
int memcmp(const void *a, const void *b, size_t count);
void *memchr(const void *bytes, int value, size_t count);
size_t strlen(const char *text);
char *strchr(const char *text, int character);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t count);
#endif
