// SPDX-License-Identifier: GPL-2.0
/*
 * sched family: per-thread on-CPU time, voluntary and involuntary context
 * switches, run-queue delay and migrations, plus per interval a run-queue
 * delay histogram and the CPUs each thread ran on. tp_btf preferred,
 * raw_tp fallback, chosen by the attach plan.
 *
 * One program on sched_switch does it all, and it counts nothing itself:
 * the kernel already keeps these numbers per task (see struct
 * dbt_sched_thread), so the program copies them when a thread leaves the
 * CPU. They then agree with /proc by construction, including the kernel's
 * rule for a voluntary switch and its run-queue clock, and the family
 * needs no wakeup probes and no clock read: the run-queue wait before a
 * run is what the kernel's run_delay grew by since the thread last left a
 * CPU. Needs CONFIG_SCHED_INFO (Debian: on, through TASK_DELAY_ACCT). The
 * idle task (pid 0) is never a thread.
 *
 * Where a thread's record lives. A hash lookup by tid costs about 70 ns
 * per switch on the VMs measured, more than all the switch's other work;
 * task-local storage is a pointer chase from the task (about 25 ns). But
 * storage is never created here: sched_switch runs under the runqueue
 * lock, and on kernels whose local storage allocates with kmalloc (6.1) an
 * allocation may wake kswapd, which takes a runqueue lock. So a thread's
 * first switch-outs go to the preallocated sched_threads LRU map, and the
 * task iterator user space runs once per interval (sched_iter_btf, process
 * context) moves each such record into the thread's storage and writes out
 * every stored record. raw_tp programs have no typed task pointer for the
 * storage helpers and keep every thread in sched_threads. A thread's last
 * switch-out (TASK_DEAD) puts its final record in sched_threads, marked
 * exited, where user space reads it once and deletes it.
 *
 * Kernels: tp_btf needs task storage in tracing programs (5.13) and the
 * atomic instructions of 5.12 (runq_flush's compare-and-swap); raw_tp
 * runs on 5.10 and newer, and none of its instructions is newer than
 * that (the verifier before 5.12 refuses a cmpxchg even in dead code).
 *
 * Kernel fields read: task_struct pid, tgid, comm, group_leader, nvcsw,
 * nivcsw, start_time, __state (state before 5.14: core_fixes.bpf.h),
 * se.sum_exec_runtime, se.nr_migrations,
 * sched_info.run_delay, utime, stime; for the blocked time
 * (bpf/sched_blocked.bpf.h) flags, in_iowait, the saved pt_regs, files for
 * read on a socket, and se.cfs_rq->rq->clock (the runqueue clock the
 * blocks are timed by).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "dbtrace/sched.h"
#include "core_fixes.bpf.h"
#include "maps.bpf.h"
#include "sirq_pending.bpf.h"
#include "hist.bpf.h"
#include "skeleton.bpf.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, DBT_SCHED_MAX_THREADS);
	__type(key, __u32);
	__type(value, struct dbt_sched_thread);
} sched_threads SEC(".maps");

/* Run-queue delay histograms per (process, thread name): see struct
 * dbt_sched_runq_hist. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, DBT_SCHED_MAX_RUNQ_KEYS);
	__type(key, struct dbt_sched_runq_key);
	__type(value, struct dbt_sched_runq_hist);
} sched_runq SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct dbt_sched_thread);
} sched_task SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct dbt_sched_cur);
} sched_cur SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct dbt_sched_stats);
} sched_stats SEC(".maps");

/* The interval being recorded (struct dbt_sched_ival); user space moves
 * it on as it reads the one before. */
volatile __u32 ival_gen = 0;

/* CLOCK_MONOTONIC when the programs were loaded (set by user space): a
 * thread started after it counts from zero, not from when first seen. */
const volatile __u64 loaded_ns = 0;

