// The checked skim of Swift's `JSONSkimmer` (what the parser would accept,
// without building anything), in C for the record head every scan reads
// first: in Swift, its bounds checks, member compares and calls were a
// fifth of a directory search. Anything this does not judge goes back to
// the Swift skimmer, so it only has to be right where it answers.
#include "CheckedSkim.h"
#include "CJSONScan.h"

#include <stdbool.h>
#include <string.h>

typedef struct {
    const uint8_t *bytes;
    size_t count;
    size_t position;
} cursor;

static inline bool is_digit(uint8_t byte) { return byte >= '0' && byte <= '9'; }

static inline void skip_space(cursor *c) {
    while (c->position < c->count) {
        uint8_t byte = c->bytes[c->position];
        if (byte != ' ' && byte != '\n' && byte != '\r' && byte != '\t') return;
        c->position++;
    }
}

// Strict UTF-8 (no overlong forms, no surrogates, nothing above U+10FFFF), as `UTF8Validation.isValid`.
static bool is_valid_utf8(const uint8_t *bytes, size_t count) {
    size_t index = 0;
    while (index < count) {
        uint8_t lead = bytes[index];
        if (lead < 0x80) { index++; continue; }
        size_t length;
        uint8_t lowest = 0x80, highest = 0xBF;
        if (lead >= 0xC2 && lead <= 0xDF) length = 2;
        else if (lead == 0xE0) { length = 3; lowest = 0xA0; }
        else if ((lead >= 0xE1 && lead <= 0xEC) || lead == 0xEE || lead == 0xEF) length = 3;
        else if (lead == 0xED) { length = 3; highest = 0x9F; }
        else if (lead == 0xF0) { length = 4; lowest = 0x90; }
        else if (lead >= 0xF1 && lead <= 0xF3) length = 4;
        else if (lead == 0xF4) { length = 4; highest = 0x8F; }
        else return false;
        if (index + length > count) return false;
        if (bytes[index + 1] < lowest || bytes[index + 1] > highest) return false;
        for (size_t k = 2; k < length; k++) {
            if (bytes[index + k] < 0x80 || bytes[index + k] > 0xBF) return false;
        }
        index += length;
    }
    return true;
}

static int hex_digit(uint8_t byte) {
    if (byte >= '0' && byte <= '9') return byte - '0';
    if (byte >= 'a' && byte <= 'f') return byte - 'a' + 10;
    if (byte >= 'A' && byte <= 'F') return byte - 'A' + 10;
    return -1;
}

// Four hex digits at the position (passed), or -1.
static long hex4(cursor *c) {
    if (c->position + 4 > c->count) return -1;
    long value = 0;
    for (int k = 0; k < 4; k++) {
        int digit = hex_digit(c->bytes[c->position++]);
        if (digit < 0) return -1;
        value = value << 4 | digit;
    }
    return value;
}

// At a backslash: one escape (a high surrogate with its low half), as `JSONSkimmer.skipEscape`.
static bool skip_escape(cursor *c) {
    if (c->position + 1 >= c->count) return false;
    uint8_t escape = c->bytes[c->position + 1];
    c->position += 2;
    switch (escape) {
    case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
        return true;
    case 'u': {
        long first = hex4(c);
        if (first < 0) return false;
        if (first >= 0xD800 && first <= 0xDBFF) {
            if (c->position + 1 >= c->count || c->bytes[c->position] != '\\' || c->bytes[c->position + 1] != 'u') return false;
            c->position += 2;
            long second = hex4(c);
            return second >= 0xDC00 && second <= 0xDFFF;
        }
        return !(first >= 0xDC00 && first <= 0xDFFF);
    }
    default:
        return false;
    }
}

// The plain run from `index`, by CJSONScan's one search for where a run ends.
static inline rewind_json_run plain_run_from(const cursor *c, size_t index) {
    rewind_json_run run = rewind_json_plain_run(c->bytes + index, c->count - index);
    return (rewind_json_run){index + run.plain, run.hasHighByte};
}

// At an opening quote: past the closing one; false when the parser would not accept the string.
static bool skip_string(cursor *c) {
    size_t start = c->position + 1, index = start;
    bool high = false;
    while (true) {
        rewind_json_run run = plain_run_from(c, index);
        index = run.plain;
        high |= run.hasHighByte;
        if (index >= c->count) return false;
        uint8_t byte = c->bytes[index];
        if (byte == '"') {
            c->position = index + 1;
            return !high || is_valid_utf8(c->bytes + start, index - start);
        }
        if (byte < 0x20) return false;
        // A backslash.
        c->position = index;
        if (!skip_escape(c)) return false;
        index = c->position;
    }
}

