/* The sched family at one instant: each thread's cumulative counters,
 * and the name histograms (run-queue delay and futex waits per process
 * and thread name), as the collector read them. Pure: filled by
 * src/collect/sched.c, read by the interval (model/sched_interval.h). */
#ifndef DBTRACE_MODEL_SCHED_SNAPSHOT_H
#define DBTRACE_MODEL_SCHED_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "dbtrace/hist.h"
#include "dbtrace/sched.h"
#include "model/class_map.h"
#include "model/class_time.h"

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
/* After sched_snapshot_sort(): s's name histogram of key's (pid, comm,
 * kind), or NULL. */
const struct sched_name_hist *sched_snapshot_find_name_hist(const struct sched_snapshot *s,
							     const struct sched_name_hist *key);
/* The order of (pid, thread name) keys: negative, 0 or positive. */
int sched_name_cmp(uint32_t pid_a, const char *comm_a, uint32_t pid_b, const char *comm_b);

#endif
