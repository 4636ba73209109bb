// The tape of a keyframe's state (where each value starts, ends and what it
// holds), checked in the same pass, for `rewind find`'s look-ups into states it
// never parses. Only the plain JSON a recorder writes for most states is
// judged here, a byte at a time in a tight loop, strings 16 bytes a compare:
// the Swift builder that handles everything else costs several times as much
// per value. C for the SSE2 intrinsics, like the plain runs beside it.
#include "PlainTape.h"
#include "CPUFeatures.h"

#include <stdbool.h>
#if defined(__x86_64__)
#include <emmintrin.h>
#endif

typedef struct {
    const uint8_t *bytes;
    size_t count;
    size_t position;
    bool vectors;  // SSE2 compares (x86-64 unless tests force the portable loop arm64 runs)
} cursor;

static inline void skip_space(cursor *c) {
    while (c->position < c->count) {
        uint8_t byte = c->bytes[c->position];
        if (byte != ' ' && byte != '\n' && byte != '\r' && byte != '\t') return;
        c->position++;
    }
}

// At an opening quote: past the closing one when every byte between is
// printable ASCII other than a backslash (0x20-0x7F); false otherwise.
static inline bool pass_plain_string(cursor *c) {
    size_t index = c->position + 1;
#if defined(__x86_64__)
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), space = _mm_set1_epi8(0x20);
    while (c->vectors && index + 16 <= c->count) {
        __m128i chunk = _mm_loadu_si128((const __m128i *)(c->bytes + index));
        // Signed: bytes of 0x80 and more are negative, so below 0x20 too.
        __m128i stops = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(chunk, quote), _mm_cmpeq_epi8(chunk, backslash)),
                                     _mm_cmplt_epi8(chunk, space));
        int mask = _mm_movemask_epi8(stops);
        if (mask != 0) {
            index += (size_t)__builtin_ctz((unsigned)mask);
            if (c->bytes[index] != '"') return false;
            c->position = index + 1;
            return true;
        }
        index += 16;
    }
#endif
    for (; index < c->count; index++) {
        uint8_t byte = c->bytes[index];
        if (byte == '"') {
            c->position = index + 1;
            return true;
        }
        if (byte < 0x20 || byte >= 0x80 || byte == '\\') return false;
    }
    return false;
}

// Past an integer of at most 18 digits (no leading zero, an optional minus);
// false for anything else, a fraction or an exponent included.
static inline bool pass_small_integer(cursor *c) {
    size_t index = c->position;
    if (index < c->count && c->bytes[index] == '-') index++;
    size_t digits = index;
    while (index < c->count && c->bytes[index] >= '0' && c->bytes[index] <= '9') index++;
    size_t length = index - digits;
    if (length == 0 || length > 18 || (length > 1 && c->bytes[digits] == '0')) return false;
    if (index < c->count && (c->bytes[index] == '.' || (c->bytes[index] | 0x20) == 'e')) return false;
    c->position = index;
    return true;
}

static inline bool pass_literal(cursor *c, const char *literal, size_t length) {
    if (c->position + length > c->count) return false;
    for (size_t i = 0; i < length; i++) {
        if (c->bytes[c->position + i] != (uint8_t)literal[i]) return false;
    }
    c->position += length;
    return true;
}

// At a member's opening quote: its key, then past the colon.
static inline bool read_key(cursor *c, int32_t *key_start, int32_t *key_length) {
    size_t quote = c->position;
    if (quote >= c->count || c->bytes[quote] != '"' || !pass_plain_string(c)) return false;
    *key_start = (int32_t)(quote + 1);
    *key_length = (int32_t)(c->position - quote - 2);
    skip_space(c);
    if (c->position >= c->count || c->bytes[c->position] != ':') return false;
    c->position++;
    skip_space(c);
    return true;
}

ptrdiff_t rewind_json_plain_tape(const uint8_t *bytes, size_t count, rewind_json_tape_entry *tape, size_t capacity, int max_depth) {
    if (count >= INT32_MAX || max_depth > 512) return REWIND_JSON_TAPE_UNDECIDED;
    cursor c = {bytes, count, 0, (rewind_cpu_features() & REWIND_CPU_BASELINE_VECTORS) != 0};
    // Tape positions of the containers not yet closed, innermost last.
    int32_t open[512];
    int depth = 0;
    size_t written = 0;
    int32_t key_start = -1, key_length = 0;
    skip_space(&c);
    for (;;) {
        // A value (a member's, when a key was just read).
        if (c.position >= count) return REWIND_JSON_TAPE_UNDECIDED;
        if (written >= capacity) return REWIND_JSON_TAPE_FULL;
        rewind_json_tape_entry *entry = &tape[written];
        entry->start = (int32_t)c.position;
        entry->key_start = key_start;
        entry->key_length = key_length;
        key_start = -1;
        key_length = 0;
        uint8_t opening = bytes[c.position];
        bool closes = false;
        if (opening == '{' || opening == '[') {
            if (depth >= max_depth) return REWIND_JSON_TAPE_UNDECIDED;
            open[depth++] = (int32_t)written++;
            c.position++;
            skip_space(&c);
            if (c.position >= count) return REWIND_JSON_TAPE_UNDECIDED;
            if (bytes[c.position] == (opening == '{' ? '}' : ']')) {
                c.position++;
                closes = true;
            } else {
                if (opening == '{' && !read_key(&c, &key_start, &key_length)) return REWIND_JSON_TAPE_UNDECIDED;
                continue;   // to its first member or element
            }
        } else {
            bool passed;
            switch (opening) {
            case '"': passed = pass_plain_string(&c); break;
            case 't': passed = pass_literal(&c, "true", 4); break;
            case 'f': passed = pass_literal(&c, "false", 5); break;
            case 'n': passed = pass_literal(&c, "null", 4); break;
            default: passed = pass_small_integer(&c); break;
            }
            if (!passed) return REWIND_JSON_TAPE_UNDECIDED;
            entry->end = (int32_t)c.position;
            entry->next = (int32_t)(++written);
            if (depth == 0) {
                skip_space(&c);
                return c.position == count ? (ptrdiff_t)written : REWIND_JSON_TAPE_UNDECIDED;
            }
        }
        // After a value: close what ends here, or pass the `,` before the next.
        for (;;) {
            if (closes) {
                int32_t container = open[--depth];
                tape[container].end = (int32_t)c.position;
                tape[container].next = (int32_t)written;
                if (depth == 0) {
                    skip_space(&c);
                    return c.position == count ? (ptrdiff_t)written : REWIND_JSON_TAPE_UNDECIDED;
                }
            }
            skip_space(&c);
            if (c.position >= count) return REWIND_JSON_TAPE_UNDECIDED;
            bool is_object = bytes[tape[open[depth - 1]].start] == '{';
            uint8_t byte = bytes[c.position++];
            if (byte == ',') {
                skip_space(&c);
                if (is_object && !read_key(&c, &key_start, &key_length)) return REWIND_JSON_TAPE_UNDECIDED;
                break;
            }
            if (byte != (is_object ? '}' : ']')) return REWIND_JSON_TAPE_UNDECIDED;
            closes = true;
        }
    }
}