/* Zeroed templates for new entries: too large for the BPF stack. */
const volatile struct dbt_sched_thread zero_thread = {};
const volatile struct dbt_sched_runq_hist zero_runq = {};

/* tp_btf programs read task_struct with plain loads; raw_tp has untyped
 * pointers and goes through bpf_probe_read_kernel, a helper call per
 * field. Every caller passes a constant `typed`, so the branch not taken
 * is compiled out. On the context-switch path helper calls would cost
 * more than the map work. */
#define KREAD(typed, p, field) ((typed) ? (p)->field : BPF_CORE_READ(p, field))

#define TASK_DEAD 0x80

/* Copies the 16-byte comm: two plain 8-byte loads when typed (the name
 * is refreshed at every switch-out, so this runs at every switch). */
static __always_inline void copy_comm(char dst[16], struct task_struct *t, const bool typed)
{
	if (typed) {
		__u64 *d = (__u64 *)dst;

		d[0] = *(__u64 *)&t->comm[0];
		d[1] = *(__u64 *)&t->comm[8];
	} else {
		bpf_probe_read_kernel_str(dst, 16, t->comm);
	}
}

static __always_inline struct dbt_sched_stats *stats(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&sched_stats, &zero);
}

/* The entry of a thread leaving the CPU, made on first sight. */
static __always_inline struct dbt_sched_thread *thread_of(struct task_struct *t, __u32 tid,
						       const bool typed)
{
	struct dbt_sched_thread *th;
	struct dbt_sched_stats *st;
	bool made;

	th = dbt_lookup_or_init(&sched_threads, &tid, (const void *)&zero_thread, &made);
	/* found, or another CPU inserted it first and set it up */
	if (th && !made)
		return th;
	st = stats();
	if (!th) {
		if (st)
			st->update_failed++;
		return NULL;
	}
	if (st)
		st->inserts++;
	th->tid = tid;
	th->pid = KREAD(typed, t, tgid);
	/* the leader may never run while we watch: name the process now */
	BPF_CORE_READ_STR_INTO(&th->pcomm, t, group_leader, comm);
	/* born since the load: counted from birth (the same clock) */
	th->blk.seen_ns = KREAD(typed, t, start_time);
	if (th->blk.seen_ns < loaded_ns) {
		th->blk.seen_ns = bpf_ktime_get_ns();
		/* older than dbtrace: what it did before does not count */
		th->base_oncpu_ns = KREAD(typed, t, se.sum_exec_runtime);
		th->base_runq_ns = KREAD(typed, t, sched_info.run_delay);
		th->base_vol = KREAD(typed, t, nvcsw);
		th->base_invol = KREAD(typed, t, nivcsw);
		th->base_migrations = KREAD(typed, t, se.nr_migrations);
		th->base_utime_ns = KREAD(typed, t, utime);
		th->base_stime_ns = KREAD(typed, t, stime);
	}
	return th;
}

/* This interval's record of a thread leaving cpu: the run-queue wait before
 * the run now ending (what the kernel added to run_delay since the thread
 * last left a CPU: the wait at its arrival here, plus any wait on another
 * CPU's queue it was moved from) and this CPU. */
static __always_inline void record_run(struct dbt_sched_thread *th, __u64 wait, __u32 cpu)
{
	__u32 gen = ival_gen;
	__u64 i = gen & 1;
	struct dbt_sched_ival *iv;

	/* 6.1's verifier loses bounds across register spills */
	dbt_mask(i, 1);
	iv = &th->ival[i];
	if (iv->gen != gen) {
		/* still interval gen - 2, read long ago */
		__builtin_memset(iv, 0, sizeof(*iv));
		iv->gen = gen;
	}
	if (cpu < DBT_SCHED_CPU_WORDS * 64) {
		__u64 word = cpu / 64;

		dbt_mask(word, DBT_SCHED_CPU_WORDS - 1);
		iv->cpus[word] |= 1ull << (cpu % 64);
	} else {
		iv->cpus_beyond = 1;
	}
	if (wait > iv->runq_max_ns)
		iv->runq_max_ns = wait;
}

