// SPDX-License-Identifier: GPL-2.0
/*
 * softirq family: time, entries, raises and raise->entry wait per CPU and
 * softirq vector, plus hard irq time. Two variants of every program: tp_btf
 * (preferred, typed arguments) and raw_tp (fallback). Both are declared
 * with SEC("?...") so nothing loads unless the attach plan switches it on.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "dbtrace/softirq.h"
#include "sirq_pending.bpf.h"
#include "load_sample.bpf.h"
#include "hist.bpf.h"
#include "skeleton.bpf.h"

char LICENSE[] SEC("license") = "GPL";

#define ASSERT_VEC(ours, kernel) _Static_assert((int)(ours) == (int)(kernel), #ours " drifted from the kernel")
ASSERT_VEC(DBT_SOFTIRQ_HI, HI_SOFTIRQ);
ASSERT_VEC(DBT_SOFTIRQ_TIMER, TIMER_SOFTIRQ);
ASSERT_VEC(DBT_SOFTIRQ_NET_TX, NET_TX_SOFTIRQ);
ASSERT_VEC(DBT_SOFTIRQ_NET_RX, NET_RX_SOFTIRQ);
ASSERT_VEC(DBT_SOFTIRQ_BLOCK, BLOCK_SOFTIRQ);
ASSERT_VEC(DBT_SOFTIRQ_IRQ_POLL, IRQ_POLL_SOFTIRQ);
ASSERT_VEC(DBT_SOFTIRQ_TASKLET, TASKLET_SOFTIRQ);
ASSERT_VEC(DBT_SOFTIRQ_SCHED, SCHED_SOFTIRQ);
ASSERT_VEC(DBT_SOFTIRQ_HRTIMER, HRTIMER_SOFTIRQ);
ASSERT_VEC(DBT_SOFTIRQ_RCU, RCU_SOFTIRQ);
ASSERT_VEC(DBT_SOFTIRQ_VECS, NR_SOFTIRQS);

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct dbt_softirq_cpu);
} softirq_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct dbt_softirq_state);
} softirq_state SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, DBT_SOFTIRQ_VECS);
	__type(key, __u32);
	__type(value, struct dbt_softirq_wait);
} softirq_wait SEC(".maps");

/* Leaves a finished handler run for the sched family to charge to the
 * task it interrupted (bpf/sirq_pending.bpf.h): in softirq context that
 * task (or ksoftirqd, or the idle task) is "current" until this CPU's next
 * switch. A plain add: the switch that empties it runs with interrupts
 * off, so it never cuts into this. */
static __always_inline void charge(unsigned int vec, __u64 ns)
{
	struct dbt_softirq_pending *p;
	__u32 zero = 0;

	p = bpf_map_lookup_elem(&sirq_pending, &zero);
	if (!p)
		return;
	p->total_ns += ns;
	if (vec == DBT_SOFTIRQ_NET_RX || vec == DBT_SOFTIRQ_NET_TX)
		p->net_ns += ns;
}

/* Under load one raise in sixteen is timed for the raise->entry wait, and
 * one handler run in sixteen for the handler time, each counting sixteen
 * (bpf/load_sample.bpf.h): two clock reads per run cost more than the
 * rest of the family's work. Raises and entries stay exact; the time is
 * then an estimate from thousands of runs a second per CPU. */

static __always_inline int lookup(struct dbt_softirq_cpu **st, struct dbt_softirq_state **s)
{
	__u32 zero = 0;

	*st = bpf_map_lookup_elem(&softirq_stats, &zero);
	*s = bpf_map_lookup_elem(&softirq_state, &zero);
	return *st && *s;
}

static __always_inline void on_raise(unsigned int vec)
{
	struct dbt_softirq_cpu *st;
	struct dbt_softirq_state *s;

	if (vec >= DBT_SOFTIRQ_VECS || !lookup(&st, &s))
		return;
	st->raises[vec]++;
	if (DBT_SKELETON)
		return;
	/* a vector already pending runs once for all its raises: the wait
	 * that matters is the oldest one */
	if (!s->raised_ns[vec]) {
		__u8 w = dbt_start_weight();

		s->raised_w[vec] = w;
		s->raised_ns[vec] = w ? bpf_ktime_get_ns() : DBT_UNTIMED;
	}
}

