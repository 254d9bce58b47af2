#ifndef ORDERPRESS_PAGE_ARENA_H
#define ORDERPRESS_PAGE_ARENA_H

#include <stddef.h>

// The memory of one page's cmark-gfm parse and render, one arena per thread (see page_arena.c).
// The three allocation functions have the signatures of cmark-gfm's `cmark_mem`.
void *page_arena_calloc(size_t count, size_t size);
void *page_arena_realloc(void *pointer, size_t size);
void page_arena_free(void *pointer);
// Forgets every allocation of the calling thread's arena at once.
void page_arena_reset(void);

#endif
