// CRC-32 (zlib: polynomial 0x04C11DB7, reflected as 0xEDB88320) by carry-less
// multiplication, after Gopal et al., "Fast CRC Computation for Generic
// Polynomials Using PCLMULQDQ Instruction" (Intel, 2009). Four 128-bit lanes
// fold 64 bytes a step; then one lane, then 128 -> 64 -> 32 bits by Barrett
// reduction. Bit-reflected throughout, so the constants are x^k mod P
// reflected and shifted left one bit (the paper's "k1".."k5", "mu", "P'").
// Where the CPU has VPCLMULQDQ, 512-bit registers fold 256 bytes a step first.
#include "CRC32Hardware.h"
#include "CPUFeatures.h"

// The classic byte-at-a-time table (reflected 0xEDB88320), for the tail under
// 16 bytes the folding leaves: one call per record instead of Swift's sliced
// tables, whose setup cost more than the few bytes they read.
static const uint32_t byte_table[256] = {
    0x00000000, 0x77073096, 0xee0e612c, 0x990951ba, 0x076dc419, 0x706af48f,
    0xe963a535, 0x9e6495a3, 0x0edb8832, 0x79dcb8a4, 0xe0d5e91e, 0x97d2d988,
    0x09b64c2b, 0x7eb17cbd, 0xe7b82d07, 0x90bf1d91, 0x1db71064, 0x6ab020f2,
    0xf3b97148, 0x84be41de, 0x1adad47d, 0x6ddde4eb, 0xf4d4b551, 0x83d385c7,
    0x136c9856, 0x646ba8c0, 0xfd62f97a, 0x8a65c9ec, 0x14015c4f, 0x63066cd9,
    0xfa0f3d63, 0x8d080df5, 0x3b6e20c8, 0x4c69105e, 0xd56041e4, 0xa2677172,
    0x3c03e4d1, 0x4b04d447, 0xd20d85fd, 0xa50ab56b, 0x35b5a8fa, 0x42b2986c,
    0xdbbbc9d6, 0xacbcf940, 0x32d86ce3, 0x45df5c75, 0xdcd60dcf, 0xabd13d59,
    0x26d930ac, 0x51de003a, 0xc8d75180, 0xbfd06116, 0x21b4f4b5, 0x56b3c423,
    0xcfba9599, 0xb8bda50f, 0x2802b89e, 0x5f058808, 0xc60cd9b2, 0xb10be924,
    0x2f6f7c87, 0x58684c11, 0xc1611dab, 0xb6662d3d, 0x76dc4190, 0x01db7106,
    0x98d220bc, 0xefd5102a, 0x71b18589, 0x06b6b51f, 0x9fbfe4a5, 0xe8b8d433,
    0x7807c9a2, 0x0f00f934, 0x9609a88e, 0xe10e9818, 0x7f6a0dbb, 0x086d3d2d,
    0x91646c97, 0xe6635c01, 0x6b6b51f4, 0x1c6c6162, 0x856530d8, 0xf262004e,
    0x6c0695ed, 0x1b01a57b, 0x8208f4c1, 0xf50fc457, 0x65b0d9c6, 0x12b7e950,
    0x8bbeb8ea, 0xfcb9887c, 0x62dd1ddf, 0x15da2d49, 0x8cd37cf3, 0xfbd44c65,
    0x4db26158, 0x3ab551ce, 0xa3bc0074, 0xd4bb30e2, 0x4adfa541, 0x3dd895d7,
    0xa4d1c46d, 0xd3d6f4fb, 0x4369e96a, 0x346ed9fc, 0xad678846, 0xda60b8d0,
    0x44042d73, 0x33031de5, 0xaa0a4c5f, 0xdd0d7cc9, 0x5005713c, 0x270241aa,
    0xbe0b1010, 0xc90c2086, 0x5768b525, 0x206f85b3, 0xb966d409, 0xce61e49f,
    0x5edef90e, 0x29d9c998, 0xb0d09822, 0xc7d7a8b4, 0x59b33d17, 0x2eb40d81,
    0xb7bd5c3b, 0xc0ba6cad, 0xedb88320, 0x9abfb3b6, 0x03b6e20c, 0x74b1d29a,
    0xead54739, 0x9dd277af, 0x04db2615, 0x73dc1683, 0xe3630b12, 0x94643b84,
    0x0d6d6a3e, 0x7a6a5aa8, 0xe40ecf0b, 0x9309ff9d, 0x0a00ae27, 0x7d079eb1,
    0xf00f9344, 0x8708a3d2, 0x1e01f268, 0x6906c2fe, 0xf762575d, 0x806567cb,
    0x196c3671, 0x6e6b06e7, 0xfed41b76, 0x89d32be0, 0x10da7a5a, 0x67dd4acc,
    0xf9b9df6f, 0x8ebeeff9, 0x17b7be43, 0x60b08ed5, 0xd6d6a3e8, 0xa1d1937e,
    0x38d8c2c4, 0x4fdff252, 0xd1bb67f1, 0xa6bc5767, 0x3fb506dd, 0x48b2364b,
    0xd80d2bda, 0xaf0a1b4c, 0x36034af6, 0x41047a60, 0xdf60efc3, 0xa867df55,
    0x316e8eef, 0x4669be79, 0xcb61b38c, 0xbc66831a, 0x256fd2a0, 0x5268e236,
    0xcc0c7795, 0xbb0b4703, 0x220216b9, 0x5505262f, 0xc5ba3bbe, 0xb2bd0b28,
    0x2bb45a92, 0x5cb36a04, 0xc2d7ffa7, 0xb5d0cf31, 0x2cd99e8b, 0x5bdeae1d,
    0x9b64c2b0, 0xec63f226, 0x756aa39c, 0x026d930a, 0x9c0906a9, 0xeb0e363f,
    0x72076785, 0x05005713, 0x95bf4a82, 0xe2b87a14, 0x7bb12bae, 0x0cb61b38,
    0x92d28e9b, 0xe5d5be0d, 0x7cdcefb7, 0x0bdbdf21, 0x86d3d2d4, 0xf1d4e242,
    0x68ddb3f8, 0x1fda836e, 0x81be16cd, 0xf6b9265b, 0x6fb077e1, 0x18b74777,
    0x88085ae6, 0xff0f6a70, 0x66063bca, 0x11010b5c, 0x8f659eff, 0xf862ae69,
    0x616bffd3, 0x166ccf45, 0xa00ae278, 0xd70dd2ee, 0x4e048354, 0x3903b3c2,
    0xa7672661, 0xd06016f7, 0x4969474d, 0x3e6e77db, 0xaed16a4a, 0xd9d65adc,
    0x40df0b66, 0x37d83bf0, 0xa9bcae53, 0xdebb9ec5, 0x47b2cf7f, 0x30b5ffe9,
    0xbdbdf21c, 0xcabac28a, 0x53b39330, 0x24b4a3a6, 0xbad03605, 0xcdd70693,
    0x54de5729, 0x23d967bf, 0xb3667a2e, 0xc4614ab8, 0x5d681b02, 0x2a6f2b94,
    0xb40bbe37, 0xc30c8ea1, 0x5a05df1b, 0x2d02ef8d,
};

