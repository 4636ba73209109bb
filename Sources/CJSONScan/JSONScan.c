// The checked skim (what the parser would accept, without building anything),
// the tape written while checking a document, and members matched against a
// template: the fast paths of reading a record, a keyframe and a patch's values
// (CJSONScan.h). Anything they do not judge goes back to the reference, so they
// only have to be right where they answer.
#include "CJSONScan.h"

#include <stdlib.h>

// MARK: Reference readers on demand

unsigned rewind_reference_readers_set = 0;

/// Whether `list` (comma-separated) names `job`.
static bool names(const char *list, const char *job) {
    size_t length = strlen(job);
    for (const char *at = list; *at != '\0';) {
        const char *end = strchr(at, ',');
        size_t word = end != NULL ? (size_t)(end - at) : strlen(at);
        if (word == length && strncmp(at, job, length) == 0) return true;
        if (end == NULL) break;
        at = end + 1;
    }
    return false;
}

// Read before main, so the inline fast paths need only load a word.
__attribute__((constructor)) static void read_reference_readers(void) {
    const char *list = getenv("REWIND_REFERENCE_READERS");
    if (list == NULL) return;
    static const struct { const char *name; unsigned bit; } jobs[] = {
        {"entry", REWIND_REFERENCE_ENTRY}, {"patch", REWIND_REFERENCE_PATCH}, {"pointer", REWIND_REFERENCE_POINTER},
        {"plain-run", REWIND_REFERENCE_PLAIN_RUN}, {"tape", REWIND_REFERENCE_TAPE}, {"crc32", REWIND_REFERENCE_CRC32},
    };
    unsigned set = 0;
    for (size_t k = 0; k < sizeof jobs / sizeof jobs[0]; k++) {
        if (names(list, "all") || names(list, jobs[k].name)) set |= jobs[k].bit;
    }
    rewind_reference_readers_set = set;
}

// MARK: UTF-8

bool rewind_json_valid_utf8(const uint8_t *bytes, size_t count) {
    size_t index = 0;
    while (index < count) {
        // Runs of ASCII, most of any text, eight bytes at a time.
        while (index + 8 <= count) {
            uint64_t word;
            memcpy(&word, bytes + index, 8);
            if ((word & 0x8080808080808080ull) != 0) break;
            index += 8;
        }
        if (index >= count) break;
        uint8_t lead = bytes[index];
        if (lead < 0x80) {
            index++;
            continue;
        }
        size_t length;
        uint8_t lowest = 0x80, highest = 0xBF;  // the second byte's range
        if (lead >= 0xC2 && lead <= 0xDF) length = 2;
        else if (lead == 0xE0) { length = 3; lowest = 0xA0; }                  // no overlong 3-byte forms
        else if ((lead >= 0xE1 && lead <= 0xEC) || lead == 0xEE || lead == 0xEF) length = 3;
        else if (lead == 0xED) { length = 3; highest = 0x9F; }                // no surrogates
        else if (lead == 0xF0) { length = 4; lowest = 0x90; }                 // no overlong 4-byte forms
        else if (lead >= 0xF1 && lead <= 0xF3) length = 4;
        else if (lead == 0xF4) { length = 4; highest = 0x8F; }                // nothing above U+10FFFF
        else return false;
        if (index + length > count) return false;
        if (bytes[index + 1] < lowest || bytes[index + 1] > highest) return false;
        for (size_t k = 2; k < length; k++) {
            if ((bytes[index + k] & 0xC0) != 0x80) return false;
        }
        index += length;
    }
    return true;
}

// MARK: The checked skim

typedef struct {
    const uint8_t *bytes;
    size_t count;
    size_t position;
    /// NULL when nobody asks whether the bytes are compact as written.
    bool *compact;
} cursor;

static inline bool is_digit(uint8_t byte) { return byte >= '0' && byte <= '9'; }

