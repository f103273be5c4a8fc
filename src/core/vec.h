/* The one growable array. Every list that grows one item at a time keeps
 * (items, n, cap) with a size_t capacity and grows through VEC_RESERVE,
 * which doubles, so appending n items costs O(n) copies in all. Pure. */
#ifndef DBTRACE_CORE_VEC_H
#define DBTRACE_CORE_VEC_H

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>

/* The capacity that holds need items of elem bytes, doubling from cap
 * (from a first few items when cap is 0): 0 with *out set, or -ENOMEM
 * when need * elem would not fit a size_t. */
int vec_next_cap(size_t cap, size_t need, size_t elem, size_t *out);

/*
 * VEC_RESERVE(l->items, l->cap, l->n + 1): makes room for need items.
 * Evaluates to 0, or -ENOMEM with the array and cap unchanged. The
 * realloc is done here, on the array's own type: a helper taking a
 * (void **) would write a T * through another pointer type.
 */
#define VEC_RESERVE(ptr, cap, need)                                                   \
	({                                                                            \
		size_t vec_ncap_;                                                     \
		int vec_err_ = vec_next_cap((cap), (size_t)(need), sizeof(*(ptr)), &vec_ncap_); \
		if (!vec_err_ && vec_ncap_ != (cap)) {                                \
			__typeof__(ptr) vec_p_ = realloc((ptr), vec_ncap_ * sizeof(*(ptr))); \
			if (vec_p_) {                                                 \
				(ptr) = vec_p_;                                       \
				(cap) = vec_ncap_;                                    \
			} else {                                                      \
				vec_err_ = -ENOMEM;                                   \
			}                                                             \
		}                                                                     \
		vec_err_;                                                             \
	})

#endif
