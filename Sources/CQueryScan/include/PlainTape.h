#ifndef REWIND_PLAIN_TAPE_H
#define REWIND_PLAIN_TAPE_H

#include <stddef.h>
#include <stdint.h>

/// One value of a JSON document: where it starts and ends, the tape position
/// after it and everything in it, and a member's key (between its quotes;
/// `key_start` -1 for an element or the document).
typedef struct {
    int32_t start;
    int32_t end;
    int32_t next;
    int32_t key_start;
    int32_t key_length;
} rewind_json_tape_entry;

/// The tape is too small for the document: call again with room for `count / 2 + 2` entries (always enough).
#define REWIND_JSON_TAPE_FULL (-2)
/// Not in the plain subset, or not valid JSON: the caller judges the bytes.
#define REWIND_JSON_TAPE_UNDECIDED (-1)

/// The tape of the JSON document `bytes[0..<count]` (under 2 GB) when it is
/// valid and *plain*: strings of printable ASCII without escapes, integers of
/// at most 18 digits, `true`, `false`, `null`, nesting at most `max_depth`
/// (at most 512) deep. Returns the entries written, each container before
/// what it holds; `REWIND_JSON_TAPE_UNDECIDED` for anything else (a
/// decimal, an escape, non-ASCII text, invalid JSON), which this does not
/// judge; `REWIND_JSON_TAPE_FULL` when `capacity` entries are not enough.
/// Never reads outside `bytes[0..<count]`.
ptrdiff_t rewind_json_plain_tape(const uint8_t *bytes, size_t count, rewind_json_tape_entry *tape, size_t capacity, int max_depth);

#endif
