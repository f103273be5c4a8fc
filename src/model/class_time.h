/* The wall-time budget of a thread class: of its thread-seconds (threads
 * alive x wall time), how much was on CPU, waiting for a CPU, under
 * softirqs, and blocked, by reason (include/dbtrace/sched_blocked.h).
 * Pure: per-thread totals at two snapshots in, seconds and shares out. */
#ifndef DBTRACE_MODEL_CLASS_TIME_H
#define DBTRACE_MODEL_CLASS_TIME_H

#include <stdint.h>
#include "dbtrace/sched_blocked.h"

/* The states, in the order of the view and the capture. The blocked
 * reasons follow the first three in enum dbt_block_reason's order. */
enum class_state {
	CT_ONCPU,
	CT_RUNQ,
	CT_SOFTIRQ,
	CT_BLOCKED_FIRST,
	CT_FUTEX = CT_BLOCKED_FIRST + DBT_BLK_FUTEX,
	CT_NET = CT_BLOCKED_FIRST + DBT_BLK_NET,
	CT_DISK = CT_BLOCKED_FIRST + DBT_BLK_DISK,
	CT_SLEEP = CT_BLOCKED_FIRST + DBT_BLK_SLEEP,
	CT_PIPE_OTHER = CT_BLOCKED_FIRST + DBT_BLK_PIPE_OTHER,
	CT_KERNEL = CT_BLOCKED_FIRST + DBT_BLK_KERNEL,
	CT_STATES
};

/* Syscalls behind a class's pipe_other time it keeps (the top three are
 * reported; more are kept so that merging classes and intervals picks
 * the right three). */
#define CLASS_TIME_SYSCALLS 8
/* Futex words a class keeps, by wait time (see CLASS_TIME_SYSCALLS). */
#define CLASS_TIME_FUTEXES 8

struct class_time {
	uint64_t thread_ns;                /* threads alive x wall time */
	uint64_t ns[CT_STATES];
	/* what the states measured apart add up to, minus thread_ns, before
	 * the in-progress waits at the snapshot were charged (see
	 * class_time_thread): a check of the measurement, ~0 */
	int64_t residual_ns;
	int32_t sys_nr[CLASS_TIME_SYSCALLS];
	uint64_t sys_ns[CLASS_TIME_SYSCALLS];
	int n_sys;
	/* futex detail: the words waited on (user addresses: a class is one
	 * process's, so one lock is one word); the wait histogram is the
	 * class's (sched_class_stats.futex_hist), out of line like its
	 * run-queue delay's */
	uint64_t futex_addr[CLASS_TIME_FUTEXES];
	uint64_t futex_ns[CLASS_TIME_FUTEXES];
	int n_futex;
	/* what the kernel's task->utime and task->stime grew by: under tick
	 * accounting tick samples, so only their ratio is used */
	uint64_t tick_user_ns, tick_sys_ns;
	/* derived by class_time_finish: the oncpu state split into user and
	 * system by that ratio, as cputime_adjust() splits the runtime for
	 * /proc (so they sum to ns[CT_ONCPU]); 0 and 0 when neither grew:
	 * the split is unknown, the percentages NAN */
	uint64_t oncpu_user_ns, oncpu_sys_ns;
	double oncpu_user_pct, oncpu_sys_pct;
	/* derived by class_time_finish: % of thread_ns (NAN when 0) */
	double pct[CT_STATES];
	double blocked_pct, sum_pct, residual_pct;
	double futex_p50_us, futex_p99_us;  /* from the class's histogram; NAN: no wait */
	/* the top futex word's share of the class's blocked time (all six
	 * reasons); its share of the futex time alone is
	 * class_time_top_word_futex_pct() */
	double top_word_blocked_pct;
};

/* What the model keeps of a thread's struct dbt_sched_blocked (the
 * same fields, less the kernel side's working state and the futex
 * histogram, kept per process and thread name like the run-queue
 * delay's): two snapshots of 64k threads must fit the memory budget. */
struct class_time_blk {
	uint64_t seen_ns, exit_ns, since_ns, since_oncpu_ns, since_runq_ns;
	uint32_t reason;
	uint64_t ns[DBT_BLK_REASONS];
	int32_t sys_nr[DBT_BLK_SYSCALL_SLOTS];
	uint64_t sys_ns[DBT_BLK_SYSCALL_SLOTS];
	uint64_t futex_addr[DBT_BLK_FUTEX_SLOTS];
	uint64_t futex_ns[DBT_BLK_FUTEX_SLOTS];
};

/* Copies the kernel record's fields. */
void class_time_blk_from(struct class_time_blk *dst, const struct dbt_sched_blocked *src);

/* One thread's cumulative totals at a snapshot taken at mono_ns. */
struct class_time_sample {
	uint64_t mono_ns;
	uint64_t oncpu_ns, runq_ns, sirq_ns;   /* sirq_ns is part of oncpu_ns */
	const struct class_time_blk *blk;
	uint64_t utime_ns, stime_ns;           /* the kernel's task->utime, task->stime */
};

/* "oncpu", "runqueue", "softirq", "futex", ... */
const char *class_state_name(int state);
/* The state by name, or -1. */
int class_state_parse(const char *name);

/* Blocked time charged to reason r by s->mono_ns, including the block in
 * progress then. */
uint64_t class_time_blocked_ns(const struct class_time_sample *s, int r);

/* Adds one thread's interval (a: its totals at the interval's start,
 * NULL when first seen since; b: at its end) to ct. */
void class_time_thread(struct class_time *ct, const struct class_time_sample *a,
		       const struct class_time_sample *b, uint64_t start_mono_ns);
void class_time_add(struct class_time *a, const struct class_time *b);
/* The shares, the oncpu state's user/system split, and the syscalls
 * sorted by seconds, highest first. */
void class_time_finish(struct class_time *ct);
/* The top futex word's (futex_addr[0], after class_time_finish) share of
 * the futex state's time, at most 100: near 100, the class's threads
 * queue on one lock. NAN when it has no futex wait. (Its share of the
 * whole blocked time is top_word_blocked_pct.) */
double class_time_top_word_futex_pct(const struct class_time *ct);

#endif
