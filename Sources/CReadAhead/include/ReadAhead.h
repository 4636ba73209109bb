#ifndef REWIND_READ_AHEAD_H
#define REWIND_READ_AHEAD_H

#include <stddef.h>
#include <stdint.h>

/// A file read from start to end past the page cache (`O_DIRECT`), a few
/// blocks ahead of its reader on threads of its own, so the disk reads while
/// the reader's CPU works.
///
/// Why: filling the page cache is the kernel's work on the reader's CPU, and on
/// a virtual machine whose free memory goes back to the host (a balloon with
/// free page reporting) every fresh page-cache page costs a fault in the host
/// too: reading 1.1 GB of cold recordings cost 2.2–2.6 s of kernel time with
/// `read`, 0.1 s past the cache. Linux only; elsewhere `rewind_read_ahead_open`
/// returns NULL and callers read as usual.
typedef struct rewind_read_ahead rewind_read_ahead;

/// Starts reading the file open as `descriptor` (opened again, past the
/// cache, through /proc/self/fd: the same file even if it was renamed) from
/// `offset` (rounded down to 4096) to `end`,
/// `depth` blocks of `block_size` bytes (a multiple of 4096) at most ahead of
/// the reader, on `readers` threads. NULL when the file cannot be opened past
/// the cache (a file system without `O_DIRECT`, such as tmpfs) or threads
/// cannot start: the caller then reads the file as usual.
rewind_read_ahead *rewind_read_ahead_open(int descriptor, int64_t offset, int64_t end,
                                          size_t block_size, int depth, int readers);

/// Copies the bytes at `offset..<offset+count` into `destination` once they are
/// read, waiting for them if need be; returns how many it copied. Fewer than
/// `count` (0 included) when the bytes after those are not in its blocks: before
/// the oldest block it still holds, past `end`, past the end of the file, or
/// after a read error. The caller reads those itself (`pread`), and so meets
/// the file as it is. Asking for an offset lets the blocks before it go, so
/// offsets should not go back by more than a block.
int64_t rewind_read_ahead_copy(rewind_read_ahead *reader, int64_t offset, void *destination, int64_t count);

/// The bytes at `offset` where they lie in a block, without copying them: a
/// pointer to them, with `*count` lowered to how many follow in that block
/// (up to the block's end). NULL where `rewind_read_ahead_copy` would copy
/// nothing. The bytes stay valid until the next call asks for a later block.
const unsigned char *rewind_read_ahead_bytes(rewind_read_ahead *reader, int64_t offset, int64_t *count);

/// Stops the threads and frees everything.
void rewind_read_ahead_close(rewind_read_ahead *reader);

/// The share of the file's pages of `descriptor` (whose size is `size`) that are
/// in the page cache, 0...1 (`mincore`); -1 when it cannot tell.
double rewind_page_cache_share(int descriptor, int64_t size);

#endif