static __always_inline void on_entry(unsigned int vec)
{
	struct dbt_softirq_cpu *st;
	struct dbt_softirq_state *s;
	__u64 now = 0;
	__u8 w;

	if (vec >= DBT_SOFTIRQ_VECS || !lookup(&st, &s))
		return;
	if (s->in_sirq)
		st->unmatched++;
	st->entries[vec]++;
	if (DBT_SKELETON)
		return;
	/* the handler's run is timed as drawn; a timed raise ends here
	 * whatever the draw */
	w = dbt_start_weight();
	if (w || s->raised_w[vec])
		now = bpf_ktime_get_ns();
	if (s->raised_ns[vec]) {
		if (s->raised_w[vec] && now > s->raised_ns[vec]) {
			__u32 key = vec;
			struct dbt_softirq_wait *wt = bpf_map_lookup_elem(&softirq_wait, &key);

			if (wt)
				dbt_hist_add_local(&wt->wait, now - s->raised_ns[vec], s->raised_w[vec]);
		}
		s->raised_ns[vec] = 0;
	}
	s->sirq_start_ns = now;
	s->sirq_w = w;
	s->hardirq_ns_at_start = st->hardirq_ns;
	s->sirq_vec = vec;
	s->in_sirq = 1;
}

static __always_inline void on_exit(unsigned int vec)
{
	struct dbt_softirq_cpu *st;
	struct dbt_softirq_state *s;
	__u64 now, delta, nested;

	if (vec >= DBT_SOFTIRQ_VECS || !lookup(&st, &s) || DBT_SKELETON)
		return;
	if (!s->in_sirq || s->sirq_vec != vec) {
		st->unmatched++;
		s->in_sirq = 0;
		return;
	}
	s->in_sirq = 0;
	if (!s->sirq_w)
		return;   /* not drawn (load sampling): another run stands for it */
	now = bpf_ktime_get_ns();
	delta = now - s->sirq_start_ns;
	/* hard irqs that interrupted this handler are charged to hardirq */
	nested = st->hardirq_ns - s->hardirq_ns_at_start;
	if (nested < delta)
		delta -= nested;
	else
		delta = 0;
	/* weighted: under load this run stands for sirq_w runs */
	delta *= s->sirq_w;
	st->time_ns[vec] += delta;
	charge(vec, delta);
}

static __always_inline void on_hardirq_entry(void)
{
	struct dbt_softirq_cpu *st;
	struct dbt_softirq_state *s;

	if (lookup(&st, &s))
		s->hirq_start_ns = bpf_ktime_get_ns();
}

static __always_inline void on_hardirq_exit(void)
{
	struct dbt_softirq_cpu *st;
	struct dbt_softirq_state *s;

	if (!lookup(&st, &s))
		return;
	if (!s->hirq_start_ns) {
		st->unmatched++;
		return;
	}
	st->hardirq_ns += bpf_ktime_get_ns() - s->hirq_start_ns;
	st->hardirq_count++;
	s->hirq_start_ns = 0;
}

/* tp_btf: the preferred path, typed arguments. */
SEC("?tp_btf/softirq_raise")
int BPF_PROG(sirq_raise_btf, unsigned int vec) { on_raise(vec); return 0; }
SEC("?tp_btf/softirq_entry")
int BPF_PROG(sirq_entry_btf, unsigned int vec) { on_entry(vec); return 0; }
SEC("?tp_btf/softirq_exit")
int BPF_PROG(sirq_exit_btf, unsigned int vec) { on_exit(vec); return 0; }
SEC("?tp_btf/irq_handler_entry")
int BPF_PROG(hirq_entry_btf) { on_hardirq_entry(); return 0; }
SEC("?tp_btf/irq_handler_exit")
int BPF_PROG(hirq_exit_btf) { on_hardirq_exit(); return 0; }

/* raw_tp: the fallback; the same u64 argument array without BTF typing. */
SEC("?raw_tp/softirq_raise")
int BPF_PROG(sirq_raise_raw, unsigned int vec) { on_raise(vec); return 0; }
SEC("?raw_tp/softirq_entry")
int BPF_PROG(sirq_entry_raw, unsigned int vec) { on_entry(vec); return 0; }
SEC("?raw_tp/softirq_exit")
int BPF_PROG(sirq_exit_raw, unsigned int vec) { on_exit(vec); return 0; }
SEC("?raw_tp/irq_handler_entry")
int BPF_PROG(hirq_entry_raw) { on_hardirq_entry(); return 0; }
SEC("?raw_tp/irq_handler_exit")
int BPF_PROG(hirq_exit_raw) { on_hardirq_exit(); return 0; }
