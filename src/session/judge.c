#include "session/judge.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	j->cpus_ctx = (struct judge_cpus){ &j->mis, &j->oversub };
	judge_reads_cpus(&j->cpus_ctx, &j->cpus);
}

void judge_free(struct judge *j)
{
	free(j->no_load);
	free(j->no_load_clock);
	misbinding_free(&j->mis);
	linksat_state_free(&j->linksat_runs);
	findings_free(&j->now);
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
	return ((const struct sched_group_stats *)row)->pid;
}

static int clock_pid(const void *row)
{
	return ((const struct clock_group_stats *)row)->pid;
}

/* si without the load's row (its arrays are borrowed), or NULL. */
static const struct sched_interval *sched_without_load(struct judge *j, const struct sched_interval *si,
						       struct sched_interval *tmp)
{
	*tmp = *si;
	tmp->groups = without_load(si->groups, &tmp->n_groups, sizeof(*si->groups), sched_pid, j->load_pid,
				   (void **)&j->no_load, &j->no_load_cap);
	return tmp->groups || !si->groups ? tmp : NULL;
}

static const struct clock_interval *clock_without_load(struct judge *j, const struct clock_interval *ci,
						       struct clock_interval *tmp)
{
	*tmp = *ci;
	tmp->groups = without_load(ci->groups, &tmp->n_groups, sizeof(*ci->groups), clock_pid, j->load_pid,
				   (void **)&j->no_load_clock, &j->no_load_clock_cap);
	return tmp->groups || !ci->groups ? tmp : NULL;
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
static int judge_loss(struct judge *j, const struct interval *t, int index)
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

int judge_interval(struct judge *j, const struct interval *iv, struct finding_list *run)
{
	const struct sched_interval *si = NULL;
	struct sched_interval si_tmp;
	struct clock_interval ci_tmp;
	int err = 0;

	findings_clear(&j->now);
	if (iv->have_sched) {
		si = sched_without_load(j, &iv->sched, &si_tmp);
		if (!si)
			return -ENOMEM;
		err = oversubscription_check(si, &j->oversub, iv->index, &j->now);
		if (!err)
			err = lock_contention_check(si, &j->lockc, iv->index, &j->now);
		if (!err)
			err = io_bound_check(si, &j->iobound, iv->index, &j->now);
		if (!err && iv->have_net) {
			struct serves_question q = { &j->serves, &iv->classes, iv->index };

			err = net_wait_dominant_check(si, &iv->net, &j->netwait, judge_reads_serves, &q,
						      iv->index, &j->now);
		}
	}
	if (!err && iv->have_clock) {
		const struct clock_interval *ci = clock_without_load(j, &iv->clock, &ci_tmp);

		err = ci ? gettimeofday_hotspot_check(ci, iv->clock_fns, &j->clock_env, &j->gtod, iv->index,
						      &j->now)
			 : -ENOMEM;
	}
	if (!err)
		err = misbinding_judge(&j->mis, iv->rows, iv->ncpus, si, iv->have_net ? &iv->net : NULL, j->pids,
				       j->n_pids, iv->index, &j->now);
	if (!err && iv->have_net)
		err = judge_net(j, &iv->net, iv->index);
	if (!err && iv->have_loss)
		err = judge_loss(j, iv, iv->index);
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
