/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Recording into a fine histogram (dbtrace/hist.h). Shared maps (one
 * element for all CPUs) take atomic adds; per-CPU ones plain adds.
 */
#ifndef DBTRACE_HIST_BPF_H
#define DBTRACE_HIST_BPF_H

#include "dbtrace/hist.h"
#include "maps.bpf.h"

/* The bucket of ns as an index the verifier can bound. clang proves the
 * bucket below DBT_HIST_BUCKETS and drops dbt_hist_bucket()'s clamp, and
 * 6.1's verifier, which cannot follow the arithmetic, then refuses the
 * access: clamp again, in the register the access uses. */
static __always_inline __u64 dbt_hist_index(__u64 ns)
{
	__u64 b = dbt_hist_bucket(ns);

	dbt_clamp(b, DBT_HIST_BUCKETS - 1);
	return b;
}

/* One timed measurement of ns standing for w, into a map element all CPUs
 * share. */
static __always_inline void dbt_hist_add_shared(struct dbt_hist_sampled *h, __u64 ns, __u64 w)
{
	__sync_fetch_and_add(&h->buckets[dbt_hist_index(ns)], w);
	__sync_fetch_and_add(&h->timed, 1);
}

/* The same into this CPU's own copy. */
static __always_inline void dbt_hist_add_local(struct dbt_hist_sampled *h, __u64 ns, __u64 w)
{
	h->buckets[dbt_hist_index(ns)] += w;
	h->timed++;
}

#endif
