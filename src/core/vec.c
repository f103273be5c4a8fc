#include "core/vec.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

/* The first allocation holds this many items: most lists here are small
 * (a host's devices, a process's classes) and never grow again. */
#define VEC_FIRST 8

int vec_reserve(void **items, size_t *cap, size_t need, size_t elem)
{
	size_t ncap = *cap ? *cap : VEC_FIRST;
	void *p;

	if (need <= *cap)
		return 0;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return -ENOMEM;
		ncap *= 2;
	}
	if (elem && ncap > SIZE_MAX / elem)
		return -ENOMEM;
	p = realloc(*items, ncap * elem);
	if (!p)
		return -ENOMEM;
	*items = p;
	*cap = ncap;
	return 0;
}
