/* All probe families together: opened once, read once per interval. A
 * family that cannot attach is reported and left out; the others run. */
#ifndef DBTRACE_COLLECT_COLLECTORS_H
#define DBTRACE_COLLECT_COLLECTORS_H

#include <stdbool.h>
#include "collect/clock.h"
#include "collect/loss.h"
#include "collect/net.h"
#include "collect/sched.h"
#include "collect/softirq.h"
#include "core/family.h"
#include "model/bpf_cost.h"
#include "model/cpu_model.h"
#include "model/world_snapshot.h"
#include "sysinfo/procstat.h"

/* What the collectors need of the user's choices. */
struct collect_config {
	unsigned int families;         /* bit per enum dbt_family; 0 = all */
	unsigned int sample_hz;        /* clock: CPU-clock samples/s per CPU; 0 = default */
	bool count_clock_syscalls;     /* clock: syscall tracepoints allowed (every syscall pays) */
	const char *attach[FAM_COUNT]; /* --attach: the one path to try per family; NULL: the plan's order */
	const char *btf_path;          /* --btf: the BTF to relocate against; NULL: the kernel's */
	uint32_t netns_inum;           /* --netns: the net family's one namespace; 0: all */
	const char *netns_path;        /* its file */
};

struct collectors {
	int ncpus;                                 /* possible CPUs */
	struct procstat_cpu *stat_buf;             /* /proc/stat, ncpus entries */
	struct softirq_collector softirq;
	struct sched_collector sched;
	struct clock_collector clock;
	struct net_collector net;
	struct loss_collector loss;
	bool on[FAM_COUNT];
	struct probe_report reports[FAM_COUNT];
	struct bpf_features kernel;                /* what the kernel allows, for every plan */
};

/* Opens every family with cc's settings (NULL: defaults). Returns the
 * number of families that failed to attach (0 when all did), or a
 * negative errno for a fatal error. */
int collectors_open(struct collectors *c, const struct collect_config *cc);

/* Fills w (allocated for c->ncpus) from /proc/stat and the maps. */
int collectors_snapshot(struct collectors *c, struct world_snapshot *w);

/* Events lost so far, over all families. */
uint64_t collectors_lost(const struct collectors *c);

/* Every loaded family's programs' run time and runs so far (the kernel's
 * counters, which grow only while its run-time statistics are on), into
 * at->fam; at->fam_on says which families have programs. */
void collectors_bpf_runs(const struct collectors *c, struct bpf_cost *at);

void collectors_close(struct collectors *c);

#endif
