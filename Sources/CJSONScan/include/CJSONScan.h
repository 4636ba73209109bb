#ifndef REWIND_CJSON_SCAN_H
#define REWIND_CJSON_SCAN_H

// The C fast paths of Rewind's reading jobs (docs/ARCHITECTURE.md, "Reading:
// one reference, one fast path"): where a string's plain run ends, strict UTF-8,
// the checked skim (would the parser accept this value, and where does it end),
// a document's tape, and members matched against a template. Each is held to its
// reference (the parser, `JSONPatch(jsonValue:)`, `ParsedEntry`) by a differential
// test and the `fast-readers` fuzz target. C because these loops run over every
// byte of a search, where Swift's bounds checks and calls cost more than the work.

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

// MARK: Reference readers on demand

/// The reading jobs, as bits of `rewind_reference_readers()`.
enum {
    REWIND_REFERENCE_ENTRY = 1u << 0,      // an entry line: `ParsedEntry` instead of the template
    REWIND_REFERENCE_PATCH = 1u << 1,      // a patch: the parser and `JSONPatch(jsonValue:)`
    REWIND_REFERENCE_POINTER = 1u << 2,    // a JSON Pointer: split character by character
    REWIND_REFERENCE_PLAIN_RUN = 1u << 3,  // where a string's plain run ends: byte by byte
    REWIND_REFERENCE_TAPE = 1u << 4,       // a keyframe looked up in: parsed whole
    REWIND_REFERENCE_CRC32 = 1u << 5,      // CRC-32: the tables, not carry-less multiplication
};

/// The jobs whose reference runs instead of their fast path: read once, when the
/// library loads, from `REWIND_REFERENCE_READERS` (`all`, or a comma-separated list
/// of `entry`, `patch`, `pointer`, `plain-run`, `tape`, `crc32`). For telling a
/// fast path's bug from the data's, and for measuring what each fast path gains.
extern unsigned rewind_reference_readers_set;

static inline unsigned rewind_reference_readers(void) { return rewind_reference_readers_set; }

// MARK: Where a string's plain run ends

/// Where a JSON string's plain run ends: `plain` is the offset of the first byte
/// that is '"', '\\' or below 0x20 (the count when there is none), and
/// `hasHighByte` says whether a byte before it is 0x80 or more (so the caller
/// knows whether the run needs UTF-8 validation).
typedef struct {
    size_t plain;
    bool hasHighByte;
} rewind_json_run;

/// The definition, a byte at a time: what the fast path is held to.
static inline rewind_json_run rewind_json_plain_run_reference(const uint8_t *bytes, size_t count) {
    size_t index = 0;
    uint8_t highs = 0;
    while (index < count) {
        uint8_t byte = bytes[index];
        if (byte == '"' || byte == '\\' || byte < 0x20) break;
        highs |= byte;
        index++;
    }
    return (rewind_json_run){index, highs >= 0x80};
}

/// Sixteen bytes, as the compiler's portable vectors (SSE2 on x86-64, NEON on arm64).
typedef uint8_t rewind_json_bytes16 __attribute__((vector_size(16), aligned(1)));

/// A vector that is zero exactly at the stops of `chunk` (its bytes that are '"', '\\' or
/// below 0x20), in four operations: '"' xor 2 is 0x20 and a control byte xor 2 stays below
/// it, so one saturating subtraction of 0x20 zeroes both; a backslash xor '\\' is zero; the
/// smaller of the two is zero at any stop and nowhere else.
static inline rewind_json_bytes16 rewind_json_stop_zeros16(rewind_json_bytes16 chunk) {
    const rewind_json_bytes16 zero = {0};
    rewind_json_bytes16 quoteOrControl = __builtin_elementwise_sub_sat(chunk ^ 0x02, zero + 0x20);
    return __builtin_elementwise_min(quoteOrControl, chunk ^ '\\');
}

/// Whether any byte of a vector is zero.
static inline bool rewind_json_any_zero16(rewind_json_bytes16 vector) {
    rewind_json_bytes16 zeros = (rewind_json_bytes16)(vector == 0);
    uint64_t words[2];
    memcpy(words, &zeros, 16);
    return (words[0] | words[1]) != 0;
}

