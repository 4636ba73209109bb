#ifdef __linux__
#define _GNU_SOURCE
#endif

#include "ReadAhead.h"

#ifdef __linux__
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

enum { SLOT_FREE, SLOT_READING, SLOT_READY };

typedef struct {
    unsigned char *bytes;
    int64_t number;   // the block held (its offset is base + number * block_size), -1 for none
    int64_t length;   // bytes read into it (short at the end of the file or after an error)
    int state;
} slot;

struct rewind_read_ahead {
    int descriptor;
    int64_t base, end;
    int64_t block_size;
    int depth, readers, started;
    slot *slots;
    pthread_t *threads;
    pthread_mutex_t lock;
    pthread_cond_t changed;
    // All below guarded by `lock`.
    int64_t next_block;   // the next block a reader thread claims
    int64_t low_block;    // the first block the consumer may still ask for; those before it may be reused
    int64_t last_block;   // one past the last block to read: a short read ends the file there
    int stopping;
};

// Blocks of closed readers, kept for the next one: a search opens a reader per
// recording, and fresh blocks each time cost their page faults (on a machine
// that hands free memory back to its host, as dear as the reads saved).
static pthread_mutex_t spare_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned char *spare_blocks[32];
static size_t spare_sizes[32];
static int spare_count;

static unsigned char *take_block(size_t size) {
    unsigned char *bytes = NULL;
    pthread_mutex_lock(&spare_lock);
    for (int index = spare_count - 1; index >= 0; index--) {
        if (spare_sizes[index] == size) {
            bytes = spare_blocks[index];
            spare_blocks[index] = spare_blocks[spare_count - 1];
            spare_sizes[index] = spare_sizes[spare_count - 1];
            spare_count--;
            break;
        }
    }
    pthread_mutex_unlock(&spare_lock);
    if (bytes == NULL && posix_memalign((void **)&bytes, 4096, size) != 0) bytes = NULL;
    return bytes;
}

static void give_back_block(unsigned char *bytes, size_t size) {
    if (bytes == NULL) return;
    pthread_mutex_lock(&spare_lock);
    if (spare_count < 32) {
        spare_blocks[spare_count] = bytes;
        spare_sizes[spare_count] = size;
        spare_count++;
        bytes = NULL;
    }
    pthread_mutex_unlock(&spare_lock);
    free(bytes);
}

// Reads a whole block, or as much as the file has there (fewer bytes at its end or after an error).
static int64_t read_block(int descriptor, unsigned char *bytes, int64_t count, int64_t offset) {
    int64_t total = 0;
    while (total < count) {
        ssize_t got = pread(descriptor, bytes + total, (size_t)(count - total), (off_t)(offset + total));
        if (got > 0) {
            total += got;
            // O_DIRECT reads end on block boundaries; a short one that is not is the end of the file.
            if (total % 4096 != 0) break;
        } else if (got < 0 && errno == EINTR) {
            continue;
        } else {
            break;
        }
    }
    return total;
}

static void *reader_thread(void *argument) {
    rewind_read_ahead *reader = argument;
    pthread_mutex_lock(&reader->lock);
    while (!reader->stopping) {
        int64_t number = reader->next_block;
        slot *target = &reader->slots[number % reader->depth];
        // Wait while there is nothing to read, the ring is full, or the slot's last block is still being read.
        if (number >= reader->last_block || number >= reader->low_block + reader->depth || target->state == SLOT_READING) {
            pthread_cond_wait(&reader->changed, &reader->lock);
            continue;
        }
        reader->next_block = number + 1;
        target->number = number;
        target->state = SLOT_READING;
        pthread_mutex_unlock(&reader->lock);
        int64_t length = read_block(reader->descriptor, target->bytes, reader->block_size,
                                    reader->base + number * reader->block_size);
        pthread_mutex_lock(&reader->lock);
        target->length = length;
        target->state = SLOT_READY;
        if (length < reader->block_size && number + 1 < reader->last_block) reader->last_block = number + 1;
        pthread_cond_broadcast(&reader->changed);
    }
    pthread_mutex_unlock(&reader->lock);
    return NULL;
}