static inline void skip_space(cursor *c) {
    size_t start = c->position;
    while (c->position < c->count) {
        uint8_t byte = c->bytes[c->position];
        if (byte != ' ' && byte != '\n' && byte != '\r' && byte != '\t') break;
        c->position++;
    }
    if (c->position != start && c->compact != NULL) *c->compact = false;
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

// At a backslash: one escape (a high surrogate with its low half), as the parser reads it.
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

// At an opening quote: past the closing one; false when the parser would not accept the
// string. `escaped` (may be NULL) learns whether it has an escape.
static bool skip_string(cursor *c, bool *escaped) {
    size_t start = c->position + 1, index = start;
    bool high = false;
    while (true) {
        rewind_json_run run = rewind_json_plain_run(c->bytes + index, c->count - index);
        index += run.plain;
        high |= run.hasHighByte;
        if (index >= c->count) return false;
        uint8_t byte = c->bytes[index];
        if (byte == '"') {
            c->position = index + 1;
            return !high || rewind_json_valid_utf8(c->bytes + start, index - start);
        }
        if (byte < 0x20) return false;
        // A backslash: the writer escapes only what must be, one way each, so any escape is "not as written".
        if (escaped != NULL) *escaped = true;
        if (c->compact != NULL) *c->compact = false;
        c->position = index;
        if (!skip_escape(c)) return false;
        index = c->position;
    }
}

// The number grammar of RFC 8259. Integers of up to 18 digits, and decimals of up to
// 15 digits with a one-digit exponent, are judged here (the parser reads those
// exactly); anything longer is left to the parser.
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
    // `-0` parses as the double -0.0, written `-0`: as written too.
    if (!fraction && exponent_digits == 0) return integer_digits <= 18;
    if (c->compact != NULL) *c->compact = false;
    if (exponent_digits > 1) return false;
    return p - start - (negative ? 1 : 0) <= 19;  // at most 15 digits, the point, and a short exponent
}

// Passes `literal` if the bytes at the position are it.
static inline bool expect(cursor *c, const char *literal, size_t length) {
    if (c->position + length > c->count || memcmp(c->bytes + c->position, literal, length) != 0) return false;
    c->position += length;
    return true;
}

#define EXPECT(c, literal) expect(c, literal, sizeof(literal) - 1)

static bool skip_value(cursor *c, int depth);

// The keys an object's members had so far, to tell a repeated one (the parser keeps its
// first place and its last value: not as written). Past this many, the object is
// called not as written: the caller then writes the parsed value, which is always right.
#define KEYS_COMPARED 32