/* The histogram of kind for the thread's process and name, made on
 * first need; NULL when the map refused. */
static __always_inline struct dbt_sched_runq_hist *name_hist(const struct dbt_sched_thread *th,
							     __u32 kind)
{
	struct dbt_sched_runq_key k = { .pid = th->pid, .kind = kind };
	struct dbt_sched_runq_hist *h;
	struct dbt_sched_stats *st;
	bool made;

	__builtin_memcpy(k.comm, th->comm, sizeof(k.comm));
	h = dbt_lookup_or_init(&sched_runq, &k, (const void *)&zero_runq, &made);
	if (h && made)
		h->born_ns = bpf_ktime_get_ns();
	if (!h) {
		st = stats();
		if (st)
			st->update_failed++;
	}
	return h;
}

/* One wait (run-queue delay, or a futex wait for the time budget) into
 * the histogram of its kind. Threads of one class share an entry on
 * several CPUs: an atomic add. */
static __always_inline void name_hist_add(const struct dbt_sched_thread *th, __u32 kind, __u64 wait)
{
	struct dbt_sched_runq_hist *h = name_hist(th, kind);

	if (h)
		__sync_fetch_and_add(&h->buckets[dbt_hist_index(wait)], 1);
}

/* Adds the run-queue waits th holds to its histogram. The waits are
 * copied before the compare-and-swap that claims them: once runq_flushed
 * has moved, the switch program may reuse their slots. */
static __always_inline void runq_flush(struct dbt_sched_thread *th)
{
	__u32 f = th->runq_flushed, s = th->runq_staged, n = s - f;
	__u16 held[DBT_SCHED_RUNQ_STAGE];
	struct dbt_sched_runq_hist *h;

	if (!n || n > DBT_SCHED_RUNQ_STAGE)
		return;
	__builtin_memcpy(held, th->runq_stage, sizeof(held));
	if (__sync_val_compare_and_swap(&th->runq_flushed, f, s) != f)
		return;
	h = name_hist(th, DBT_SCHED_HIST_RUNQ);
	if (!h)
		return;
	for (__u32 k = 0; k < DBT_SCHED_RUNQ_STAGE; k++) {
		__u64 b;

		if (k >= n)
			break;
		b = held[(f + k) % DBT_SCHED_RUNQ_STAGE];
		dbt_clamp(b, DBT_HIST_BUCKETS - 1);
		__sync_fetch_and_add(&h->buckets[b], 1);
	}
}

/* A run-queue wait of the thread leaving the CPU (only it writes
 * runq_staged), held until the stage is full or the iterator comes. */
static __always_inline void runq_hold(struct dbt_sched_thread *th, __u64 wait)
{
	__u32 s;

	if (th->runq_staged - th->runq_flushed >= DBT_SCHED_RUNQ_STAGE)
		runq_flush(th);
	s = th->runq_staged;
	th->runq_stage[s % DBT_SCHED_RUNQ_STAGE] = (__u16)dbt_hist_index(wait);
	th->runq_staged = s + 1;
}

#include "sched_blocked.bpf.h"

/* Whether this switch-out is the thread's last: do_task_dead() has set
 * TASK_DEAD before its final __schedule(). */
static __always_inline bool dying(struct task_struct *t, const bool typed)
{
	return dbt_task_state(t, typed) & TASK_DEAD;
}

/* The record of a thread leaving the CPU: its storage when it has one
 * (typed path; *stored set), else its sched_threads entry, made on first
 * sight. */
