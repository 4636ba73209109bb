// CRC-32 (zlib: polynomial 0x04C11DB7, reflected as 0xEDB88320) by carry-less
// multiplication, after Gopal et al., "Fast CRC Computation for Generic
// Polynomials Using PCLMULQDQ Instruction" (Intel, 2009). Four 128-bit lanes
// fold 64 bytes a step; then one lane, then 128 -> 64 -> 32 bits by Barrett
// reduction. Bit-reflected throughout, so the constants are x^k mod P
// reflected and shifted left one bit (the paper's "k1".."k5", "mu", "P'").
// The fast path of `CRC32.checksum`, held to its tables (the reference) by
// `CRC32HardwareTests` and the `fast-readers` fuzz target.
#include "CRC32Hardware.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

// From `cpuid` itself: `__builtin_cpu_supports` needs a runtime symbol Apple's linker
// does not provide (an Intel Mac would not link). PCLMULQDQ and SSE4.1 need no OS support.
int rewind_crc32_hardware_available(void) {
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    return (ecx & bit_PCLMUL) != 0 && (ecx & bit_SSE4_1) != 0;
}

__attribute__((target("pclmul,sse4.1")))
uint32_t rewind_crc32_fold(uint32_t crc, const void *bytes, size_t count, size_t *consumed) {
    if (count < 64) {
        *consumed = 0;
        return crc;
    }
    const uint8_t *p = (const uint8_t *)bytes;
    size_t left = count & ~(size_t)15;
    *consumed = left;

    // x^(4*128+32) and x^(4*128-32) mod P: fold a lane 512 bits forward.
    const __m128i fold4 = _mm_set_epi64x(0x01c6e41596, 0x0154442bd4);
    // x^(128+32) and x^(128-32) mod P: fold a lane 128 bits forward.
    const __m128i fold1 = _mm_set_epi64x(0x00ccaa009e, 0x01751997d0);
    // x^64 mod P: fold 96 bits into 64.
    const __m128i fold64 = _mm_set_epi64x(0, 0x0163cd6124);
    // P' (the polynomial) and mu (floor(x^64 / P)) for the Barrett reduction.
    const __m128i barrett = _mm_set_epi64x(0x01f7011641, 0x01db710641);
    const __m128i low32 = _mm_setr_epi32(-1, 0, -1, 0);

    __m128i x1, lo;
    x1 = _mm_loadu_si128((const __m128i *)(p + 0));
    __m128i x2 = _mm_loadu_si128((const __m128i *)(p + 16));
    __m128i x3 = _mm_loadu_si128((const __m128i *)(p + 32));
    __m128i x4 = _mm_loadu_si128((const __m128i *)(p + 48));
    x1 = _mm_xor_si128(x1, _mm_cvtsi32_si128((int)crc));
    p += 64;
    left -= 64;

    while (left >= 64) {
        __m128i l1 = _mm_clmulepi64_si128(x1, fold4, 0x00);
        __m128i l2 = _mm_clmulepi64_si128(x2, fold4, 0x00);
        __m128i l3 = _mm_clmulepi64_si128(x3, fold4, 0x00);
        __m128i l4 = _mm_clmulepi64_si128(x4, fold4, 0x00);
        x1 = _mm_clmulepi64_si128(x1, fold4, 0x11);
        x2 = _mm_clmulepi64_si128(x2, fold4, 0x11);
        x3 = _mm_clmulepi64_si128(x3, fold4, 0x11);
        x4 = _mm_clmulepi64_si128(x4, fold4, 0x11);
        x1 = _mm_xor_si128(_mm_xor_si128(x1, l1), _mm_loadu_si128((const __m128i *)(p + 0)));
        x2 = _mm_xor_si128(_mm_xor_si128(x2, l2), _mm_loadu_si128((const __m128i *)(p + 16)));
        x3 = _mm_xor_si128(_mm_xor_si128(x3, l3), _mm_loadu_si128((const __m128i *)(p + 32)));
        x4 = _mm_xor_si128(_mm_xor_si128(x4, l4), _mm_loadu_si128((const __m128i *)(p + 48)));
        p += 64;
        left -= 64;
    }

    // Four lanes into one.
    lo = _mm_clmulepi64_si128(x1, fold1, 0x00);
    x1 = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x1, fold1, 0x11), lo), x2);
    lo = _mm_clmulepi64_si128(x1, fold1, 0x00);
    x1 = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x1, fold1, 0x11), lo), x3);
    lo = _mm_clmulepi64_si128(x1, fold1, 0x00);
    x1 = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x1, fold1, 0x11), lo), x4);

    while (left >= 16) {
        lo = _mm_clmulepi64_si128(x1, fold1, 0x00);
        x1 = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x1, fold1, 0x11), lo),
                           _mm_loadu_si128((const __m128i *)p));
        p += 16;
        left -= 16;
    }

    // 128 bits to 64.
    __m128i t = _mm_clmulepi64_si128(x1, fold1, 0x10);
    x1 = _mm_xor_si128(_mm_srli_si128(x1, 8), t);
    t = _mm_srli_si128(x1, 4);
    x1 = _mm_clmulepi64_si128(_mm_and_si128(x1, low32), fold64, 0x00);
    x1 = _mm_xor_si128(x1, t);

    // Barrett reduction to 32 bits.
    t = _mm_clmulepi64_si128(_mm_and_si128(x1, low32), barrett, 0x10);
    t = _mm_clmulepi64_si128(_mm_and_si128(t, low32), barrett, 0x00);
    x1 = _mm_xor_si128(x1, t);
    return (uint32_t)_mm_extract_epi32(x1, 1);
}

#else

int rewind_crc32_hardware_available(void) { return 0; }

uint32_t rewind_crc32_fold(uint32_t crc, const void *bytes, size_t count, size_t *consumed) {
    (void)bytes;
    (void)count;
    *consumed = 0;
    return crc;
}

#endif
