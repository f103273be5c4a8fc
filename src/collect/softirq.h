/* softirq family collector: loads bpf/softirq.bpf.c through the attach
 * plan and copies its per-CPU counters into snapshots. */
#ifndef DBTRACE_COLLECT_SOFTIRQ_H
#define DBTRACE_COLLECT_SOFTIRQ_H

#include <stdint.h>
#include "core/bpf_plan.h"
#include "model/cpu_model.h"

struct softirq_collector {
	struct plan_handle h;
	int stats_fd, wait_fd;
	struct dbt_softirq_cpu *buf;   /* one value per possible CPU */
	struct dbt_softirq_wait *wbuf; /* one value per possible CPU */
	int ncpus;
	int pending_fd;                /* sirq_pending, for the sched family to share */
};

int softirq_collector_open(struct softirq_collector *c, struct probe_report *rep,
			   struct bpf_features *kernel);
/* Copies every CPU's counters into snap->cpu[].sirq. */
int softirq_collector_read(struct softirq_collector *c, struct cpu_snapshot *snap);
uint64_t softirq_collector_lost(const struct softirq_collector *c);
void softirq_collector_close(struct softirq_collector *c);

#endif