static __always_inline struct dbt_sched_thread *record_of(struct task_struct *t, __u32 tid,
							bool *stored, const bool typed)
{
	struct dbt_sched_thread *th;

	if (typed) {
		th = bpf_task_storage_get(&sched_task, t, 0, 0);
		*stored = th != NULL;
		if (th)
			return th;
	}
	th = thread_of(t, tid, typed);
	/* a recycled tid: the old thread's entry goes on for the new one,
	 * which was born while we watched and counts from zero */
	if (th && th->exited) {
		th->exited = 0;
		th->pid = KREAD(typed, t, tgid);
		BPF_CORE_READ_STR_INTO(&th->pcomm, t, group_leader, comm);
		th->base_oncpu_ns = th->base_runq_ns = th->base_vol = th->base_invol = 0;
		th->base_migrations = 0;
		th->base_utime_ns = th->base_stime_ns = 0;
		th->sirq_ns = th->net_sirq_ns = 0;
		th->runq_ns = 0;
		th->runq_staged = th->runq_flushed = 0;
		__builtin_memset(&th->blk, 0, sizeof(th->blk));
		th->blk.seen_ns = KREAD(typed, t, start_time);
	}
	return th;
}

/* The skeleton's switch-out (bpf/skeleton.bpf.h): the record found, the
 * run-queue total kept, nothing else. */
static __always_inline void skeleton_left_cpu(struct task_struct *prev, __u32 tid, const bool typed)
{
	struct dbt_sched_thread *th;
	bool stored;

	th = tid ? record_of(prev, tid, &stored, typed) : NULL;
	if (th)
		th->runq_ns = KREAD(typed, prev, sched_info.run_delay) - th->base_runq_ns;
}

/* The thread leaving the CPU: its counters as the kernel has them now
 * (__schedule() has charged this run and counted this switch before the
 * tracepoint), and the softirq time that ran on top of it since it came
 * on. tid 0: the idle task, which is never a thread and never charged. */
static __always_inline void left_cpu(struct task_struct *prev, __u32 tid, __u32 cpu,
				     bool preempt, const bool typed)
{
	struct dbt_softirq_pending *p, sirq = {};
	struct dbt_sched_thread *th;
	struct dbt_sched_stats *st;
	bool stored = false;
	__u64 runq, wait, switches;
	__u32 zero = 0;

	if (DBT_SKELETON) {
		skeleton_left_cpu(prev, tid, typed);
		return;
	}
	p = bpf_map_lookup_elem(&sirq_pending, &zero);
	if (p) {
		sirq = *p;
		p->total_ns = p->net_ns = 0;
	}
	if (!tid)
		return;
	th = record_of(prev, tid, &stored, typed);
	if (!th)
		return;
	th->sirq_ns += sirq.total_ns;
	th->net_sirq_ns += sirq.net_ns;
	th->oncpu_ns = KREAD(typed, prev, se.sum_exec_runtime) - th->base_oncpu_ns;
	runq = KREAD(typed, prev, sched_info.run_delay) - th->base_runq_ns;
	wait = runq - th->runq_ns;
	record_run(th, wait, cpu);
	th->runq_ns = runq;
	switches = th->vol + th->invol;
	th->vol = KREAD(typed, prev, nvcsw) - th->base_vol;
	th->invol = KREAD(typed, prev, nivcsw) - th->base_invol;
	th->migrations = KREAD(typed, prev, se.nr_migrations) - th->base_migrations;
	/* user/system: the kernel's split of the same runtime */
	th->utime_ns = KREAD(typed, prev, utime) - th->base_utime_ns;
	th->stime_ns = KREAD(typed, prev, stime) - th->base_stime_ns;
	/* names change after the first sight (exec, then
	 * pthread_setname_np): the name it ran under, refreshed as it
	 * leaves the CPU, keeps every thread's class right */
	copy_comm(th->comm, prev, typed);
	/* Every counted switch-out ends a run that began with a wait, of 0 ns
	 * when the runqueue clock did not move between enqueue and arrival
	 * (a wakeup that preempts at once skips the clock update): those
	 * count too, or the shortest waits vanish and the percentiles move
	 * up (runqlat saw a quarter of a pool's waits under 2 us). Not the
	 * first sight of an older thread: its base holds this switch. */
	if (wait || th->vol + th->invol != switches) {
		if (typed)
			runq_hold(th, wait);
		else
			name_hist_add(th, DBT_SCHED_HIST_RUNQ, wait);
	}
	if (!dying(prev, typed)) {
		blocked_switch_out(th, prev, preempt, false, typed);
		return;
	}
	blocked_switch_out(th, prev, preempt, true, typed);
	/* raw_tp holds no waits (name_hist_add above), and its program
	 * must not carry runq_flush's compare-and-swap: kernels before
	 * 5.12 refuse that instruction even where it never runs */
	if (typed)
		runq_flush(th);
	th->exited = 1;
	/* a stored record goes away with the task: its final copy waits in
	 * sched_threads for user space (a preallocated map: no allocation) */
	if (stored) {
		st = stats();
		if (bpf_map_update_elem(&sched_threads, &tid, th, BPF_ANY)) {
			if (st)
				st->update_failed++;
		} else if (st) {
			st->inserts++;
		}
	}
}

