#include "session/judge.h"
#include "session/class_cpus.h"
#include "session/class_port.h"
#include "sysinfo/proc_status.h"

#include <stdio.h>
#include <string.h>

/* Enough for the busiest processes of any real host; the capture lists
 * as many (CAPTURE_MAX_PROCS). */
#define JUDGED_PROCS 64

void judge_init(struct judge *j, const struct dbt_config *cfg, bool read_clock_env)
{
	memset(j, 0, sizeof(*j));
	oversub_config_default(&j->oversub);
	if (cfg->runq_p99_us > 0)
		j->oversub.runq_p99_us = cfg->runq_p99_us;
	gtod_config_default(&j->gtod);
	j->gtod.vdso_pct = cfg->clock_vdso_pct;
	j->gtod.syscalls_per_s = cfg->clock_syscalls_per_s;
	if (read_clock_env)
		clock_env_read(NULL, &j->clock_env);
	txq_config_default(&j->txq);
	linksat_config_default(&j->linksat);
	bimodal_config_default(&j->bimodal);
	rto_config_default(&j->rto);
	drops_config_default(&j->drops);
	acceptq_config_default(&j->acceptq);
	softnet_config_default(&j->softnet);
	lockc_config_default(&j->lockc);
	if (cfg->futex_pct > 0)
		j->lockc.futex_pct = cfg->futex_pct;
	iobound_config_default(&j->iobound);
	if (cfg->disk_pct > 0)
		j->iobound.disk_pct = cfg->disk_pct;
	netwait_config_default(&j->netwait);
	if (cfg->net_wait_pct > 0)
		j->netwait.net_pct = cfg->net_wait_pct;
	misbinding_init(&j->mis);
	for (int i = 0; i < cfg->n_pids && i < DBT_MAX_PIDS; i++)
		j->pids[j->n_pids++] = (int)cfg->pids[i];
}

void judge_free(struct judge *j)
{
	misbinding_free(&j->mis);
	linksat_state_free(&j->linksat_runs);
	findings_free(&j->now);
}

/* The CPUs each reported group may use (the union over its processes:
 * a PostgreSQL's backends, not its postmaster alone), and each class
 * oversubscription could name, the union over its own threads
 * (session/class_cpus.h): the one piece of I/O the findings need, done
 * here so the model and the rules stay pure. */
static void fill_allowed_cpus(struct judge *j, struct sched_interval *si,
			      const struct class_map *classes, int index)
{
	/* processes come busiest first: the rest are neither shown nor judged */
	for (int i = 0; i < si->n_groups && i < JUDGED_PROCS; i++) {
		struct sched_group_stats *p = &si->groups[i];
		struct dbt_cpuset set;
		unsigned int differ = 0;
		int n = 0;

		if (!misbinding_group_cpus(&j->mis, p->pid, index, &set, &differ)) {
			n = (int)dbt_cpuset_count(&set);
			if (dbt_cpuset_format_list(&set, p->cpus_allowed, sizeof(p->cpus_allowed)) < 0)
				p->cpus_allowed[0] = 0;
		}
		p->total.allowed_cpus = n;
		for (int k = 0; k < p->n_classes; k++) {
			struct sched_class_stats *c = &p->classes[k];

			c->allowed_cpus = n;
			/* every thread of the group on one set: the class's is it,
			 * without reading its threads again */
			if (n && differ && oversubscription_candidate(c, &j->oversub) &&
			    class_cpus_allowed("", classes, c->map_class, &set) > 0)
				c->allowed_cpus = (int)dbt_cpuset_count(&set);
		}
	}
}

/* The net family's rules over one window. */
static int judge_net(struct judge *j, const struct net_interval *ni, int index)
{
	int err = tx_queueing_check(ni, &j->txq, index, &j->now);

	if (!err)
		err = link_saturated_check(ni, &j->linksat, &j->linksat_runs, index, &j->now);
	if (!err)
		err = bimodal_response_check(ni, &j->bimodal, index, &j->now);
	return err;
}

/* The loss family's rules; retransmit timeouts also join the
 * bimodal_response finding of their port, judged just before. */