/// Where the first stop of the sixteen bytes at `bytes + index` is, when they have one:
/// true, with `*run` the run that ends there (`highs` or-ing the bytes before them).
static inline bool rewind_json_stop_in16(const uint8_t *bytes, size_t index, uint64_t highs, rewind_json_run *run) {
    rewind_json_bytes16 chunk;
    memcpy(&chunk, bytes + index, 16);
    rewind_json_bytes16 stops = (rewind_json_bytes16)(rewind_json_stop_zeros16(chunk) == 0);
    uint64_t stop[2], byte[2];
    memcpy(stop, &stops, 16);
    if ((stop[0] | stop[1]) == 0) return false;
    memcpy(byte, &chunk, 16);
    // Byte k of the vector is bits 8k..8k+7 of its words (little-endian): the first stop is the lowest set bit.
    unsigned first = stop[0] != 0 ? (unsigned)__builtin_ctzll(stop[0]) / 8 : 8 + (unsigned)__builtin_ctzll(stop[1]) / 8;
    uint64_t before = first < 8 ? byte[0] & ((1ull << (8 * first)) - 1) : byte[0] | (byte[1] & ((1ull << (8 * (first - 8))) - 1));
    *run = (rewind_json_run){index + first, ((highs | before) & 0x8080808080808080ull) != 0};
    return true;
}

/// The plain run at the start of `bytes[0..<count]`: the same answer as
/// `rewind_json_plain_run_reference`. The first sixteen bytes alone (where a key
/// or a short value ends), then 64 bytes a branch. Inline, so Swift callers (the
/// parser's strings, a patch's paths) pay no call for a short key. Never reads
/// outside `bytes[0..<count]`.
static inline rewind_json_run rewind_json_plain_run(const uint8_t *bytes, size_t count) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (__builtin_expect((rewind_reference_readers_set & REWIND_REFERENCE_PLAIN_RUN) == 0, 1)) {
        rewind_json_run run;
        size_t index = 0;
        // The bytes passed, or-ed together: their high bits say whether any is 0x80 or more.
        uint64_t highs = 0;
        if (count >= 16) {
            if (rewind_json_stop_in16(bytes, 0, 0, &run)) return run;
            uint64_t words[2];
            memcpy(words, bytes, 16);
            highs = words[0] | words[1];
            index = 16;
        }
        // Long texts (what this is for) four vectors a branch, the smallest of their stop
        // vectors tested once; the vector with the first stop is then found sixteen bytes at a time below.
        rewind_json_bytes16 passed = {0};
        while (index + 64 <= count) {
            rewind_json_bytes16 a, b, c, d;
            memcpy(&a, bytes + index, 16);
            memcpy(&b, bytes + index + 16, 16);
            memcpy(&c, bytes + index + 32, 16);
            memcpy(&d, bytes + index + 48, 16);
            rewind_json_bytes16 stops = __builtin_elementwise_min(
                __builtin_elementwise_min(rewind_json_stop_zeros16(a), rewind_json_stop_zeros16(b)),
                __builtin_elementwise_min(rewind_json_stop_zeros16(c), rewind_json_stop_zeros16(d)));
            if (rewind_json_any_zero16(stops)) break;
            passed |= (a | b) | (c | d);
            index += 64;
        }
        {
            uint64_t words[2];
            memcpy(words, &passed, 16);
            highs |= words[0] | words[1];
        }
        for (; index + 16 <= count; index += 16) {
            if (rewind_json_stop_in16(bytes, index, highs, &run)) return run;
            uint64_t words[2];
            memcpy(words, bytes + index, 16);
            highs |= words[0] | words[1];
        }
        rewind_json_run tail = rewind_json_plain_run_reference(bytes + index, count - index);
        return (rewind_json_run){index + tail.plain, tail.hasHighByte || (highs & 0x8080808080808080ull) != 0};
    }
#endif
    return rewind_json_plain_run_reference(bytes, count);
}

// MARK: UTF-8, the checked skim, the tape

/// Whether `bytes[0..<count]` is well-formed UTF-8 (RFC 3629: no overlong forms, no
/// surrogates, nothing above U+10FFFF, no truncated sequences), as the parser requires of strings.
bool rewind_json_valid_utf8(const uint8_t *bytes, size_t count);

/// Not judged (invalid, or valid but outside what the skim judges): the caller decides.
#define REWIND_JSON_UNDECIDED (-1)

/// Deepest nesting the skim and the tape judge (`JSONParser.maximumDepth` less room
/// for the levels around a value skimmed on its own); deeper values are left to the caller.
#define REWIND_JSON_SKIM_MAX_DEPTH 504

/// The end of the JSON value at `bytes[position]` when the parser certainly
/// accepts it, with `depth` containers around it already; `REWIND_JSON_UNDECIDED`
/// for anything else: invalid JSON, and the few valid things left to the parser
/// (integers of more than 18 digits, decimals of more than 15 digits or with a
/// longer exponent, nesting past `REWIND_JSON_SKIM_MAX_DEPTH`). Space between
/// tokens is allowed. `compact`, when not NULL, is set to whether the bytes are
/// exactly what `JSONWriter.compact` writes for the parsed value (no space, no
/// escape, integers only, no repeated key); it may say false for some that are.
/// Never reads outside `bytes[0..<count]`.
ptrdiff_t rewind_json_skip_checked(const uint8_t *bytes, size_t count, size_t position, int depth, bool *compact);

