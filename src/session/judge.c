#include "session/judge.h"

#include <stdio.h>
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
	j->cpus_ctx = (struct judge_cpus){ &j->mis, &j->oversub };
	judge_reads_cpus(&j->cpus_ctx, &j->cpus);
}

void judge_free(struct judge *j)
{
	misbinding_free(&j->mis);
	linksat_state_free(&j->linksat_runs);
	findings_free(&j->now);
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
	const struct sched_interval *si = iv->have_sched ? &iv->sched : NULL;
	int err = 0;

	findings_clear(&j->now);
	if (si) {
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
	if (!err && iv->have_clock)
		err = gettimeofday_hotspot_check(&iv->clock, iv->clock_fns, &j->clock_env, &j->gtod, iv->index,
						 &j->now);
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
