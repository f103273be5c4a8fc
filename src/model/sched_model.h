/* Scheduler model: per-thread samples in, per-class and per-process rates
 * per interval out, plus a whole-capture summary. Pure: no I/O. */
#ifndef DBTRACE_MODEL_SCHED_MODEL_H
#define DBTRACE_MODEL_SCHED_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "dbtrace/hist.h"
#include "dbtrace/sched.h"
#include "model/class_map.h"
#include "model/class_time.h"
#include "model/thread_class.h"

/* One thread at one snapshot: cumulative counters. Kept small: two
 * snapshots of 64k threads must fit the memory budget. */
struct sched_thread_sample {
	uint32_t tid, pid;
	char comm[16];
	char pcomm[16];                /* the process's comm */
	bool exited;
	uint64_t oncpu_ns;             /* includes the run in progress */
	uint64_t runq_ns, vol, invol, migrations;
	/* softirq time charged to it (softirq family; part of oncpu_ns) */
	uint64_t sirq_ns, net_sirq_ns;
	/* the kernel's on-CPU total when dbtrace first saw it (0: born
	 * since): /proc's running total minus this is oncpu_ns */
	uint64_t base_oncpu_ns;
	uint64_t utime_ns, stime_ns;   /* the kernel's user/system ticks (model/class_time.h) */
	struct class_time_blk blk;     /* blocked time by reason (model/class_time.h) */
};

/* A cumulative histogram of one (process, thread name), of one kind:
 * its threads' run-queue delay, or their futex waits (the kernel keeps
 * both per name, not per thread: struct dbt_sched_runq_hist). */
struct sched_name_hist {
	uint32_t pid;
	uint32_t kind;                 /* enum dbt_sched_hist_kind */
	char comm[16];
	uint64_t born_ns;              /* another value: a new entry, counted from zero */
	__u32 buckets[DBT_HIST_BUCKETS];
};

struct sched_snapshot {
	uint64_t mono_ns;
	struct sched_thread_sample *t; /* sorted by tid */
	int n;
	size_t cap;
	struct sched_name_hist *hists; /* sorted by (pid, comm, kind) */
	int n_hists;
	size_t cap_hists;
	/* what the kernel recorded per thread during the interval ending at
	 * this snapshot, parallel to t (NULL: none). Borrowed from the
	 * collector and valid for the newest snapshot only: the model reads
	 * it from the current snapshot, never the previous one. */
	const struct dbt_sched_ival *ival;
	uint64_t evictions;            /* threads the LRU map dropped, so far */
	uint64_t lost;                 /* map updates that failed, so far */
};

/* One class (or a whole process) over one interval or the whole capture. */
struct sched_class_stats {
	char name[TCLASS_NAME_MAX];
	int map_class;                 /* its class in the interval's class_map; -1: none
	                                  (a total, a summary, a capture read back) */
	int threads;                   /* threads seen in the window */
	double oncpu_pct;              /* 100 = one core */
	double vol_per_s, invol_per_s, migrations_per_s;
	double runq_p50_us, runq_p99_us, runq_max_us;   /* NAN: no wait seen */
	double runnable_avg;           /* mean threads running or waiting to run */
	double softirq_lost_pct;       /* of its on-CPU time, spent in softirqs that interrupted it */
	double net_softirq_lost_pct;   /* the NET_RX + NET_TX part of that */
	double vdso_pct;               /* clock family's share of its samples in the vDSO; NAN: none */
	/* raw sums, kept for the summary and the findings */
	uint64_t oncpu_ns, runq_ns, vol, invol, migrations, runq_max_ns;
	uint64_t sirq_ns, net_sirq_ns;
	/* run-queue delay, DBT_HIST_BUCKETS counts in ns (dbtrace/hist.h);
	 * NULL: no wait seen. Out of line, 8 KB only where a class waited:
	 * inline it made every class, summary row and copy 8 KB. Owned by
	 * the interval or summary that holds the stats (freed with it). */
	__u64 *runq_hist;
	__u64 *futex_hist;             /* futex wait (the budget's), the same way */
	uint64_t cpus[DBT_SCHED_CPU_WORDS];
	bool cpus_beyond;
	int allowed_cpus;              /* filled by the caller (I/O); 0: unknown */
	struct class_time time;        /* the wall-time budget */
};

