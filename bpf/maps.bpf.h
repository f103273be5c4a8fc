/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The map and verifier idioms every family repeats, written once.
 */
#ifndef DBTRACE_MAPS_BPF_H
#define DBTRACE_MAPS_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

/* The entry of key in map, made from init when there is none. Another
 * CPU may make it between the lookup and the insert (BPF_NOEXIST then
 * fails): the entry found is that one, or, in a per-CPU map, this CPU's
 * zeroed copy of it. *made says whether this call inserted it (for
 * "entries made" counters; may be NULL). NULL when the map refused: full
 * and not an LRU, or no memory. */
static __always_inline void *dbt_lookup_or_init(void *map, const void *key, const void *init,
						 bool *made)
{
	void *v = bpf_map_lookup_elem(map, key);
	long err;

	if (made)
		*made = false;
	if (v)
		return v;
	err = bpf_map_update_elem(map, key, init, BPF_NOEXIST);
	if (made)
		*made = !err;
	return bpf_map_lookup_elem(map, key);
}

/*
 * Bounds for the verifier. clang proves an index in range and drops the
 * program's own check, or computes the index in one register and indexes
 * with a copy; the verifier (6.1's and older: it loses bounds across
 * register spills) then sees an unbounded access and refuses the load.
 * These redo the check in the register the access uses, where clang
 * cannot remove it.
 */

/* v = min(v, max) */
#define dbt_clamp(v, max) asm volatile("if %0 <= %1 goto +1\n\t%0 = %1" : "+r"(v) : "i"(max))

/* v &= mask (mask: a power of two less one) */
#define dbt_mask(v, mask) asm volatile("%0 &= %1" : "+r"(v) : "i"(mask))

/* v as the compiler cannot know it: a bound computed before stays
 * computed on this register (the mask after it is then kept too) */
#define dbt_opaque(v) asm volatile("" : "+r"(v))

/* The u64 at base + off, a constant, read by one load the compiler
 * cannot merge with a load at another offset: clang turns "c ? p[4] :
 * p[3]" into one load at a computed offset, which the verifier refuses
 * in a program context ("dereference of modified ctx ptr"). */
#define dbt_load_at(base, off)                                                       \
	({                                                                           \
		__u64 __v;                                                           \
		asm volatile("%0 = *(u64 *)(%1 + %2)" : "=r"(__v) : "r"(base), "i"(off)); \
		__v;                                                                 \
	})

#endif
