/* The sched family's rows: one thread class, and one group of processes
 * with its classes, over an interval or a whole capture: the raw sums
 * and the rates and percentiles derived from them. Pure. */
#ifndef DBTRACE_MODEL_SCHED_STATS_H
#define DBTRACE_MODEL_SCHED_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "dbtrace/hist.h"
#include "dbtrace/sched.h"
#include "model/class_time.h"
#include "model/thread_class.h"

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
	double runq_wait_pct;          /* of that, the share waiting; NAN: never runnable */
	double softirq_lost_pct;       /* of its on-CPU time, spent in softirqs that interrupted it */
	double net_softirq_lost_pct;   /* the NET_RX + NET_TX part of that */
	double vdso_pct;               /* clock family's share of its samples in the vDSO; NAN: none
	                                  (the tick's join sets it: session/tick_join.h) */
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
	int allowed_cpus;              /* the tick's join sets it (from /proc); 0: unknown */
	struct class_time time;        /* the wall-time budget */
};

/* One group of processes (model/proc_group.h; one process unless
 * grouped), named and keyed by its leader. */
struct sched_group_stats {
	int pid;                       /* the leader's */
	int n_procs;                   /* processes in the group this interval; 0: unknown (read back) */
	int map_group;                 /* its group in the interval's class_map; -1: none */
	char comm[16];
	char cpus_allowed[128];        /* cpulist, set by the tick's join (from /proc); "" unknown */
	struct sched_class_stats total;
	struct sched_class_stats *classes;
	int n_classes;
	size_t classes_cap;            /* the summary grows classes; 0: sized once */
};

/* Derived rates from the raw sums over dt_s seconds. */
void sched_class_finish(struct sched_class_stats *c, double dt_s);
/* The figures made from the row's other figures rather than from its
 * raw sums, so that rows with none (the views' "other" row, folded from
 * classes read back from a capture) have them too. sched_class_finish()
 * calls it. */
void sched_class_derive(struct sched_class_stats *c);
/* Adds b's raw sums (and histograms) into a. Returns 0 or -ENOMEM. */
int sched_class_add(struct sched_class_stats *a, const struct sched_class_stats *b);
/* *dst += src (DBT_HIST_BUCKETS counts; none when src is NULL), *dst
 * made on first need. Returns 0 or -ENOMEM. */
int sched_hist_merge(__u64 **dst, const __u64 *src);
/* Frees the histograms a class owns, and a group's classes. */
void sched_class_free(struct sched_class_stats *c);
void sched_group_free(struct sched_group_stats *g);

/* qsort orders: classes by on-CPU time, highest first, then by name;
 * groups by their total's on-CPU time, then by pid. */
int sched_class_by_oncpu(const void *a, const void *b);
int sched_group_by_oncpu(const void *a, const void *b);

/* "0-3,8" from a ran-on mask ("+" at the end: CPUs above the mask). */
void sched_cpus_format(const uint64_t *cpus, bool beyond, char *buf, size_t len);
/* The mask back from that text; a list that does not parse leaves cpus
 * as it was. */
void sched_cpus_parse(const char *text, uint64_t *cpus, bool *beyond);

#endif
