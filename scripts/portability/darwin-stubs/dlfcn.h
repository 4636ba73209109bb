#ifndef REWIND_STUB_DLFCN_H
#define REWIND_STUB_DLFCN_H
typedef struct dl_info {
    const char *dli_fname;
    void *dli_fbase;
    const char *dli_sname;
    void *dli_saddr;
} Dl_info;
int dladdr(const void *address, Dl_info *info);
#endif