static __always_inline void on_switch(bool preempt, struct task_struct *prev,
				      struct task_struct *next, const bool typed)
{
	__u32 cpu = bpf_get_smp_processor_id(), zero = 0;
	__u32 prev_tid = KREAD(typed, prev, pid);
	__u32 next_tid = KREAD(typed, next, pid);
	struct dbt_sched_cur *cur;

	left_cpu(prev, prev_tid, cpu, preempt, typed);
	if (DBT_SKELETON)
		return;
	cur = bpf_map_lookup_elem(&sched_cur, &zero);
	if (!cur)
		return;
	cur->tid = next_tid;
	/* clock_gen is the interval + 1: 0 says never taken */
	if (cur->clock_gen != ival_gen + 1 && prev_tid) {
		cur->mono_minus_rq_ns = (__s64)(bpf_ktime_get_ns() - switch_clock(prev, typed));
		cur->clock_gen = ival_gen + 1;
	}
}

/* tp_btf: typed arguments. */
SEC("?tp_btf/sched_switch")
int BPF_PROG(sched_switch_btf, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	on_switch(preempt, prev, next, true);
	return 0;
}

/* Run by user space once per interval (process context): moves threads
 * met for the first time from sched_threads into their storage (creating
 * it here is safe), then writes out each thread's stored record. */
SEC("?iter/task")
int sched_iter_btf(struct bpf_iter__task *ctx)
{
	struct task_struct *t = ctx->task;
	struct dbt_sched_thread *th, *first;
	struct dbt_sched_stats *st;
	__u32 tid;

	if (!t)
		return 0;
	tid = t->pid;
	th = bpf_task_storage_get(&sched_task, t, 0, 0);
	if (!th) {
		first = bpf_map_lookup_elem(&sched_threads, &tid);
		/* not seen leaving a CPU yet, or the final record of an
		 * earlier thread with this tid */
		if (!first || first->exited)
			return 0;
		th = bpf_task_storage_get(&sched_task, t, first, BPF_LOCAL_STORAGE_GET_F_CREATE);
		st = stats();
		if (!th) {
			if (st)
				st->update_failed++;
			return 0;   /* it stays in sched_threads */
		}
		bpf_map_delete_elem(&sched_threads, &tid);
		if (st)
			st->adopted++;
	}
	/* a dead thread's final record is in sched_threads */
	if (th->exited)
		return 0;
	runq_flush(th);
	bpf_seq_write(ctx->meta->seq, th, sizeof(*th));
	return 0;
}

/* raw_tp: the same argument array, read without BTF typing. */
SEC("?raw_tp/sched_switch")
int BPF_PROG(sched_switch_raw, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	on_switch(preempt, prev, next, false);
	return 0;
}
