// Shared by the C files of CJSONScan (not part of its interface).
#ifndef REWIND_STOP_BITS_H
#define REWIND_STOP_BITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

// The high bit of each byte of `word` (byte 0 lowest) that is '"', '\\' or
// below 0x20. A byte after a match may be flagged falsely (the subtraction
// borrows), but the lowest flagged byte is always a match: the same test as
// Swift's `ByteWords.quoteBackslashOrControlMask`.
static inline uint64_t stop_bits(uint64_t word) {
    const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    uint64_t quote = word ^ (ones * 0x22), backslash = word ^ (ones * 0x5C);
    uint64_t stops = ((quote - ones) & ~quote) | ((backslash - ones) & ~backslash);
    stops |= (word - ones * 0x20) & ~word;  // ~word leaves out bytes of 0x80 and more
    return stops & highs;
}

#define REWIND_HIGH_BITS 0x8080808080808080ull

// Up to `max_words` words of a plain run from `*index`, which moves past them:
// true when a stop was found (`*index` is then at it, the first stop byte);
// `*highs` collects the plain bytes, whose high bits tell of non-ASCII text.
static inline bool plain_words(const uint8_t *bytes, size_t count, size_t *index, uint64_t *highs, size_t max_words) {
    for (size_t words = 0; words < max_words && *index + 8 <= count; words++) {
        uint64_t word;
        memcpy(&word, bytes + *index, 8);  // an unaligned load, without undefined behaviour
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        word = __builtin_bswap64(word);  // byte 0 lowest, so the first match is the lowest bit
#endif
        uint64_t stops = stop_bits(word);
        if (stops) {
            unsigned plain = (unsigned)__builtin_ctzll(stops) / 8;
            *highs |= word & ((1ull << (plain * 8)) - 1);
            *index += plain;
            return true;
        }
        *highs |= word;
        *index += 8;
    }
    return false;
}

#endif
