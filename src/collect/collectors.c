#include "collect/collectors.h"
#include "core/bpf_percpu.h"
#include "core/loop_fds.h"
#include "sysinfo/procstat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int collectors_open(struct collectors *c, const struct collect_config *cc)
{
	int failed = 0;

	memset(c, 0, sizeof(*c));
	bpf_features_init(&c->kernel, cc ? cc->btf_path : NULL);
	c->ncpus = percpu_ncpus();
	if (c->ncpus <= 0)
		return c->ncpus ? c->ncpus : -EINVAL;
	c->stat_buf = calloc((size_t)c->ncpus, sizeof(*c->stat_buf));
	if (!c->stat_buf)
		return -ENOMEM;

	/* named before any open: a family that fails before its attach plan
	 * runs must still show up, by name, in probes and the capture */
	for (int f = 0; f < FAM_COUNT; f++) {
		snprintf(c->reports[f].family, sizeof(c->reports[f].family), "%s", dbt_family_names[f]);
		c->reports[f].disabled = cc && cc->families && !(cc->families & (1u << f));
		if (cc && cc->attach[f])
			snprintf(c->reports[f].forced, sizeof(c->reports[f].forced), "%s", cc->attach[f]);
	}
	if (!c->reports[FAM_SOFTIRQ].disabled)
		c->on[FAM_SOFTIRQ] = !softirq_collector_open(&c->softirq, &c->reports[FAM_SOFTIRQ], &c->kernel);
	if (!c->reports[FAM_SCHED].disabled)
		c->on[FAM_SCHED] = !sched_collector_open(&c->sched, &c->reports[FAM_SCHED],
							 c->on[FAM_SOFTIRQ] ? c->softirq.pending_fd : -1,
							 &c->kernel);
	if (!c->reports[FAM_CLOCK].disabled)
		c->on[FAM_CLOCK] = !clock_collector_open(&c->clock, cc ? cc->sample_hz : 0, cc && cc->count_clock_syscalls,
							 &c->reports[FAM_CLOCK], &c->kernel);
	if (!c->reports[FAM_NET].disabled)
		c->on[FAM_NET] = !net_collector_open(&c->net, &c->reports[FAM_NET], &c->kernel,
						     cc ? cc->netns_inum : 0, cc ? cc->netns_path : NULL);
	if (!c->reports[FAM_LOSS].disabled)
		c->on[FAM_LOSS] = !loss_collector_open(&c->loss, &c->reports[FAM_LOSS], &c->kernel);
	/* the plans are done: the parsed BTF would stay in dbtrace's RSS */
	bpf_features_free(&c->kernel);
	for (int f = 0; f < FAM_COUNT; f++) {
		/* the plan wipes the report: keep what --families said */
		snprintf(c->reports[f].family, sizeof(c->reports[f].family), "%s", dbt_family_names[f]);
		c->reports[f].disabled = cc && cc->families && !(cc->families & (1u << f));
		failed += !c->on[f] && !c->reports[f].disabled;
	}
	return failed;
}

int collectors_snapshot(struct collectors *c, struct world_snapshot *w)
{
	struct cpu_snapshot *snap = &w->cpu;
	int err;

	/* the map first, then /proc/stat: both within microseconds */
	snap->mono_ns = mono_ns();
	snap->have_sirq = c->on[FAM_SOFTIRQ];
	if (snap->have_sirq) {
		err = softirq_collector_read(&c->softirq, snap);
		if (err)
			return err;
	}
	/* an unreadable /proc/stat costs the usr/sys/idle columns, not the run */
	snap->have_stat = procstat_read(NULL, c->stat_buf, snap->ncpus) > 0;
	for (int cpu = 0; cpu < snap->ncpus; cpu++)
		snap->cpu[cpu].stat = c->stat_buf[cpu];
	w->have_sched = c->on[FAM_SCHED];
	if (w->have_sched) {
		err = sched_collector_read(&c->sched, &w->sched);
		if (err)
			return err;
	}
	w->have_clock = c->on[FAM_CLOCK];
	if (w->have_clock) {
		err = clock_collector_read(&c->clock, &w->clock);
		if (err)
			return err;
	}
	w->have_net = c->on[FAM_NET];
	if (w->have_net) {
		err = net_collector_read(&c->net, &w->net);
		if (err)
			return err;
	}
	w->have_loss = c->on[FAM_LOSS];
	if (w->have_loss) {
		err = loss_collector_read(&c->loss, &w->loss);
		if (err)
			return err;
	}
	return 0;
}

uint64_t collectors_lost(const struct collectors *c)
{
	uint64_t lost = 0;

	if (c->on[FAM_SOFTIRQ])
		lost += softirq_collector_lost(&c->softirq);
	if (c->on[FAM_SCHED])
		lost += sched_collector_lost(&c->sched);
	if (c->on[FAM_CLOCK])
		lost += clock_collector_lost(&c->clock);
	if (c->on[FAM_NET])
		lost += net_collector_lost(&c->net);
	if (c->on[FAM_LOSS])
		lost += loss_collector_lost(&c->loss);
	return lost;
}

/* The attach plan of family f, NULL for none. */
static const struct plan_handle *family_plan(const struct collectors *c, int f)
{
	switch (f) {
	case FAM_SOFTIRQ: return &c->softirq.h;
	case FAM_SCHED: return &c->sched.h;
	case FAM_CLOCK: return &c->clock.h;
	case FAM_NET: return &c->net.h;
	case FAM_LOSS: return &c->loss.h;
	default: return NULL;
	}
}

void collectors_bpf_runs(const struct collectors *c, struct bpf_cost *at)
{
	for (int f = 0; f < FAM_COUNT; f++) {
		const struct plan_handle *h = family_plan(c, f);

		at->fam_on[f] = c->on[f] && h;
		at->fam[f].run_ns = at->fam[f].runs = 0;
		if (at->fam_on[f])
			plan_run_time(h, &at->fam[f].run_ns, &at->fam[f].runs);
	}
}

void collectors_close(struct collectors *c)
{
	if (c->on[FAM_SOFTIRQ])
		softirq_collector_close(&c->softirq);
	if (c->on[FAM_SCHED])
		sched_collector_close(&c->sched);
	if (c->on[FAM_CLOCK])
		clock_collector_close(&c->clock);
	if (c->on[FAM_NET])
		net_collector_close(&c->net);
	if (c->on[FAM_LOSS])
		loss_collector_close(&c->loss);
	memset(c->on, 0, sizeof(c->on));
	bpf_features_free(&c->kernel);
	free(c->stat_buf);
	c->stat_buf = NULL;
}
