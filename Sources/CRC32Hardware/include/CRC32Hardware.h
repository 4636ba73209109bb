#ifndef REWIND_CRC32_HARDWARE_H
#define REWIND_CRC32_HARDWARE_H

#include <stddef.h>
#include <stdint.h>

/// Whether this CPU can run `rewind_crc32_fold` (x86-64 with PCLMULQDQ and SSE4.1).
/// Always 0 elsewhere, so callers use the table CRC.
int rewind_crc32_hardware_available(void);

/// Advances the zlib CRC-32 register `crc` (before the final XOR: start from
/// 0xFFFFFFFF) over the longest prefix of `bytes` the carry-less multiply
/// folding handles: a multiple of 16 bytes, at least 64. Writes that prefix's
/// length to `*consumed` (0 when `count` < 64 or there is no hardware support)
/// and returns the advanced register; the caller finishes the tail.
uint32_t rewind_crc32_fold(uint32_t crc, const void *bytes, size_t count, size_t *consumed);

#endif
