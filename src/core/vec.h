/* The one growable array. Every list that grows one item at a time keeps
 * (items, n, cap) with a size_t capacity and grows through VEC_RESERVE,
 * which doubles, so appending n items costs O(n) copies in all. Pure. */
#ifndef DBTRACE_CORE_VEC_H
#define DBTRACE_CORE_VEC_H

#include <stddef.h>

/* Makes room for at least need items of elem bytes in *items (capacity
 * *cap, in items). Returns 0, or -ENOMEM with *items and *cap unchanged
 * (also when need * elem would overflow). */
int vec_reserve(void **items, size_t *cap, size_t need, size_t elem);

/* VEC_RESERVE(l->items, l->cap, l->n + 1): the type-checked call. */
#define VEC_RESERVE(ptr, cap, need) \
	vec_reserve((void **)&(ptr), &(cap), (size_t)(need), sizeof(*(ptr)))

#endif
