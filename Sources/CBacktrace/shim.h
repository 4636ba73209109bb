// The two C calls the recorder's optional call-stack trace needs (Recorder.Options.trace),
// as static inline functions: Swift cannot import <execinfo.h> from Glibc, and dladdr
// needs _GNU_SOURCE on Linux. Nothing to link: both live in the C library.
#ifndef REWIND_CBACKTRACE_SHIM_H
#define REWIND_CBACKTRACE_SHIM_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <dlfcn.h>
#include <execinfo.h>
#include <stddef.h>

/// Fills `buffer` with up to `size` return addresses of the calling thread; returns how many.
static inline int rewind_backtrace(void **buffer, int size) { return backtrace(buffer, size); }

/// The (mangled) name of the symbol containing `address`, or NULL when the loader does not know it.
static inline const char *rewind_symbol_name(const void *address) {
    Dl_info info;
    if (dladdr(address, &info) == 0) return NULL;
    return info.dli_sname;
}

#endif
