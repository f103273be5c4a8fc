/* What dbtrace's own BPF programs cost the machine: their run time and
 * runs as the kernel counts them (bpf_prog_info run_time_ns, run_cnt),
 * over the windows in which those statistics were on. The kernel charges
 * this time to whatever task was running, so no /proc figure of dbtrace's
 * process holds it. Pure. */
#ifndef DBTRACE_MODEL_BPF_COST_H
#define DBTRACE_MODEL_BPF_COST_H

#include <stdbool.h>
#include <stdint.h>
#include "core/family.h"

/* A family's programs together. */
struct bpf_runs {
	uint64_t run_ns, runs;
};

/* The measured windows of an interval or a whole run. */
struct bpf_cost {
	uint64_t on_ns;                /* how long the statistics were on: the windows */
	struct bpf_runs fam[FAM_COUNT];   /* runs and run time inside them */
	bool fam_on[FAM_COUNT];        /* the family's programs were loaded */
};

/* One row of the capture's overhead.bpf: a family, or all of them. */
struct bpf_cost_row {
	int family;                    /* enum dbt_family; FAM_COUNT: all families */
	double cpu_pct;                /* run time per wall time of the windows, % of one CPU */
	double ns_per_event;           /* run time per run; NAN without runs */
	double events_per_s;           /* runs per second of the windows */
	uint64_t run_ns, runs;         /* inside the windows */
};

/* to += c (windows one after the other). */
void bpf_cost_add(struct bpf_cost *to, const struct bpf_cost *c);

/* The run time and runs counted between two reads of the programs'
 * counters, a before b (a counter that went back, a program reloaded,
 * adds nothing). */
struct bpf_runs bpf_runs_delta(const struct bpf_runs *a, const struct bpf_runs *b);

/* The row of family f (FAM_COUNT: all loaded families together); its
 * numbers NAN when the statistics were never on. */
struct bpf_cost_row bpf_cost_row(const struct bpf_cost *c, int f);

/* Whether any window was measured. */
bool bpf_cost_measured(const struct bpf_cost *c);

#endif