rewind_read_ahead *rewind_read_ahead_open(int descriptor, int64_t offset, int64_t end,
                                          size_t block_size, int depth, int readers) {
    if (offset < 0 || end <= offset || block_size == 0 || block_size % 4096 != 0 || depth < 2 || readers < 1) return NULL;
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", descriptor);
    int direct = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);
    if (direct < 0) return NULL;
    struct stat original, reopened;
    if (fstat(descriptor, &original) != 0 || fstat(direct, &reopened) != 0
        || original.st_dev != reopened.st_dev || original.st_ino != reopened.st_ino) {
        close(direct);
        return NULL;
    }
    rewind_read_ahead *reader = calloc(1, sizeof *reader);
    if (!reader) { close(direct); return NULL; }
    reader->descriptor = direct;
    reader->base = offset & ~(int64_t)4095;
    reader->end = end;
    reader->block_size = (int64_t)block_size;
    reader->depth = depth;
    reader->readers = readers;
    reader->last_block = (end - reader->base + reader->block_size - 1) / reader->block_size;
    reader->slots = calloc((size_t)depth, sizeof(slot));
    reader->threads = calloc((size_t)readers, sizeof(pthread_t));
    pthread_mutex_init(&reader->lock, NULL);
    pthread_cond_init(&reader->changed, NULL);
    int ok = reader->slots != NULL && reader->threads != NULL;
    for (int index = 0; ok && index < depth; index++) {
        reader->slots[index].number = -1;
        reader->slots[index].bytes = take_block(block_size);
        if (reader->slots[index].bytes == NULL) ok = 0;
    }
    for (int index = 0; ok && index < readers; index++) {
        if (pthread_create(&reader->threads[index], NULL, reader_thread, reader) != 0) break;
        reader->started++;
    }
    if (!ok || reader->started == 0) {
        rewind_read_ahead_close(reader);
        return NULL;
    }
    return reader;
}

// Lets the blocks before the one holding `offset` go; false when that block may be gone already. Called locked.
static int ask_from(rewind_read_ahead *reader, int64_t offset) {
    if (offset < reader->base) return 0;
    int64_t first = (offset - reader->base) / reader->block_size;
    if (first < reader->low_block) return 0;  // gone back past the blocks still held
    if (first > reader->low_block) {
        reader->low_block = first;
        if (reader->next_block < first) reader->next_block = first;
        pthread_cond_broadcast(&reader->changed);
    }
    return 1;
}

// The block `number` once it is read; NULL when there is none (past the end, or too far ahead). Called locked.
static slot *wait_for(rewind_read_ahead *reader, int64_t number) {
    if (number >= reader->last_block || number >= reader->low_block + reader->depth) return NULL;
    slot *source = &reader->slots[number % reader->depth];
    while (!(source->number == number && source->state == SLOT_READY) && number < reader->last_block) {
        pthread_cond_wait(&reader->changed, &reader->lock);
    }
    return source->number == number && source->state == SLOT_READY ? source : NULL;
}

const unsigned char *rewind_read_ahead_bytes(rewind_read_ahead *reader, int64_t offset, int64_t *count) {
    if (*count > reader->end - offset) *count = reader->end - offset;
    if (*count <= 0) return NULL;
    const unsigned char *bytes = NULL;
    pthread_mutex_lock(&reader->lock);
    if (ask_from(reader, offset)) {
        int64_t number = (offset - reader->base) / reader->block_size;
        slot *source = wait_for(reader, number);
        int64_t within = offset - reader->base - number * reader->block_size;
        if (source && source->length > within) {
            if (*count > source->length - within) *count = source->length - within;
            bytes = source->bytes + within;
        }
    }
    pthread_mutex_unlock(&reader->lock);
    return bytes;
}

