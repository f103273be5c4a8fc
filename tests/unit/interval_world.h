/* A hand-made interval for the tests of what consumes intervals
 * (the exporter's totals and its text format): two online CPUs, room for
 * a few processes, ports, devices and findings. Test code, header only. */
#ifndef DBTRACE_TESTS_INTERVAL_WORLD_H
#define DBTRACE_TESTS_INTERVAL_WORLD_H

#include <stdio.h>
#include <string.h>
#include "findings/finding.h"
#include "session/interval.h"

struct world {
	struct cpu_row rows[3];
	struct sched_group_stats procs[8];
	struct sched_class_stats classes[8];
	__u64 runq[8][DBT_HIST_BUCKETS];   /* the classes' run-queue histograms */
	struct net_port_stats ports[4];
	struct net_dev_stats devs[4];
	struct finding items[4];
	struct finding_list findings;
	struct interval iv;            /* its sched and net parts point into the arrays above */
};

/* Two online CPUs with softirq numbers, no load. */
static inline void world_init(struct world *w, double dt)
{
	memset(w, 0, sizeof(*w));
	for (int c = 0; c < 2; c++) {
		w->rows[c].cpu = c;
		w->rows[c].valid = true;
		w->rows[c].have_sirq = true;
	}
	w->iv.sched.dt_s = dt;
	w->iv.sched.groups = w->procs;
	w->iv.have_sched = true;
	w->iv.net.dt_s = dt;
	w->iv.net.ports = w->ports;
	w->iv.net.devs = w->devs;
	w->iv.have_net = true;
	w->findings.items = w->items;
	w->iv.dt_s = dt;
	w->iv.ncpus = 2;
	w->iv.rows = w->rows;
}

/* One process with one class of the same name. */
static inline struct sched_class_stats *add_class(struct world *w, int pid, const char *comm, double oncpu_s)
{
	int i = w->iv.sched.n_groups++;
	struct sched_group_stats *p = &w->procs[i];
	struct sched_class_stats *c = &w->classes[i];

	p->pid = pid;
	snprintf(p->comm, sizeof(p->comm), "%s", comm);
	snprintf(c->name, sizeof(c->name), "%s", comm);
	c->threads = 1;
	c->oncpu_ns = (uint64_t)(oncpu_s * 1e9);
	c->runq_hist = w->runq[i];
	p->classes = c;
	p->n_classes = 1;
	return c;
}

#endif
