/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sched probe family: types shared by bpf/sched.bpf.c and
 * src/collect/sched.c. Per-thread counters aggregated in the kernel and
 * read once per interval; no event per context switch reaches user space.
 */
#ifndef DBTRACE_SCHED_H
#define DBTRACE_SCHED_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif
#include "dbtrace/hist.h"
#include "dbtrace/sched_blocked.h"

/* LRU capacity: per-thread state for at least 64k threads. */
#define DBT_SCHED_MAX_THREADS 65536
/* The per-interval "ran on" mask covers CPUs 0..255; a thread seen on a
 * higher CPU sets cpus_beyond instead (reported, never silently dropped). */
#define DBT_SCHED_CPU_WORDS 4

/* What a thread did in one interval: the run-queue waits before its runs
 * and the CPUs it ran on, recorded at each switch-out. Kept in the thread's
 * entry, twice: interval g writes ival[g & 1] (zeroing it first when it
 * still holds interval g - 2), while user space, having moved the global
 * ival_gen on to g + 1, reads interval g from the other copy. So there is
 * no second map lookup per switch, and user space needs no copy of last
 * interval's histograms to diff against. */
struct dbt_sched_ival {
	__u32 gen;                    /* the interval it holds */
	__u32 cpus_beyond;            /* ran on a CPU >= 64 * DBT_SCHED_CPU_WORDS */
	/* every switch-out touches these: one cache line with gen */
	__u64 cpus[DBT_SCHED_CPU_WORDS];  /* CPUs it ran on */
	__u64 runq_max_ns;
};

/* The run-queue delay histogram is not kept per thread: 992 fine buckets
 * (dbtrace/hist.h) twice per thread would be 8 KB a thread, half a
 * gigabyte for the 64k threads the family follows. It is kept per
 * process and thread name instead, what user space folds into a class
 * (two threads of one process with one name are always of one class):
 * map sched_runq, an LRU hash of DBT_SCHED_MAX_RUNQ_KEYS entries of 4 KB,
 * cumulative u32 counters that user space diffs between reads. The
 * budget's futex wait histogram (dbtrace/sched_blocked.h) is kept the
 * same way, under its own kind of key. */
#define DBT_SCHED_MAX_RUNQ_KEYS 2048

/* Run-queue waits a thread holds (as bucket indices) before it adds
 * them to its sched_runq histogram with one lookup: the lookup and the
 * shared counters cost a switch more than the rest of its run-queue work.
 * The task iterator adds what is held at each interval's read, so the
 * histogram is whole when user space reads it; raw_tp, which has no
 * iterator, holds nothing. */
#define DBT_SCHED_RUNQ_STAGE 8

/* What a histogram of sched_runq holds. */
enum dbt_sched_hist_kind {
	DBT_SCHED_HIST_RUNQ,           /* run-queue delay */
	DBT_SCHED_HIST_FUTEX,          /* futex wait (the time budget's) */
	DBT_SCHED_HIST_KINDS
};

struct dbt_sched_runq_key {
	__u32 pid;                     /* thread group id */
	__u32 kind;                    /* enum dbt_sched_hist_kind */
	char comm[16];                 /* the thread's name */
};

struct dbt_sched_runq_hist {
	__u64 born_ns;                 /* when the entry was made: a new one counts from zero */
	__u32 buckets[DBT_HIST_BUCKETS];  /* run-queue delay or futex wait, ns; wraps (diffed modulo 2^32) */
};

/* Per-thread counters since dbtrace first saw the thread (the thread's
 * task-local storage in sched_task, or map sched_threads keyed by tid; see
 * bpf/sched.bpf.c). They are the kernel's own per-task accounting,
 * copied at each switch-out, so they agree with /proc/PID/task/TID:
 * on-CPU = se.sum_exec_runtime (utime+stime before scaling), run-queue
 * time = sched_info.run_delay (/proc/.../schedstat), switches =
 * nvcsw/nivcsw (voluntary_ctxt_switches...), migrations =
 * se.nr_migrations. A thread born after dbtrace started counts from
 * zero; an older one from its values when first seen. */
struct dbt_sched_thread {
	__u32 tid;
	__u32 pid;                    /* thread group id */
	__u32 exited;                 /* its last switch-out (TASK_DEAD) done */
	__u32 pad;
	char comm[16];
	__u64 oncpu_ns;               /* completed runs; see struct dbt_sched_cur for the running one */
	__u64 runq_ns;                /* runnable but waiting for a CPU */
	__u64 vol;                    /* left the CPU not runnable (slept, blocked) */
	__u64 invol;                  /* preempted while runnable */
	__u64 migrations;             /* moved to another CPU */
	/* softirq time that ran on top of it (from the softirq family's
	 * sirq_pending; 0 without that family) */
	__u64 sirq_ns, net_sirq_ns;
	/* the kernel's values when first seen, subtracted from the above */
	__u64 base_oncpu_ns, base_runq_ns, base_vol, base_invol, base_migrations;
	/* task->utime and task->stime, less their values when first seen
	 * (base_utime_ns, base_stime_ns): under tick accounting samples of
	 * whole ticks, not times, so user space takes only their ratio, to
	 * split oncpu_ns into user and system as the kernel's
	 * cputime_adjust() does for /proc */
	__u64 utime_ns, stime_ns;
	/* run-queue waits held: runq_stage[i % DBT_SCHED_RUNQ_STAGE] for
	 * runq_flushed <= i < runq_staged; runq_flushed moves only by a
	 * compare-and-swap, so the switch and the iterator never add a
	 * wait twice */
	__u16 runq_stage[DBT_SCHED_RUNQ_STAGE];
	__u32 runq_staged, runq_flushed;
	/* what every switch-out touches comes above, in few cache lines
	 * (with ival; what comes after it is written at first sight only) */
	struct dbt_sched_ival ival[2];
	char pcomm[16];               /* the process's (group leader's) comm */
	__u64 base_utime_ns, base_stime_ns;
	/* blocked time by reason (bpf/sched_blocked.bpf.h) */
	struct dbt_sched_blocked blk;
};

/* What each CPU is running now (per-CPU array, one element), so a thread
 * that has not left the CPU for seconds still shows its on-CPU time: user
 * space reads that thread's running total from /proc/TID/schedstat. (A
 * clock read per switch to time the run here would cost the switch more
 * than all its other work: about 75 ns in the VMs measured.) */
struct dbt_sched_cur {
	__u32 tid;                    /* 0: idle */
	/* CLOCK_MONOTONIC less this CPU's runqueue clock, which times the
	 * blocks (since_ns in struct dbt_sched_blocked), taken at the
	 * first switch of interval clock_gen - 1 (a monotonic clock read
	 * per CPU per interval, not per switch); clock_gen 0: not yet */
	__u32 clock_gen;
	__s64 mono_minus_rq_ns;
};

/* Per-CPU counters of the family itself. */
struct dbt_sched_stats {
	/* new sched_threads entries: evictions = inserts - live - deleted - adopted */
	__u64 inserts;
	__u64 update_failed;          /* a map update failed: the event was lost */
	__u64 adopted;                /* moved from sched_threads into task storage */
};

#endif /* DBTRACE_SCHED_H */
