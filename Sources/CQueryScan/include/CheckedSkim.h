#ifndef REWIND_CHECKED_SKIM_H
#define REWIND_CHECKED_SKIM_H

#include <stddef.h>
#include <stdint.h>

/// Not judged here (invalid, or valid but outside what this judges): the caller decides.
#define REWIND_JSON_SKIM_UNDECIDED (-1)

/// Deepest nesting `rewind_json_skip_checked` judges; deeper values are left to the caller.
#define REWIND_JSON_SKIM_MAX_DEPTH 64

/// The end of the JSON value at `bytes[position]` when the parser certainly
/// accepts it, judged as Swift's `JSONSkimmer.skipValue` judges it (the same
/// strings, escapes, UTF-8, numbers and literals; space between tokens), with
/// `depth` containers around it already; `REWIND_JSON_SKIM_UNDECIDED` for
/// anything else, and for nesting past `REWIND_JSON_SKIM_MAX_DEPTH`.
/// Never reads outside `bytes[0..<count]`.
ptrdiff_t rewind_json_skip_checked(const uint8_t *bytes, size_t count, size_t position, int depth);

/// Where the parts of an entry record's head are, by offset in its line.
typedef struct {
    /// The action type's text (between its quotes, no escapes).
    size_t type_start, type_length;
    /// The payload value's bytes.
    size_t payload_start, payload_length;
    /// Where the head ends: the `,` of the member after the action (or after `effectOf`).
    size_t end;
} rewind_record_head;

/// Reads the head of an entry record exactly as `RecordEncoder` writes it,
/// `{"kind":"entry"[,"keyframe":true],"seq":N,"time":T,"durationNs":D,
/// "action":{"type":"…","payload":P[,"replayable":R]}[,"effectOf":E]`, each value
/// checked as `rewind_json_skip_checked` checks it, `seq` an integer and the
/// type a string without escapes. Returns 1 and fills `head`; 0 for anything
/// else (the caller then reads the record its own way). What Swift's
/// `ScannedEntry.readLightly` reads first on every record of a scan.
int rewind_record_read_head(const uint8_t *line, size_t count, rewind_record_head *head);

#endif
