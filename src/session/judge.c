#include "session/judge.h"
#include "session/class_cpus.h"
#include "session/class_port.h"
#include "sysinfo/proc_status.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
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
	j->load_pid = (int)cfg->load_pid;
}

void judge_free(struct judge *j)
{
	free(j->no_load);
	free(j->no_load_clock);
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
	for (int i = 0; i < si->n_procs && i < JUDGED_PROCS; i++) {
		struct sched_proc_stats *p = &si->procs[i];
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

/* The recorded command's group (record) is the load, not a server: a
 * benchmark runs more client threads than CPUs (oversubscription), waits
 * on its own locks and for replies (lock_contention, io_bound,
 * net_wait_dominant), reads the clock around every request
 * (gettimeofday_hotspot), and is often the busiest process on the host
 * (the misbinding rules' targets without -p). Those rules see the rows
 * without it: rows[0..*n) less the one whose pid is load_pid, copied into
 * *buf, or rows itself when no row is the load's. The rules over CPUs,
 * devices and ports judge the host and stay as they are. NULL: out of
 * memory. */
static void *without_load(void *rows, int *n, size_t size, int (*pid_of)(const void *row),
			  int load_pid, void **buf, size_t *cap)
{
	char *r = rows, *out;
	int k = -1;

	for (int i = 0; load_pid && i < *n && k < 0; i++)
		if (pid_of(r + (size_t)i * size) == load_pid)
			k = i;
	if (k < 0)
		return rows;
	if ((size_t)*n > *cap) {
		void *grown = realloc(*buf, (size_t)*n * size);

		if (!grown)
			return NULL;
		*buf = grown;
		*cap = (size_t)*n;
	}
	out = *buf;
	memcpy(out, r, (size_t)k * size);
	memcpy(out + (size_t)k * size, r + (size_t)(k + 1) * size, (size_t)(*n - k - 1) * size);
	(*n)--;
	return out;
}

static int sched_pid(const void *row)
{
	return ((const struct sched_proc_stats *)row)->pid;
}

static int clock_pid(const void *row)
{
	return ((const struct clock_proc_stats *)row)->pid;
}

/* si without the load's row (its arrays are borrowed), or NULL. */
static const struct sched_interval *sched_without_load(struct judge *j, const struct sched_interval *si,
						       struct sched_interval *tmp)
{
	*tmp = *si;
	tmp->procs = without_load(si->procs, &tmp->n_procs, sizeof(*si->procs), sched_pid, j->load_pid,
				  (void **)&j->no_load, &j->no_load_cap);
	return tmp->procs || !si->procs ? tmp : NULL;
}

static const struct clock_interval *clock_without_load(struct judge *j, const struct clock_interval *ci,
						       struct clock_interval *tmp)
{
	*tmp = *ci;
	tmp->procs = without_load(ci->procs, &tmp->n_procs, sizeof(*ci->procs), clock_pid, j->load_pid,
				  (void **)&j->no_load_clock, &j->no_load_clock_cap);
	return tmp->procs || !ci->procs ? tmp : NULL;
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
static int serves_port(const struct sched_proc_stats *p, const struct sched_class_stats *c,
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
	const struct sched_interval *si = NULL;
	struct sched_interval si_tmp;
	struct clock_interval ci_tmp;
	int err = 0;

	findings_clear(&j->now);
	j->index = index;
	if (t->have_sched) {
		fill_allowed_cpus(j, &t->sched, &t->classes, index);
		si = sched_without_load(j, &t->sched, &si_tmp);
		if (!si)
			return -ENOMEM;
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
	if (!err && t->have_clock) {
		const struct clock_interval *ci = clock_without_load(j, &t->clock, &ci_tmp);

		err = ci ? gettimeofday_hotspot_check(ci, fns, &j->clock_env, &j->gtod, index, &j->now)
			 : -ENOMEM;
	}
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
	struct clock_interval tmp;
	const struct clock_interval *ci = clock_without_load(j, whole, &tmp);
	int err = ci ? gettimeofday_hotspot_check(ci, fns, &j->clock_env, &j->gtod, -1, &found) : -ENOMEM;

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
