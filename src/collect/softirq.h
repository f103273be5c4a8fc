/* softirq family collector: loads bpf/softirq.bpf.c through the attach
 * plan and copies its per-CPU counters into snapshots. */
#ifndef DBTRACE_COLLECT_SOFTIRQ_H
#define DBTRACE_COLLECT_SOFTIRQ_H

#include <stdint.h>
#include "core/bpf_plan.h"
#include "model/cpu_model.h"
#include "model/sched_model.h"

struct softirq_collector {
	struct plan_handle h;
	int stats_fd;
	struct dbt_softirq_cpu *buf;   /* one value per possible CPU */
	int ncpus;
	int charge_fd;
	uint32_t keys[256];            /* one chunk of the charge map */
	struct dbt_softirq_charge charges[256];
};

int softirq_collector_open(struct softirq_collector *c, struct probe_report *rep);
/* Copies every CPU's counters into snap->cpu[].sirq. */
int softirq_collector_read(struct softirq_collector *c, struct cpu_snapshot *snap);
/* Adds the softirq time charged to each thread to the sched snapshot's
 * samples (threads the sched family has not seen are skipped). */
int softirq_collector_charge(struct softirq_collector *c, struct sched_snapshot *snap);
uint64_t softirq_collector_lost(const struct softirq_collector *c);
void softirq_collector_close(struct softirq_collector *c);

#endif