/* One group of processes (model/proc_group.h; one process unless
 * grouped), named and keyed by its leader. */
struct sched_group_stats {
	int pid;                       /* the leader's */
	int n_procs;                   /* processes in the group this interval; 0: unknown (read back) */
	int map_group;                 /* its group in the interval's class_map; -1: none */
	char comm[16];
	char cpus_allowed[128];        /* cpulist, filled by the caller (I/O); "" unknown */
	struct sched_class_stats total;
	struct sched_class_stats *classes;
	int n_classes;
	size_t classes_cap;            /* the summary grows classes; 0: sized once */
};

struct sched_interval {
	double dt_s;
	struct sched_group_stats *groups;  /* sorted by on-CPU time, highest first */
	int n_groups;
};

/* Which groups to report: those holding one of pids (all when n_pids == 0
 * and !by_pids: --cgroup may select none) and led by a process of comm. */
struct sched_filter {
	const int *pids;
	int n_pids;
	const char *comm;              /* process comm, exact */
	bool by_pids;
};

void sched_snapshot_init(struct sched_snapshot *s);
void sched_snapshot_free(struct sched_snapshot *s);
/* Appends a zeroed sample and returns it (NULL on ENOMEM). */
struct sched_thread_sample *sched_snapshot_add(struct sched_snapshot *s);
/* Appends a zeroed name histogram and returns it (NULL on ENOMEM). */
struct sched_name_hist *sched_snapshot_add_name_hist(struct sched_snapshot *s);
/* After sched_snapshot_sort(): drops the name histograms of a (pid,
 * name) no thread of s has any more (exited, renamed), whose waits no
 * class would take, calling gone(ctx, h) for each before it goes (the
 * collector deletes its entry from the kernel's map, so that the map
 * holds live threads' histograms, not the last names ever seen).
 * Returns how many went, or -ENOMEM. */
int sched_snapshot_prune_name_hists(struct sched_snapshot *s,
				    void (*gone)(void *ctx, const struct sched_name_hist *h), void *ctx);
/* Sorts by tid, keeping one sample per tid, and the name histograms by
 * (pid, comm, kind); call once after filling. A
 * thread can be read twice (the sched collector reads task storage and
 * then a map, and a thread dying in between is in both): the one kept is
 * its final one (exited), else the one further along. */
void sched_snapshot_sort(struct sched_snapshot *s);
const struct sched_thread_sample *sched_snapshot_find(const struct sched_snapshot *s, uint32_t tid);
/* Index of tid in s->t, or -1. */
int sched_snapshot_index(const struct sched_snapshot *s, uint32_t tid);
/* Adds s's threads to the input of a class map. Returns 0 or -ENOMEM. */
int sched_snapshot_threads(const struct sched_snapshot *s, struct class_map_input *in);

/* Computes the interval between two snapshots: per-thread deltas summed
 * into the groups and classes of map, which holds cur's threads (a thread
 * it does not hold is left out). A name histogram goes to the class of a
 * thread of cur with its pid and name; with none (all its threads gone)
 * its waits still count in runq_ns but not in the percentiles. Classes
 * with no activity in the interval are left out, and so are groups with
 * none. */
int sched_interval_compute(const struct sched_snapshot *prev, const struct sched_snapshot *cur,
			   const struct class_map *map, const struct sched_filter *filter,
			   struct sched_interval *out);
void sched_interval_free(struct sched_interval *iv);
/* Deep copy (dst is overwritten, not freed first). */
int sched_interval_copy(struct sched_interval *dst, const struct sched_interval *src);

/* Derived rates from the raw sums over dt_s seconds. */
void sched_class_finish(struct sched_class_stats *c, double dt_s);

/* Whole-capture summary: the sum of the intervals per (pid, class). */
struct sched_summary {
	struct sched_group_stats *groups;
	int n_groups;
	size_t cap;
	double seconds;
};

int sched_summary_add(struct sched_summary *s, const struct sched_interval *iv);
/* Rates over the summed time, processes sorted by on-CPU time. */
void sched_summary_finish(struct sched_summary *s);
void sched_summary_free(struct sched_summary *s);

/* "0-3,8" from a ran-on mask. */
void sched_cpus_format(const uint64_t *cpus, bool beyond, char *buf, size_t len);

#endif