// At `[` or `{`: the container and everything in it, `depth` counting it.
static bool skip_container(cursor *c, int depth, uint8_t closing) {
    if (depth > REWIND_JSON_SKIM_MAX_DEPTH) return false;
    c->position++;
    skip_space(c);
    if (c->position < c->count && c->bytes[c->position] == closing) {
        c->position++;
        return true;
    }
    struct { size_t start, length; } keys[KEYS_COMPARED];
    size_t key_count = 0;
    while (true) {
        skip_space(c);
        if (closing == '}') {
            size_t key = c->position + 1;
            if (c->position >= c->count || c->bytes[c->position] != '"' || !skip_string(c, NULL)) return false;
            if (c->compact != NULL && *c->compact) {
                size_t length = c->position - 1 - key;
                for (size_t k = 0; k < key_count; k++) {
                    if (keys[k].length == length && memcmp(c->bytes + keys[k].start, c->bytes + key, length) == 0) *c->compact = false;
                }
                if (key_count == KEYS_COMPARED) {
                    *c->compact = false;
                } else {
                    keys[key_count].start = key;
                    keys[key_count].length = length;
                    key_count++;
                }
            }
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
    case '"': return skip_string(c, NULL);
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

ptrdiff_t rewind_json_skip_checked(const uint8_t *bytes, size_t count, size_t position, int depth, bool *compact) {
    if (compact != NULL) *compact = true;
    cursor c = {bytes, count, position, compact};
    if (depth < 0 || !skip_value(&c, depth)) return REWIND_JSON_UNDECIDED;
    return (ptrdiff_t)c.position;
}

// MARK: Unchecked

// At an opening quote: past the first quote not escaped (an odd number of backslashes before it).
static bool skip_string_unchecked(const uint8_t *bytes, size_t count, size_t *position) {
    size_t start = *position, from = start + 1;
    while (from < count) {
        const uint8_t *found = memchr(bytes + from, '"', count - from);
        if (found == NULL) return false;
        size_t quote = (size_t)(found - bytes), backslashes = 0;
        while (quote - 1 - backslashes > start && bytes[quote - 1 - backslashes] == '\\') backslashes++;
        if (backslashes % 2 == 0) {
            *position = quote + 1;
            return true;
        }
        from = quote + 1;
    }
    return false;
}

ptrdiff_t rewind_json_skip_unchecked(const uint8_t *bytes, size_t count, size_t position) {
    if (position >= count) return REWIND_JSON_UNDECIDED;
    uint8_t first = bytes[position];
    if (first == '"') return skip_string_unchecked(bytes, count, &position) ? (ptrdiff_t)position : REWIND_JSON_UNDECIDED;
    if (first == '{' || first == '[') {
        long depth = 0;
        while (position < count) {
            uint8_t byte = bytes[position];
            if (byte == '"') {
                if (!skip_string_unchecked(bytes, count, &position)) return REWIND_JSON_UNDECIDED;
                continue;
            }
            if (byte == '{' || byte == '[') depth++;
            else if ((byte == '}' || byte == ']') && --depth == 0) return (ptrdiff_t)(position + 1);
            position++;
        }
        return REWIND_JSON_UNDECIDED;
    }
    while (position < count) {
        uint8_t byte = bytes[position];
        if (byte == ',' || byte == '}' || byte == ']' || byte == ' ' || byte == '\t' || byte == '\n' || byte == '\r') break;
        position++;
    }
    return (ptrdiff_t)position;
}

// MARK: The tape

// At a member's opening quote: its key, checked; then past the colon.
static bool read_key(cursor *c, int32_t *key_start, int32_t *key_length) {
    size_t quote = c->position;
    bool escaped = false;
    if (quote >= c->count || c->bytes[quote] != '"' || !skip_string(c, &escaped)) return false;
    int32_t length = (int32_t)(c->position - quote - 2);
    *key_start = (int32_t)(quote + 1);
    *key_length = escaped ? ~length : length;
    skip_space(c);
    if (c->position >= c->count || c->bytes[c->position] != ':') return false;
    c->position++;
    skip_space(c);
    return true;
}

ptrdiff_t rewind_json_tape(const uint8_t *bytes, size_t count, rewind_json_tape_entry *tape, size_t capacity) {
    if (count >= INT32_MAX) return REWIND_JSON_UNDECIDED;
    cursor c = {bytes, count, 0, NULL};
    // Tape positions of the containers not yet closed, innermost last.
    int32_t open[REWIND_JSON_SKIM_MAX_DEPTH + 1];
    int depth = 0;
    size_t written = 0;
    int32_t key_start = -1, key_length = 0;
    skip_space(&c);
    for (;;) {
        // A value (a member's, when a key was just read).
        if (c.position >= count) return REWIND_JSON_UNDECIDED;
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
            if (depth >= REWIND_JSON_SKIM_MAX_DEPTH) return REWIND_JSON_UNDECIDED;
            open[depth++] = (int32_t)written++;
            c.position++;
            skip_space(&c);
            if (c.position >= count) return REWIND_JSON_UNDECIDED;
            if (bytes[c.position] == (opening == '{' ? '}' : ']')) {
                c.position++;
                closes = true;
            } else {
                if (opening == '{' && !read_key(&c, &key_start, &key_length)) return REWIND_JSON_UNDECIDED;
                continue;   // to its first member or element
            }
        } else {
            if (!skip_value(&c, depth)) return REWIND_JSON_UNDECIDED;
            entry->end = (int32_t)c.position;
            entry->next = (int32_t)(++written);
            if (depth == 0) {
                skip_space(&c);
                return c.position == count ? (ptrdiff_t)written : REWIND_JSON_UNDECIDED;
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
                    return c.position == count ? (ptrdiff_t)written : REWIND_JSON_UNDECIDED;
                }
            }
            skip_space(&c);
            if (c.position >= count) return REWIND_JSON_UNDECIDED;
            bool is_object = bytes[tape[open[depth - 1]].start] == '{';
            uint8_t byte = bytes[c.position++];
            if (byte == ',') {
                skip_space(&c);
                if (is_object && !read_key(&c, &key_start, &key_length)) return REWIND_JSON_UNDECIDED;
                break;
            }
            if (byte != (is_object ? '}' : ']')) return REWIND_JSON_UNDECIDED;
            closes = true;
        }
    }
}

// MARK: Members as written

static inline uint64_t load64(const uint8_t *bytes) {
    uint64_t word;
    memcpy(&word, bytes, 8);
    return word;
}

static inline uint32_t load32(const uint8_t *bytes) {
    uint32_t word;
    memcpy(&word, bytes, 4);
    return word;
}

// Whether `bytes[0..<count]` starts with `prefix`, compared a word at a time, the last word
// overlapping the one before: no byte loop, whose exit (a different length for each of the
// ~17 members of a record, and an optional member's mismatch after a different number of
// bytes) the branch predictor missed several times per record; not `memcmp`, whose call
// costs more than comparing a member's few bytes. Reads only `bytes[0..<length]` and `prefix`.
static inline bool has_prefix(const uint8_t *bytes, size_t count, const uint8_t *prefix, size_t length) {
    if (length > count) return false;
    if (length >= 8) {
        uint64_t differences = load64(bytes + length - 8) ^ load64(prefix + length - 8);
        for (size_t k = 0; k + 8 < length; k += 8) differences |= load64(bytes + k) ^ load64(prefix + k);
        return differences == 0;
    }
    if (length >= 4) return ((load32(bytes) ^ load32(prefix)) | (load32(bytes + length - 4) ^ load32(prefix + length - 4))) == 0;
    // The closing brace (1 byte), and any short prefix a template may have.
    for (size_t k = 0; k < length; k++) {
        if (bytes[k] != prefix[k]) return false;
    }
    return true;
}

int rewind_json_read_template(const uint8_t *bytes, size_t count, const rewind_json_template_member *members, size_t member_count,
                              rewind_json_template_cursor *cursor, rewind_json_span *parts, size_t part_count,
                              uint8_t compact_part, bool *compact) {
    if (cursor->member == 0 && cursor->position == 0) {
        for (size_t k = 0; k < part_count; k++) parts[k] = (rewind_json_span){0, 0, false};
    }
    size_t position = cursor->position;
    if (position > count) return REWIND_TEMPLATE_MISMATCH;
    for (size_t m = cursor->member; m < member_count; m++) {
        const rewind_json_template_member *member = &members[m];
        if (!has_prefix(bytes + position, count - position, member->prefix, member->prefix_length)) {
            if (member->optional) continue;
            return REWIND_TEMPLATE_MISMATCH;
        }
        position += member->prefix_length;
        size_t start = position;
        ptrdiff_t end;
        switch (member->value) {
        case REWIND_TEMPLATE_NO_VALUE:
            continue;
        case REWIND_TEMPLATE_CALLER:
            cursor->member = m + 1;
            cursor->position = position;
            return REWIND_TEMPLATE_PAUSED;
        case REWIND_TEMPLATE_UNCHECKED:
            end = rewind_json_skip_unchecked(bytes, count, start);
            break;
        default:
            end = rewind_json_skip_checked(bytes, count, start, member->depth,
                                           compact_part != 0 && member->part == compact_part ? compact : NULL);
            if (end < 0) return REWIND_TEMPLATE_MISMATCH;
            if (member->value == REWIND_TEMPLATE_INTEGER) {
                // An integer the parser reads as one: no fraction or exponent.
                if (bytes[start] != '-' && !is_digit(bytes[start])) return REWIND_TEMPLATE_MISMATCH;
                for (size_t k = start; k < (size_t)end; k++) {
                    if (bytes[k] == '.' || bytes[k] == 'e' || bytes[k] == 'E') return REWIND_TEMPLATE_MISMATCH;
                }
            } else if (member->value == REWIND_TEMPLATE_PLAIN_STRING) {
                if (bytes[start] != '"' || memchr(bytes + start, '\\', (size_t)end - start) != NULL) return REWIND_TEMPLATE_MISMATCH;
            }
            break;
        }
        if (end < 0) return REWIND_TEMPLATE_MISMATCH;
        position = (size_t)end;
        if (member->part != 0 && member->part < part_count) parts[member->part] = (rewind_json_span){start, position - start, true};
    }
    cursor->member = member_count;
    cursor->position = position;
    return position == count ? REWIND_TEMPLATE_MATCHED : REWIND_TEMPLATE_MISMATCH;
}
