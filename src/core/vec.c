#include "core/vec.h"

#include <stdint.h>

/* The first allocation holds this many items: most lists here are small
 * (a host's devices, a process's classes) and never grow again. */
#define VEC_FIRST 8

int vec_next_cap(size_t cap, size_t need, size_t elem, size_t *out)
{
	size_t ncap = cap ? cap : VEC_FIRST;

	if (need <= cap) {
		*out = cap;
		return 0;
	}
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return -ENOMEM;
		ncap *= 2;
	}
	if (elem && ncap > SIZE_MAX / elem)
		return -ENOMEM;
	*out = ncap;
	return 0;
}
