// The end of a JSON string's plain run (the next '"', '\\' or control byte),
// for the skimmer and the parser. A search over every record spends most of
// its bytes in one long action text, where Swift's word loop (8 bytes a step)
// is the largest single cost: vector compares test 16 or 32 bytes with a few
// instructions. C because Swift has no portable way to name these intrinsics.
#include "CJSONScan.h"
#include "StopBits.h"
#include "CPUFeatures.h"

#include <string.h>

static inline bool is_stop(uint8_t byte) { return byte == '"' || byte == '\\' || byte < 0x20; }

// Bytes one by one from `from`: the tails shorter than a vector.
static inline rewind_json_run bytes_from(const uint8_t *bytes, size_t from, size_t count, bool high) {
    size_t index = from;
    uint8_t highs = 0;
    while (index < count && !is_stop(bytes[index])) highs |= bytes[index++];
    return (rewind_json_run){index, high || highs >= 0x80};
}

rewind_json_run rewind_json_plain_run_words(const uint8_t *bytes, size_t count) {
    uint64_t highs = 0;
    size_t index = 0;
    if (plain_words(bytes, count, &index, &highs, SIZE_MAX)) return (rewind_json_run){index, (highs & REWIND_HIGH_BITS) != 0};
    return bytes_from(bytes, index, count, (highs & REWIND_HIGH_BITS) != 0);
}

#if defined(__x86_64__)
#include <immintrin.h>

// The first stop in a vector whose movemasks are `stops` (non-zero) and
// `highs`, at offset `at`: only high bytes before the stop count.
static inline rewind_json_run stop_at(size_t at, uint64_t stops, uint64_t highs, bool highBefore) {
    unsigned first = (unsigned)__builtin_ctzll(stops);
    return (rewind_json_run){at + first, highBefore || (highs & ((1ull << first) - 1)) != 0};
}

static inline uint32_t stops16(__m128i v) {
    __m128i quote = _mm_cmpeq_epi8(v, _mm_set1_epi8('"'));
    __m128i backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'));
    // No unsigned compare before AVX-512: a byte is below 0x20 exactly when min(byte, 0x1F) is the byte.
    __m128i control = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1F)), v);
    return (uint32_t)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quote, backslash), control));
}

rewind_json_run rewind_json_plain_run_sse2(const uint8_t *bytes, size_t count) {
    if (count < 16) return rewind_json_plain_run_words(bytes, count);
    __m128i seen = _mm_setzero_si128();  // every byte passed, or-ed: its high bits say whether one was >= 0x80
    size_t index = 0;
    for (; index + 16 <= count; index += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(bytes + index));
        uint32_t stops = stops16(v);
        if (stops) return stop_at(index, stops, (uint32_t)_mm_movemask_epi8(v), _mm_movemask_epi8(seen) != 0);
        seen = _mm_or_si128(seen, v);
    }
    if (index < count) {
        // The last 16 bytes, overlapping ones already passed (they hold no stop): no byte loop for the tail.
        index = count - 16;
        __m128i v = _mm_loadu_si128((const __m128i *)(bytes + index));
        uint32_t stops = stops16(v);
        if (stops) return stop_at(index, stops, (uint32_t)_mm_movemask_epi8(v), _mm_movemask_epi8(seen) != 0);
        seen = _mm_or_si128(seen, v);
    }
    return (rewind_json_run){count, _mm_movemask_epi8(seen) != 0};
}

__attribute__((target("avx2")))
static inline uint64_t stops32(__m256i v) {
    __m256i quote = _mm256_cmpeq_epi8(v, _mm256_set1_epi8('"'));
    __m256i backslash = _mm256_cmpeq_epi8(v, _mm256_set1_epi8('\\'));
    __m256i control = _mm256_cmpeq_epi8(_mm256_min_epu8(v, _mm256_set1_epi8(0x1F)), v);
    return (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(_mm256_or_si256(quote, backslash), control));
}

__attribute__((target("avx2")))
rewind_json_run rewind_json_plain_run_avx2(const uint8_t *bytes, size_t count) {
    if (count < 32) return rewind_json_plain_run_sse2(bytes, count);
    __m256i seen = _mm256_setzero_si256();
    size_t index = 0;
    // 64 bytes a branch: the compares of two vectors overlap, and long texts are what this is for.
    for (; index + 64 <= count; index += 64) {
        __m256i v0 = _mm256_loadu_si256((const __m256i *)(bytes + index));
        __m256i v1 = _mm256_loadu_si256((const __m256i *)(bytes + index + 32));
        uint64_t stops = stops32(v0) | stops32(v1) << 32;
        if (stops) {
            uint64_t highs = (uint32_t)_mm256_movemask_epi8(v0) | (uint64_t)(uint32_t)_mm256_movemask_epi8(v1) << 32;
            return stop_at(index, stops, highs, _mm256_movemask_epi8(seen) != 0);
        }
        seen = _mm256_or_si256(seen, _mm256_or_si256(v0, v1));
    }
    while (index < count) {
        // 32 bytes, the last time overlapping bytes already passed (they hold no stop).
        if (index + 32 > count) index = count - 32;
        __m256i v = _mm256_loadu_si256((const __m256i *)(bytes + index));
        uint64_t stops = stops32(v);
        if (stops) return stop_at(index, stops, (uint32_t)_mm256_movemask_epi8(v), _mm256_movemask_epi8(seen) != 0);
        seen = _mm256_or_si256(seen, v);
        index += 32;
    }
    return (rewind_json_run){count, _mm256_movemask_epi8(seen) != 0};
}

int rewind_json_has_avx2(void) { return (rewind_cpu_features() & REWIND_CPU_AVX2) != 0; }

rewind_json_run rewind_json_plain_run(const uint8_t *bytes, size_t count) {
    // `rewind_cpu_features` is a load and a bit test of what was found at the first call.
    unsigned features = rewind_cpu_features();
    if (count >= 32 && (features & REWIND_CPU_AVX2)) return rewind_json_plain_run_avx2(bytes, count);
    if (features & REWIND_CPU_BASELINE_VECTORS) return rewind_json_plain_run_sse2(bytes, count);
    return rewind_json_plain_run_words(bytes, count);  // as on arm64 (tests force this)
}

#else

int rewind_json_has_avx2(void) { return 0; }

rewind_json_run rewind_json_plain_run(const uint8_t *bytes, size_t count) {
    return rewind_json_plain_run_words(bytes, count);
}

#endif
