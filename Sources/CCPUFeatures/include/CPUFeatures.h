#ifndef REWIND_CPU_FEATURES_H
#define REWIND_CPU_FEATURES_H

/// What this CPU (and its operating system) can run, for the C fast paths of
/// CJSONScan and CRC32Hardware: a set of `REWIND_CPU_*` bits, read once.
///
/// Why not `__builtin_cpu_supports`: it reads `__cpu_model`, which comes from
/// libgcc or compiler-rt on Linux but which Apple's linker does not provide,
/// so an Intel Mac or the x86-64 simulator would fail to link. `cpuid` and
/// `xgetbv` are the CPU's own answer and need no runtime at all.
///
/// 0 on every CPU but x86-64, and 0 everywhere after
/// `rewind_cpu_use_portable_paths(1)`.
unsigned rewind_cpu_features(void);

enum {
    REWIND_CPU_PCLMUL = 1u << 0,      // carry-less multiply (with SSE4.1: the CRC folding)
    REWIND_CPU_SSE41 = 1u << 1,
    REWIND_CPU_AVX2 = 1u << 2,        // with the OS saving YMM registers
    REWIND_CPU_AVX512F = 1u << 3,     // with the OS saving ZMM registers (macOS turns that on lazily: then 0)
    REWIND_CPU_VPCLMULQDQ = 1u << 4,
    /// Set where the vector paths that need no detection (SSE2, baseline on
    /// x86-64) may run; cleared by `rewind_cpu_use_portable_paths(1)`.
    REWIND_CPU_BASELINE_VECTORS = 1u << 5,
};

/// Makes every C fast path take the portable code that other CPUs (arm64)
/// run, or (0) go back to what the CPU can do: so tests on x86-64 run the
/// code that arm64 users get. For tests only; not thread-safe against
/// callers running at the same moment.
void rewind_cpu_use_portable_paths(int portable);

#endif
