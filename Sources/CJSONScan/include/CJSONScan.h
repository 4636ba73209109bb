#ifndef REWIND_CJSON_SCAN_H
#define REWIND_CJSON_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// Where a JSON string's plain run ends: `plain` is the offset of the first
/// byte that is '"', '\\' or below 0x20 (the count when there is none), and
/// `hasHighByte` says whether a byte before it is 0x80 or more (so the caller
/// knows whether the run needs UTF-8 validation).
typedef struct {
    size_t plain;
    bool hasHighByte;
} rewind_json_run;

/// The plain run at the start of `bytes[0..<count]`, 32 bytes a compare with
/// AVX2 where the CPU has it, 16 with SSE2 on other x86-64, a word at a time
/// elsewhere. Never reads outside `bytes[0..<count]`.
rewind_json_run rewind_json_plain_run(const uint8_t *bytes, size_t count);

/// Each way on its own, for the tests (every path is held to the same definition).
rewind_json_run rewind_json_plain_run_words(const uint8_t *bytes, size_t count);
#if defined(__x86_64__)
rewind_json_run rewind_json_plain_run_sse2(const uint8_t *bytes, size_t count);
/// Only where `rewind_json_has_avx2()`; anywhere else it faults.
rewind_json_run rewind_json_plain_run_avx2(const uint8_t *bytes, size_t count);
#endif
/// Whether `rewind_json_plain_run` takes the AVX2 path on this CPU (0 elsewhere).
int rewind_json_has_avx2(void);

#endif