uint32_t rewind_crc32_bytes(uint32_t crc, const void *bytes, size_t count) {
    const uint8_t *p = (const uint8_t *)bytes;
    for (size_t i = 0; i < count; i++) crc = byte_table[(crc ^ p[i]) & 0xFF] ^ (crc >> 8);
    return crc;
}

#if defined(__x86_64__)
#include <immintrin.h>

int rewind_crc32_hardware_available(void) {
    unsigned needed = REWIND_CPU_PCLMUL | REWIND_CPU_SSE41;
    return (rewind_cpu_features() & needed) == needed;
}

// Whether the CPU multiplies four lanes at once (VPCLMULQDQ on 512-bit registers).
static int has_wide_fold(void) {
    unsigned needed = REWIND_CPU_AVX512F | REWIND_CPU_VPCLMULQDQ;
    return (rewind_cpu_features() & needed) == needed;
}

// The same folding with 512-bit registers: four of them, 256 bytes a step,
// then one, then its four lanes into one 128-bit lane; the rest goes on as
// below. A record of a kilobyte takes a quarter of the multiplies. Needs
// `*left` >= 256; moves `*p` and `*left` past what it folded.
__attribute__((target("avx512f,vpclmulqdq,pclmul,sse4.1")))
static __m128i fold_wide(uint32_t crc, const uint8_t **p, size_t *left) {
    // x^(2048+32) and x^(2048-32) mod P, in every lane: fold a register 2048 bits (four registers) forward.
    const __m512i fold16 = _mm512_set_epi64(0x01322d1430, 0x011542778a, 0x01322d1430, 0x011542778a,
                                            0x01322d1430, 0x011542778a, 0x01322d1430, 0x011542778a);
    // x^(512+32) and x^(512-32) mod P: fold a register 512 bits forward.
    const __m512i fold4 = _mm512_set_epi64(0x01c6e41596, 0x0154442bd4, 0x01c6e41596, 0x0154442bd4,
                                           0x01c6e41596, 0x0154442bd4, 0x01c6e41596, 0x0154442bd4);
    // Per lane, what folds it onto the last: 384, 256 and 128 bits (the last lane stays).
    const __m512i lanes = _mm512_set_epi64(0, 0, 0x00ccaa009e, 0x01751997d0,
                                           0x015a546366, 0x00f1da05aa, 0x0174359406, 0x003db1ecdc);
    const uint8_t *q = *p;
    size_t n = *left;
    __m512i z0 = _mm512_loadu_si512((const void *)(q + 0));
    __m512i z1 = _mm512_loadu_si512((const void *)(q + 64));
    __m512i z2 = _mm512_loadu_si512((const void *)(q + 128));
    __m512i z3 = _mm512_loadu_si512((const void *)(q + 192));
    z0 = _mm512_xor_si512(z0, _mm512_inserti32x4(_mm512_setzero_si512(), _mm_cvtsi32_si128((int)crc), 0));
    q += 256;
    n -= 256;
// a * k folded (both halves) and b, XORed: 0x96 is a ^ b ^ c.
#define FOLD(a, k, b) _mm512_ternarylogic_epi64(_mm512_clmulepi64_epi128(a, k, 0x00), _mm512_clmulepi64_epi128(a, k, 0x11), b, 0x96)
    while (n >= 256) {
        z0 = FOLD(z0, fold16, _mm512_loadu_si512((const void *)(q + 0)));
        z1 = FOLD(z1, fold16, _mm512_loadu_si512((const void *)(q + 64)));
        z2 = FOLD(z2, fold16, _mm512_loadu_si512((const void *)(q + 128)));
        z3 = FOLD(z3, fold16, _mm512_loadu_si512((const void *)(q + 192)));
        q += 256;
        n -= 256;
    }
    // Four registers into one.
    z0 = FOLD(z0, fold4, z1);
    z0 = FOLD(z0, fold4, z2);
    z0 = FOLD(z0, fold4, z3);
    while (n >= 64) {
        z0 = FOLD(z0, fold4, _mm512_loadu_si512((const void *)q));
        q += 64;
        n -= 64;
    }
#undef FOLD
    // Its four lanes into the last.
    __m512i t = _mm512_xor_si512(_mm512_clmulepi64_epi128(z0, lanes, 0x00), _mm512_clmulepi64_epi128(z0, lanes, 0x11));
    __m128i x = _mm_xor_si128(_mm512_extracti32x4_epi32(z0, 3), _mm512_extracti32x4_epi32(t, 0));
    x = _mm_xor_si128(x, _mm_xor_si128(_mm512_extracti32x4_epi32(t, 1), _mm512_extracti32x4_epi32(t, 2)));
    *p = q;
    *left = n;
    return x;
}

__attribute__((target("pclmul,sse4.1")))
static uint32_t fold(uint32_t crc, const void *bytes, size_t count, size_t *consumed, int wide) {
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
    if (wide && left >= 256) {
        x1 = fold_wide(crc, &p, &left);
        goto lanes_folded;
    }
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

lanes_folded:
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

uint32_t rewind_crc32_fold(uint32_t crc, const void *bytes, size_t count, size_t *consumed) {
    return fold(crc, bytes, count, consumed, has_wide_fold());
}

uint32_t rewind_crc32_fold_128(uint32_t crc, const void *bytes, size_t count, size_t *consumed) {
    return fold(crc, bytes, count, consumed, 0);
}

#else

int rewind_crc32_hardware_available(void) { return 0; }

uint32_t rewind_crc32_fold(uint32_t crc, const void *bytes, size_t count, size_t *consumed) {
    (void)bytes;
    (void)count;
    *consumed = 0;
    return crc;
}

uint32_t rewind_crc32_fold_128(uint32_t crc, const void *bytes, size_t count, size_t *consumed) {
    return rewind_crc32_fold(crc, bytes, count, consumed);
}

#endif
