/* Per-CPU model: raw snapshots in, per-interval rows of shares out. Pure:
 * the collectors fill snapshots, the outputs read rows. */
#ifndef DBTRACE_MODEL_CPU_MODEL_H
#define DBTRACE_MODEL_CPU_MODEL_H

#include <stdbool.h>
#include <stdint.h>
#include "dbtrace/softirq.h"
#include "sysinfo/procstat.h"

/* One CPU at one instant. */
struct cpu_sample {
	struct procstat_cpu stat;      /* stat.online: listed in /proc/stat */
	struct dbt_softirq_cpu sirq;   /* BPF counters, when the family runs */
	struct dbt_hist_sampled sirq_wait[DBT_SOFTIRQ_VECS];  /* raise -> entry, ns */
};

struct cpu_snapshot {
	uint64_t mono_ns;              /* CLOCK_MONOTONIC when taken */
	int ncpus;                     /* possible CPUs */
	bool have_sirq;                /* the softirq family attached */
	bool have_stat;                /* /proc/stat could be read */
	struct cpu_sample *cpu;        /* ncpus entries */
};

/* One CPU over one interval (or over the whole capture). */
struct cpu_row {
	int cpu;
	bool valid;                    /* online at both ends: numbers mean something */
	bool have_sirq;                /* softirq numbers measured (else NAN / 0 counts) */
	double usr_pct, sys_pct, iowait_pct, idle_pct, steal_pct;  /* /proc/stat */
	double softirq_pct[DBT_SOFTIRQ_VECS];                      /* BPF, % of wall time */
	double softirq_total_pct;
	double hardirq_pct;
	uint64_t raises[DBT_SOFTIRQ_VECS];
	uint64_t entries[DBT_SOFTIRQ_VECS];
	__u64 wait_hist[DBT_SOFTIRQ_VECS][DBT_HIST_BUCKETS];   /* weighted, ns */
	uint64_t wait_timed[DBT_SOFTIRQ_VECS];                     /* waits really timed */
	double wait_p99_us[DBT_SOFTIRQ_VECS];                      /* NAN: no wait seen */
	double wait_all_p99_us;        /* over every vector's waits together; NAN: none */
	uint64_t unmatched;
};

int cpu_snapshot_alloc(struct cpu_snapshot *s, int ncpus);
void cpu_snapshot_free(struct cpu_snapshot *s);
void cpu_snapshot_copy(struct cpu_snapshot *dst, const struct cpu_snapshot *src);

/* Fills rows[0..cur->ncpus) from the change between two snapshots of the
 * same CPU count. A CPU offline at either end gets valid = false. What a
 * snapshot lacks (no /proc/stat, no softirq family) is NAN: one missing
 * source degrades its columns, not the row. */
void cpu_rows_compute(const struct cpu_snapshot *prev, const struct cpu_snapshot *cur,
		      struct cpu_row *rows);

/* The mean of the valid rows' shares and the sum of their counts and
 * histograms: the "all CPUs" line. Returns the number of valid rows. */
int cpu_rows_total(const struct cpu_row *rows, int n, struct cpu_row *total);

#endif
