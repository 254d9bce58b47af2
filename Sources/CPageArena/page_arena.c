// The memory of one page's cmark-gfm parse and render, one arena per thread.
//
// cmark-gfm allocates each node, buffer and string through `cmark_mem` and frees them one by one;
// with two threads on a heap fragmented by everything else a build keeps, glibc's malloc and free
// were a large part of cmark-gfm's time. cmark-gfm's own arena (`cmark_get_arena_mem_allocator`)
// is a single global one, unsafe for parallel parses. Here allocations are bumped out of 1 MiB
// blocks, the latest one grows in place (cmark's buffers grow by reallocation), frees do nothing,
// and `page_arena_reset` drops a page's memory at once.
//
// It is C rather than Swift because cmark-gfm calls it for every node: written in Swift, finding
// the thread's arena object, retaining it and checking exclusive access cost more than the
// allocation itself (see docs/benchmarks.md).

#include "page_arena.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { BLOCK_SIZE = 1 << 20, HEADER = 16 };

struct block {
    struct block *next;  // the block filled before this one
    size_t size;         // bytes after this header
};

struct arena {
    struct block *blocks;  // the newest block first
    size_t used;           // bytes used in the newest block
    char *latest;          // the newest allocation, which can grow in place
};

static _Thread_local struct arena *current;
static pthread_key_t key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static void free_blocks(struct block *block, struct block *kept) {
    while (block) {
        struct block *next = block->next;
        if (block != kept) free(block);
        block = next;
    }
}

// A thread that ends gives its arena back.
static void release(void *stored) {
    struct arena *arena = stored;
    free_blocks(arena->blocks, NULL);
    free(arena);
}

static void make_key(void) {
    if (pthread_key_create(&key, release) != 0) abort();
}

static struct arena *thread_arena(void) {
    if (current) return current;
    pthread_once(&key_once, make_key);
    struct arena *arena = calloc(1, sizeof *arena);
    if (!arena) abort();
    pthread_setspecific(key, arena);
    return current = arena;
}

_Static_assert(sizeof(struct block) % 16 == 0, "a block's memory starts 16-byte aligned");

static char *data(struct block *block) { return (char *)(block + 1); }

// Each allocation is preceded by its size, for `page_arena_realloc`; 16 bytes keep the alignment
// malloc gives. Out of memory, it aborts, as cmark-gfm's own allocator does.
static size_t footprint(size_t size) {
    if (size > SIZE_MAX - 2 * HEADER) abort();
    return HEADER + ((size + 15) & ~(size_t)15);
}

static void *allocate(struct arena *arena, size_t size) {
    size_t needed = footprint(size);
    if (!arena->blocks || arena->used + needed > arena->blocks->size) {
        size_t capacity = needed > BLOCK_SIZE ? needed : BLOCK_SIZE;
        struct block *block = aligned_alloc(16, sizeof(struct block) + capacity);
        if (!block) abort();
        block->next = arena->blocks;
        block->size = capacity;
        arena->blocks = block;
        arena->used = 0;
    }
    char *start = data(arena->blocks) + arena->used;
    *(size_t *)start = size;
    arena->used += needed;
    return arena->latest = start + HEADER;
}

void *page_arena_calloc(size_t count, size_t size) {
    if (size && count > SIZE_MAX / size) abort();
    void *pointer = allocate(thread_arena(), count * size);
    memset(pointer, 0, count * size);
    return pointer;
}

void *page_arena_realloc(void *pointer, size_t size) {
    struct arena *arena = thread_arena();
    if (!pointer) return allocate(arena, size);
    size_t old = *(size_t *)((char *)pointer - HEADER);
    if (pointer == arena->latest && arena->used - footprint(old) + footprint(size) <= arena->blocks->size) {
        arena->used = arena->used - footprint(old) + footprint(size);
        *(size_t *)((char *)pointer - HEADER) = size;
        return pointer;
    }
    void *moved = allocate(arena, size);
    memcpy(moved, pointer, old < size ? old : size);
    return moved;
}

void page_arena_free(void *pointer) { (void)pointer; }

void page_arena_reset(void) {
    struct arena *arena = current;
    if (!arena) return;
    // Keeps one ordinary block for the next page.
    struct block *kept = NULL;
    for (struct block *block = arena->blocks; block; block = block->next)
        if (block->size == BLOCK_SIZE) { kept = block; break; }
    free_blocks(arena->blocks, kept);
    if (kept) kept->next = NULL;
    arena->blocks = kept;
    arena->used = 0;
    arena->latest = NULL;
}