// The number grammar of RFC 8259, judged as `JSONSkimmer.skipNumber` judges it:
// integers of up to 18 digits; decimals of up to 19 characters with a one-digit exponent.
static bool skip_number(cursor *c) {
    const uint8_t *b = c->bytes;
    size_t n = c->count, p = c->position, start = p;
    bool negative = b[p] == '-';
    if (negative) p++;
    if (p >= n || !is_digit(b[p])) return false;
    size_t digits_start = p;
    if (b[p] == '0') {
        p++;
        if (p < n && is_digit(b[p])) return false;
    } else {
        while (p < n && is_digit(b[p])) p++;
    }
    size_t integer_digits = p - digits_start;
    bool fraction = false;
    size_t exponent_digits = 0;
    if (p < n && b[p] == '.') {
        fraction = true;
        p++;
        if (p >= n || !is_digit(b[p])) return false;
        while (p < n && is_digit(b[p])) p++;
    }
    if (p < n && (b[p] | 0x20) == 'e') {
        p++;
        if (p < n && (b[p] == '+' || b[p] == '-')) p++;
        size_t exponent_start = p;
        if (p >= n || !is_digit(b[p])) return false;
        while (p < n && is_digit(b[p])) p++;
        exponent_digits = p - exponent_start;
    }
    c->position = p;
    if (!fraction && exponent_digits == 0) return integer_digits <= 18;
    if (exponent_digits > 1) return false;
    return p - start - (negative ? 1 : 0) <= 19;
}

// Passes `literal` (a literal value, or a record's member prefix) if the bytes at the position are it.
static inline bool expect(cursor *c, const char *literal, size_t length) {
    if (c->position + length > c->count || memcmp(c->bytes + c->position, literal, length) != 0) return false;
    c->position += length;
    return true;
}

#define EXPECT(c, literal) expect(c, literal, sizeof(literal) - 1)

static bool skip_value(cursor *c, int depth);

// At `[` or `{`: the container and everything in it, `depth` counting it.
static bool skip_container(cursor *c, int depth, uint8_t closing) {
    if (depth > REWIND_JSON_SKIM_MAX_DEPTH) return false;
    c->position++;
    skip_space(c);
    if (c->position < c->count && c->bytes[c->position] == closing) {
        c->position++;
        return true;
    }
    while (true) {
        skip_space(c);
        if (closing == '}') {
            if (c->position >= c->count || c->bytes[c->position] != '"' || !skip_string(c)) return false;
            skip_space(c);
            if (c->position >= c->count || c->bytes[c->position] != ':') return false;
            c->position++;
            skip_space(c);
        }
        if (!skip_value(c, depth)) return false;
        skip_space(c);
        if (c->position >= c->count) return false;
        uint8_t byte = c->bytes[c->position++];
        if (byte == closing) return true;
        if (byte != ',') return false;
    }
}

static bool skip_value(cursor *c, int depth) {
    if (c->position >= c->count) return false;
    switch (c->bytes[c->position]) {
    case '{': return skip_container(c, depth + 1, '}');
    case '[': return skip_container(c, depth + 1, ']');
    case '"': return skip_string(c);
    case 't': return EXPECT(c, "true");
    case 'f': return EXPECT(c, "false");
    case 'n': return EXPECT(c, "null");
    case '-': case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9':
        return skip_number(c);
    default:
        return false;
    }
}

ptrdiff_t rewind_json_skip_checked(const uint8_t *bytes, size_t count, size_t position, int depth) {
    cursor c = {bytes, count, position};
    if (depth < 0 || !skip_value(&c, depth)) return REWIND_JSON_SKIM_UNDECIDED;
    return (ptrdiff_t)c.position;
}

// The record head.

// A checked value at the position (passed); its start in `start`.
static inline bool value(cursor *c, int depth, size_t *start) {
    *start = c->position;
    return skip_value(c, depth);
}

int rewind_record_read_head(const uint8_t *line, size_t count, rewind_record_head *head) {
    cursor c = {line, count, 0};
    size_t start;
    if (!EXPECT(&c, "{\"kind\":\"entry\"")) return 0;
    (void)EXPECT(&c, ",\"keyframe\":true");
    if (!EXPECT(&c, ",\"seq\":") || !value(&c, 0, &start)) return 0;
    // An integer the parser reads as one: no fraction or exponent.
    if (line[start] != '-' && !is_digit(line[start])) return 0;
    for (size_t k = start; k < c.position; k++) {
        if (line[k] == '.' || line[k] == 'e' || line[k] == 'E') return 0;
    }
    if (!EXPECT(&c, ",\"time\":") || !value(&c, 0, &start)) return 0;
    if (!EXPECT(&c, ",\"durationNs\":") || !value(&c, 0, &start)) return 0;
    if (!EXPECT(&c, ",\"action\":{\"type\":") || !value(&c, 1, &start)) return 0;
    // A string without escapes (`JSONSkimmer.plainText`).
    if (line[start] != '"' || memchr(line + start, '\\', c.position - start) != NULL) return 0;
    head->type_start = start + 1;
    head->type_length = c.position - start - 2;
    if (!EXPECT(&c, ",\"payload\":") || !value(&c, 1, &start)) return 0;
    head->payload_start = start;
    head->payload_length = c.position - start;
    // `replayable` is written only when false (older recorders wrote it always).
    if (EXPECT(&c, ",\"replayable\":") && !value(&c, 1, &start)) return 0;
    if (!EXPECT(&c, "}")) return 0;
    if (EXPECT(&c, ",\"effectOf\":") && !value(&c, 0, &start)) return 0;
    head->end = c.position;
    return 1;
}
