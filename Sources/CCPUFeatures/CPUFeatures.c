// CPU feature detection with cpuid/xgetbv (see CPUFeatures.h for why).
#include "CPUFeatures.h"

#include <stdatomic.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

static unsigned detect(void) {
    unsigned eax, ebx, ecx, edx;
    unsigned features = REWIND_CPU_BASELINE_VECTORS;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return features;
    if (ecx & (1u << 1)) features |= REWIND_CPU_PCLMUL;
    if (ecx & (1u << 19)) features |= REWIND_CPU_SSE41;
    int osxsave = (ecx & (1u << 27)) != 0;
    unsigned long long xcr0 = 0;
    if (osxsave) {
        unsigned low, high;
        __asm__ volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
        xcr0 = ((unsigned long long)high << 32) | low;
    }
    int ymm = (xcr0 & 0x6) == 0x6;        // SSE and AVX state
    int zmm = (xcr0 & 0xE6) == 0xE6;      // and opmask, ZMM0-15 high halves, ZMM16-31
    if (__get_cpuid_max(0, 0) >= 7) {
        __cpuid_count(7, 0, eax, ebx, ecx, edx);
        if (ymm && (ebx & (1u << 5))) features |= REWIND_CPU_AVX2;
        if (zmm && (ebx & (1u << 16))) features |= REWIND_CPU_AVX512F;
        if (ecx & (1u << 10)) features |= REWIND_CPU_VPCLMULQDQ;
    }
    return features;
}
#else
static unsigned detect(void) { return 0; }
#endif

// -1: not read yet. Two first callers at once both detect and store the same value.
static atomic_int cached = -1;
static atomic_int portable_only = 0;

unsigned rewind_cpu_features(void) {
    if (atomic_load_explicit(&portable_only, memory_order_relaxed)) return 0;
    int features = atomic_load_explicit(&cached, memory_order_relaxed);
    if (features < 0) {
        features = (int)detect();
        atomic_store_explicit(&cached, features, memory_order_relaxed);
    }
    return (unsigned)features;
}

void rewind_cpu_use_portable_paths(int portable) {
    atomic_store_explicit(&portable_only, portable != 0, memory_order_relaxed);
}
