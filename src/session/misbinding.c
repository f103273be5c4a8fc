#include "session/misbinding.h"
#include "cli/options.h"
#include "findings/irq_affinity_overlap.h"
#include "sysinfo/irqbalance.h"
#include "sysinfo/proc_scan.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Thread affinities change rarely; re-reading every thread's status of a
 * database with a thousand threads each second would cost more than the
 * rest of the user side. */
#define REFRESH_INTERVALS 10
/* Below a twentieth of a core a process is not "the database under load". */
#define MIN_ONCPU_PCT 5.0

void misbinding_init(struct misbinding *m)
{
	struct dbt_irqbalance ib;

	memset(m, 0, sizeof(*m));
	sodc_config_default(&m->sodc);
	sconc_config_default(&m->sconc);
	m->have_nics = dbt_nic_layout_read(NULL, &m->nics) == 0;
	if (!m->have_nics)
		dbt_nic_layout_free(&m->nics);
	if (!dbt_irqbalance_read(NULL, &ib)) {
		m->irqbalance_running = ib.running;
		m->irqbalance_pid = ib.pid;
	}
}

void misbinding_free(struct misbinding *m)
{
	dbt_nic_layout_free(&m->nics);
	nic_traffic_free(&m->traffic);
	m->n_cache = 0;
}

/* The target's allowed CPUs, from the cache when fresh. NULL when the
 * process is gone. */
static struct misbind_target *target(struct misbinding *m, int pid, int index)
{
	struct misbind_cached *c = NULL;
	struct dbt_task_cpus tc;

	for (int i = 0; i < m->n_cache && !c; i++)
		if (m->cache[i].pid == pid)
			c = &m->cache[i];
	if (c && index - c->read_at < REFRESH_INTERVALS)
		return &c->t;
	if (proc_groups_task_cpus(m->groups, NULL, pid, &tc))
		return NULL;
	if (!c) {
		int at = 0;

		if (m->n_cache < MISBIND_CACHE)
			at = m->n_cache++;
		else	/* full: the oldest read makes room */
			for (int i = 1; i < MISBIND_CACHE; i++)
				if (m->cache[i].read_at < m->cache[at].read_at)
					at = i;
		c = &m->cache[at];
	}
	memset(c, 0, sizeof(*c));
	c->pid = pid;
	c->read_at = index;
	c->t.pid = pid;
	snprintf(c->t.comm, sizeof(c->t.comm), "%s", tc.comm);
	c->t.cpus = tc.allowed;
	c->t.n_threads = tc.n_threads;
	c->t.n_differ = tc.n_differ;
	return &c->t;
}

int misbinding_group_cpus(struct misbinding *m, int pid, int index, struct dbt_cpuset *cpus,
			  unsigned int *n_differ)
{
	const struct misbind_target *t = target(m, pid, index);

	if (!t)
		return -ENOENT;
	*cpus = t->cpus;
	if (n_differ)
		*n_differ = t->n_differ;
	return 0;
}

static double oncpu_of(const struct sched_interval *si, int pid)
{
	for (int i = 0; si && i < si->n_groups; i++)
		if (si->groups[i].pid == pid)
			return si->groups[i].total.oncpu_pct;
	return NAN;
}

int misbinding_pick(const struct sched_interval *si, const int *pids, int n_pids, int self,
		    int *out, int max)
{
	int n = 0;

	if (n_pids) {
		for (int i = 0; i < n_pids && n < max; i++)
			out[n++] = pids[i];
		return n;
	}
	/* procs come busiest first */
	for (int i = 0; si && i < si->n_groups && n < max && n < MISBIND_TARGETS; i++) {
		const struct sched_group_stats *p = &si->groups[i];

		if (p->pid != self && p->total.oncpu_pct >= MIN_ONCPU_PCT)
			out[n++] = p->pid;
	}
	return n;
}

int misbinding_judge(struct misbinding *m, const struct cpu_row *rows, int n_rows,
		     const struct sched_interval *si, const struct net_interval *ni,
		     const int *pids, int n_pids, int index, struct finding_list *out)
{
	struct misbind_target targets[DBT_MAX_PIDS];
	struct misbind_host host = {
		.nics = m->have_nics ? &m->nics : NULL,
		.irqbalance_running = m->irqbalance_running,
		.irqbalance_pid = m->irqbalance_pid,
		.traffic = &m->traffic,
	};
	int picked[DBT_MAX_PIDS];
	int n = 0, n_picked, err = 0;

	if (m->have_nics && nic_traffic_update(&m->traffic, &m->nics, ni))
		return -ENOMEM;

	dbt_cpuset_zero(&host.online);
	for (int i = 0; i < n_rows; i++)
		if (rows[i].valid && rows[i].cpu >= 0)
			dbt_cpuset_set(&host.online, (unsigned int)rows[i].cpu);
	n_picked = misbinding_pick(si, pids, n_pids, (int)getpid(), picked, DBT_MAX_PIDS);
	for (int i = 0; i < n_picked; i++) {
		struct misbind_target *t = target(m, picked[i], index);

		if (t)   /* NULL: the process is gone */
			targets[n++] = *t;
	}
	for (int i = 0; i < n; i++)
		targets[i].oncpu_pct = oncpu_of(si, targets[i].pid);
	for (int i = 0; !err && i < n; i++) {
		err = softirq_on_db_cores_check(rows, n_rows, &targets[i], &host, &m->sodc, index, out);
		if (!err)
			err = irq_affinity_overlap_check(&targets[i], &host, index, out);
	}
	if (!err)
		err = softirq_concentration_check(rows, n_rows, targets, n, &host, &m->sconc, index, out);
	return err;
}
