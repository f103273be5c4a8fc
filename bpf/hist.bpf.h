/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Recording into a fine histogram (dbtrace/hist.h). Shared maps (one
 * element for all CPUs) take atomic adds; per-CPU ones plain adds.
 */
#ifndef DBTRACE_HIST_BPF_H
#define DBTRACE_HIST_BPF_H

#include "dbtrace/hist.h"

/* One timed measurement of ns standing for w, into a map element all CPUs
 * share. */
static __always_inline void dbt_hist_add_shared(struct dbt_hist_sampled *h, __u64 ns, __u64 w)
{
	__sync_fetch_and_add(&h->buckets[dbt_hist_bucket(ns)], w);
	__sync_fetch_and_add(&h->timed, 1);
}

/* The same into this CPU's own copy. */
static __always_inline void dbt_hist_add_local(struct dbt_hist_sampled *h, __u64 ns, __u64 w)
{
	h->buckets[dbt_hist_bucket(ns)] += w;
	h->timed++;
}

#endif