int64_t rewind_read_ahead_copy(rewind_read_ahead *reader, int64_t offset, void *destination, int64_t count) {
    if (count > reader->end - offset) count = reader->end - offset;
    if (count <= 0) return 0;
    int64_t copied = 0;
    pthread_mutex_lock(&reader->lock);
    if (!ask_from(reader, offset)) {
        pthread_mutex_unlock(&reader->lock);
        return 0;
    }
    while (copied < count) {
        int64_t position = offset + copied - reader->base;
        int64_t number = position / reader->block_size;
        slot *source = wait_for(reader, number);
        if (!source) break;
        int64_t within = position - number * reader->block_size;
        int64_t available = source->length - within;
        if (available <= 0) break;
        int64_t take = available < count - copied ? available : count - copied;
        // Copied unlocked: only this caller lets a block go (by asking past it).
        pthread_mutex_unlock(&reader->lock);
        memcpy((unsigned char *)destination + copied, source->bytes + within, (size_t)take);
        pthread_mutex_lock(&reader->lock);
        copied += take;
        if (source->length < reader->block_size && within + take >= source->length) break;
    }
    pthread_mutex_unlock(&reader->lock);
    return copied;
}

void rewind_read_ahead_close(rewind_read_ahead *reader) {
    if (!reader) return;
    pthread_mutex_lock(&reader->lock);
    reader->stopping = 1;
    pthread_cond_broadcast(&reader->changed);
    pthread_mutex_unlock(&reader->lock);
    for (int index = 0; index < reader->started; index++) pthread_join(reader->threads[index], NULL);
    if (reader->slots) {
        for (int index = 0; index < reader->depth; index++) give_back_block(reader->slots[index].bytes, (size_t)reader->block_size);
    }
    free(reader->slots);
    free(reader->threads);
    pthread_mutex_destroy(&reader->lock);
    pthread_cond_destroy(&reader->changed);
    close(reader->descriptor);
    free(reader);
}

double rewind_page_cache_share(int descriptor, int64_t size) {
    if (size <= 0) return 1;
    long page = sysconf(_SC_PAGESIZE);
    void *mapped = mmap(NULL, (size_t)size, PROT_READ, MAP_SHARED, descriptor, 0);
    if (mapped == MAP_FAILED) return -1;
    size_t pages = (size_t)((size + page - 1) / page);
    unsigned char *resident = malloc(pages);
    double share = -1;
    if (resident && mincore(mapped, (size_t)size, resident) == 0) {
        size_t cached = 0;
        for (size_t index = 0; index < pages; index++) cached += resident[index] & 1;
        share = (double)cached / (double)pages;
    }
    free(resident);
    munmap(mapped, (size_t)size);
    return share;
}

#else

// Elsewhere nothing is read ahead: `rewind_read_ahead_open` returns NULL and
// every caller reads with `pread`. Each function the header declares is
// defined here too, so the target links on every platform.

rewind_read_ahead *rewind_read_ahead_open(int descriptor, int64_t offset, int64_t end,
                                          size_t block_size, int depth, int readers) {
    (void)descriptor; (void)offset; (void)end; (void)block_size; (void)depth; (void)readers;
    return 0;
}

int64_t rewind_read_ahead_copy(rewind_read_ahead *reader, int64_t offset, void *destination, int64_t count) {
    (void)reader; (void)offset; (void)destination; (void)count;
    return 0;
}

const unsigned char *rewind_read_ahead_bytes(rewind_read_ahead *reader, int64_t offset, int64_t *count) {
    (void)reader; (void)offset;
    *count = 0;
    return 0;
}

void rewind_read_ahead_close(rewind_read_ahead *reader) { (void)reader; }

double rewind_page_cache_share(int descriptor, int64_t size) {
    (void)descriptor; (void)size;
    return -1;
}

#endif
