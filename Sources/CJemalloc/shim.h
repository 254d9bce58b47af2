// jemalloc replaces the C library's malloc for the whole process once linked (see Allocator.swift); its own
// header only for mallctl, which gives freed pages back.
#include <jemalloc/jemalloc.h>