/// The end of the value at `bytes[position]` without checking it: a string at its
/// first unescaped quote, a container at its matching bracket (strings skipped), a
/// scalar at the next `,` `}` `]` or space. `REWIND_JSON_UNDECIDED` when the bytes end
/// first. As Swift's `JSONSkimmer.skipUnchecked`, which the reference reader delimits members with.
ptrdiff_t rewind_json_skip_unchecked(const uint8_t *bytes, size_t count, size_t position);

/// One value of a document: where it starts and ends, the tape position after it
/// and everything in it, and a member's key (between its quotes, escapes not
/// undone; `key_start` -1 for an element or the document, `key_length` negative,
/// `~length`, when the key has escapes).
typedef struct {
    int32_t start;
    int32_t end;
    int32_t next;
    int32_t key_start;
    int32_t key_length;
} rewind_json_tape_entry;

/// The tape is too small: call again with room for `count / 2 + 2` entries (always enough).
#define REWIND_JSON_TAPE_FULL (-2)

/// The tape of the document `bytes[0..<count]` (under 2 GB) when the checked skim
/// accepts it whole: the entries written, each container before what it holds;
/// `REWIND_JSON_UNDECIDED` for anything else; `REWIND_JSON_TAPE_FULL` when
/// `capacity` entries are not enough.
ptrdiff_t rewind_json_tape(const uint8_t *bytes, size_t count, rewind_json_tape_entry *tape, size_t capacity);

// MARK: Members as written

/// How a template member's value is read.
enum {
    REWIND_TEMPLATE_NO_VALUE = 0,      // the prefix is all (a literal member, or punctuation)
    REWIND_TEMPLATE_CHECKED = 1,       // any value the parser accepts (`rewind_json_skip_checked`)
    REWIND_TEMPLATE_INTEGER = 2,       // the same, and an integer (no fraction, no exponent)
    REWIND_TEMPLATE_PLAIN_STRING = 3,  // the same, and a string without escapes
    REWIND_TEMPLATE_UNCHECKED = 4,     // only delimited (`rewind_json_skip_unchecked`)
    REWIND_TEMPLATE_CALLER = 5,        // read by the caller: the match pauses at its value
};

/// One member of a template: the bytes that come before its value (`,"seq":`),
/// how its value is read, how many containers are around that value, whether it
/// may be left out, and the part of `rewind_json_read_template`'s answer that
/// receives where the value is (0: none).
typedef struct {
    const uint8_t *prefix;
    size_t prefix_length;
    uint8_t value;
    uint8_t depth;
    bool optional;
    uint8_t part;
} rewind_json_template_member;

/// Where a part's value is; `found` false when its member was left out.
typedef struct {
    size_t start;
    size_t length;
    bool found;
} rewind_json_span;

/// Where a match stands: the next member to match, and where in the bytes.
/// `{0, 0}` starts a match; a paused match goes on from where the caller left it.
typedef struct {
    size_t member;
    size_t position;
} rewind_json_template_cursor;

/// What `rewind_json_read_template` answers.
enum {
    REWIND_TEMPLATE_MISMATCH = 0,  // not the template's members
    REWIND_TEMPLATE_MATCHED = 1,   // every member, and nothing after
    REWIND_TEMPLATE_PAUSED = 2,    // at a `REWIND_TEMPLATE_CALLER` member's value
};

/// Whether `bytes[0..<count]` is exactly the template's members, in order (the
/// optional ones present or not), each value read as its member says, and nothing
/// after: `REWIND_TEMPLATE_MATCHED`, with `parts[k]` telling where the value of the
/// member whose part is k is (`part_count` slots, cleared when `cursor` is at the
/// start); `REWIND_TEMPLATE_MISMATCH` for anything else. At a member read by the
/// caller, `REWIND_TEMPLATE_PAUSED` with `cursor->position` at its value: the caller
/// reads it (and notes where it is), moves `cursor->position` past it and calls
/// again, so a value the caller reads anyway is not delimited first. `compact_part`,
/// when not 0, names the part whose value's compactness goes to `*compact` (as
/// `rewind_json_skip_checked` reports it). Knows nothing of what the members mean:
/// the template is the caller's.
int rewind_json_read_template(const uint8_t *bytes, size_t count, const rewind_json_template_member *members, size_t member_count,
                              rewind_json_template_cursor *cursor, rewind_json_span *parts, size_t part_count,
                              uint8_t compact_part, bool *compact);

#endif
