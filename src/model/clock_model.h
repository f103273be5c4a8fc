/* Clock model: per-thread clock counters in (vDSO samples by function,
 * samples inside clock syscalls, clock syscall counts), per process and
 * per thread class out, over any window between two snapshots. Pure. */
#ifndef DBTRACE_MODEL_CLOCK_MODEL_H
#define DBTRACE_MODEL_CLOCK_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "dbtrace/clock.h"
#include "model/class_map.h"
#include "model/sched_interval.h"   /* struct sched_filter */
#include "model/thread_class.h"
#include "sysinfo/vdso.h"

/* One thread at one snapshot: the kernel's cumulative counters. */
struct clock_thread_sample {
	uint32_t tid;
	struct dbt_clock_thread c;     /* c.comm is NUL-terminated */
};

struct clock_snapshot {
	uint64_t mono_ns;
	struct clock_thread_sample *t; /* sorted by tid */
	int n;
	size_t cap;
	/* the family's own counters, summed over CPUs, cumulative */
	struct dbt_clock_stats stats;
	/* how clock syscalls were measured: "fentry", "tracepoint",
	 * "raw_syscalls" (counted) or "sampled" (a share of CPU samples,
	 * no counts); NULL in captures older than the field: counted */
	const char *syscall_method;
};

/* Names of the vDSO function slots and the ranges the kernel side gets. */
struct clock_fn_table {
	char name[DBT_CLOCK_FN_SLOTS][VDSO_NAME_MAX];   /* slot 0: "other" */
	struct dbt_clock_range range[DBT_CLOCK_FN_SLOTS];
	uint64_t text_len;             /* the vDSO mapping's size */
};

/* Slots 1.. get the clock functions first (clock_gettime, gettimeofday,
 * time, clock_getres, getcpu), then the image's other functions by
 * address while slots last; what does not fit counts as "other". */
void clock_fn_table_build(const struct vdso_syms *syms, uint64_t text_len,
			  struct clock_fn_table *t);
/* The slot's name; "other" for slot 0 or an unnamed slot. */
const char *clock_fn_name(const struct clock_fn_table *t, int slot);
/* The slot of a function named name, given the next free one when it is
 * new (a table made from a capture's names); 0 ("other") for NULL,
 * "other" or a full table. */
int clock_fn_slot(struct clock_fn_table *t, const char *name);

/* Syscall names in enum dbt_clock_sys order. */
const char *clock_sys_name(int k);

/* One class or one process over a window. */
struct clock_stats {
	char name[TCLASS_NAME_MAX];
	int map_class;                 /* its class in the window's class_map; -1: none
	                                  (a total, a capture read back) */
	int threads;                   /* threads with a sample or a clock syscall */
	uint64_t samples, user_samples, vdso_samples, sys_samples;
	uint64_t vdso[DBT_CLOCK_FN_SLOTS];
	uint64_t syscalls[DBT_CLOCK_SYS_N];
	/* derived by clock_stats_finish() */
	double vdso_pct;               /* of its samples; NAN without samples */
	double sys_pct;                /* in the kernel inside a clock syscall; NAN likewise */
	int top_fn;                    /* slot with the most vDSO samples; -1: none */
	double reads_per_s;            /* clock_gettime + gettimeofday + time syscalls /s */
	double per_s[DBT_CLOCK_SYS_N];
};

/* One group of processes (as in the sched view: the same class map),
 * named and keyed by its leader. */
struct clock_group_stats {
	int pid;
	int map_group;                 /* its group in the window's class_map; -1: none */
	char comm[16];
	struct clock_stats total;
	struct clock_stats *classes;   /* by vDSO samples, highest first */
	int n_classes;
};

struct clock_interval {
	double dt_s;
	struct clock_group_stats *groups; /* by vDSO + clock-syscall samples, then samples */
	int n_groups;
	/* the family over the window (all CPUs) */
	uint64_t samples, idle_samples, kthread_samples, update_failed;
	uint64_t evictions;            /* threads whose counters the LRU map dropped */
	const char *syscall_method;    /* the snapshot's; rates NAN when "sampled" */
};

/* Whether method counts clock syscalls (NULL: an older capture, which
 * always did). */
bool clock_syscalls_counted(const char *method);

void clock_snapshot_init(struct clock_snapshot *s);
void clock_snapshot_free(struct clock_snapshot *s);
/* Appends a zeroed sample and returns it (NULL on ENOMEM). */
struct clock_thread_sample *clock_snapshot_add(struct clock_snapshot *s);
/* Sorts by tid; call once after filling. */
void clock_snapshot_sort(struct clock_snapshot *s);
const struct clock_thread_sample *clock_snapshot_find(const struct clock_snapshot *s, uint32_t tid);
/* Deep copy into dst (dst's buffer is reused). Returns 0 or -ENOMEM. */
int clock_snapshot_copy(struct clock_snapshot *dst, const struct clock_snapshot *src);

/* Adds the threads with a sample or a clock syscall between prev and cur
 * (the ones a window's interval reports) to the input of a class map.
 * Returns 0 or -ENOMEM. */
int clock_window_threads(const struct clock_snapshot *prev, const struct clock_snapshot *cur,
			 struct class_map_input *in);

/* The window from prev to cur: per-thread deltas (a thread absent from
 * prev, or whose tid now belongs to another process, starts at 0) summed
 * into the groups and classes of map, which holds the window's threads
 * (clock_window_threads(); a thread it does not hold is left out).
 * Threads with neither a sample nor a clock syscall in the window are
 * left out, and so are the processes filter (the sched model's; NULL:
 * all) does not want. A process is named after its threads in the
 * window: the leader's comm, else the lowest tid's. Returns 0 or -ENOMEM. */
int clock_interval_compute(const struct clock_snapshot *prev, const struct clock_snapshot *cur,
			   const struct class_map *map, const struct sched_filter *filter,
			   struct clock_interval *out);
void clock_interval_free(struct clock_interval *iv);

/* Rates and shares from the raw sums over dt_s seconds. */
void clock_stats_finish(struct clock_stats *s, double dt_s);

#endif