static int judge_loss(struct judge *j, const struct tick *t, int index)
{
	int err = 0;

	if (t->have_net)
		err = retransmit_timeouts_check(&t->net, &j->rto, &j->bimodal, index, &j->now);
	if (!err)
		err = packet_drops_check(&t->loss, &j->drops, index, &j->now);
	if (!err)
		err = accept_queue_overflow_check(&t->loss, &j->acceptq, index, &j->now);
	if (!err)
		err = softnet_backlog_drops_check(&t->loss, &j->softnet, index, &j->now);
	if (!err)
		retransmit_timeouts_join(&j->now);
	return err;
}

#define JUDGE_SERVES_KEEP 10

/* What serves_port() needs: the judge's kept answers and the judged
 * tick's class map (which processes a class spans). */
struct serves_ctx {
	struct judge *j;
	const struct class_map *classes;
};

/* netwait_serves_fn over /proc, with the answers kept a while: a class
 * that fires does so interval after interval. */
static int serves_port(const struct sched_group_stats *p, const struct sched_class_stats *c,
		       uint16_t port, void *arg)
{
	const struct serves_ctx *ctx = arg;
	struct judge *j = ctx->j;
	struct judge_serves *s = NULL;
	int n = (int)(sizeof(j->serves) / sizeof(j->serves[0]));

	for (int i = 0; i < j->n_serves; i++)
		if (j->serves[i].pid == p->pid && j->serves[i].port == port &&
		    !strcmp(j->serves[i].cls, c->name))
			s = &j->serves[i];
	if (!s && j->n_serves < n)
		s = &j->serves[j->n_serves++];
	if (!s)   /* full: the oldest answer makes room */
		for (int i = 0; i < n; i++)
			if (!s || j->serves[i].read_at < s->read_at)
				s = &j->serves[i];
	if (s->pid != p->pid || s->port != port || strcmp(s->cls, c->name) ||
	    j->index - s->read_at >= JUDGE_SERVES_KEEP) {
		s->pid = p->pid;
		s->port = port;
		snprintf(s->cls, sizeof(s->cls), "%s", c->name);
		s->answer = class_serves_port("", ctx->classes, p, c, port);
		s->read_at = j->index;
	}
	return s->answer;
}

int judge_tick(struct judge *j, struct tick *t, const struct cpu_row *rows, int ncpus,
	       const struct clock_fn_table *fns, int index, struct finding_list *run)
{
	struct sched_interval *si = t->have_sched ? &t->sched : NULL;
	int err = 0;

	findings_clear(&j->now);
	j->index = index;
	if (si) {
		fill_allowed_cpus(j, si, &t->classes, index);
		err = oversubscription_check(si, &j->oversub, index, &j->now);
		if (!err)
			err = lock_contention_check(si, &j->lockc, index, &j->now);
		if (!err)
			err = io_bound_check(si, &j->iobound, index, &j->now);
		if (!err && t->have_net) {
			struct serves_ctx ctx = { j, &t->classes };

			err = net_wait_dominant_check(si, &t->net, &j->netwait, serves_port, &ctx, index,
						      &j->now);
		}
	}
	if (!err && t->have_clock)
		err = gettimeofday_hotspot_check(&t->clock, fns, &j->clock_env, &j->gtod, index,
						 &j->now);
	if (!err)
		err = misbinding_judge(&j->mis, rows, ncpus, si, t->have_net ? &t->net : NULL, j->pids,
				       j->n_pids, index, &j->now);
	if (!err && t->have_net)
		err = judge_net(j, &t->net, index);
	if (!err && t->have_loss)
		err = judge_loss(j, t, index);
	for (int i = 0; !err && i < j->now.n; i++)
		err = findings_merge(run, &j->now.items[i]);
	return err;
}

int judge_clock_run(struct judge *j, const struct clock_interval *whole,
		    const struct clock_fn_table *fns, struct finding_list *run)
{
	struct finding_list found = { 0 };
	int err = gettimeofday_hotspot_check(whole, fns, &j->clock_env, &j->gtod, -1, &found);

	for (int i = 0; !err && i < found.n; i++) {
		const struct finding *f = &found.items[i];
		bool seen = false;

		for (int k = 0; k < run->n && !seen; k++)
			seen = !strcmp(run->items[k].id, f->id) && run->items[k].pid == f->pid &&
			       !strcmp(run->items[k].class_name, f->class_name);
		if (!seen)
			err = findings_merge(run, f);
	}
	findings_free(&found);
	return err;
}
