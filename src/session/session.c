#include "session/session.h"
#include "session/misbinding.h"
#include "core/log.h"
#include "core/loop_fds.h"
#include "findings/bimodal_response.h"
#include "findings/gettimeofday_hotspot.h"
#include "findings/link_saturated.h"
#include "findings/oversubscription.h"
#include "findings/tx_queueing.h"
#include "sysinfo/clock_env.h"
#include "sysinfo/proc_status.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Per-run state that outlives one interval. */
struct session_state {
	const struct dbt_config *cfg;
	struct collectors *col;
	struct tclass_classifier *classifier;
	struct sched_filter filter;
	int pids[DBT_MAX_PIDS];
	struct oversub_config oversub;
	struct gtod_config gtod;
	struct clock_env clock_env;    /* read once: clocksource, log, cmdline, tuned */
	struct clock_snapshot clock_first;
	struct net_snapshot net_first;   /* for the whole-capture net summary */
	struct net_filter net_filter;    /* --port */
	uint16_t net_ports[DBT_MAX_PORTS];
	struct txq_config txq;
	struct linksat_config linksat;
	struct linksat_state linksat_runs;  /* seconds above the threshold, per device */
	struct bimodal_config bimodal;
	struct world_snapshot snaps[2];
	struct cpu_row *rows;
	struct misbinding mis;         /* NIC layout read once, target CPUs cached */
	struct finding_list now;       /* this interval's findings */
};

void session_result_free(struct session_result *res)
{
	cpu_snapshot_free(&res->first);
	cpu_snapshot_free(&res->last);
	sched_summary_free(&res->sched);
	clock_interval_free(&res->clock);
	net_interval_free(&res->net);
	findings_free(&res->findings);
}

/* Enough for the busiest processes of any real host; the capture lists
 * as many (CAPTURE_MAX_PROCS). */
#define SESSION_JUDGED_PROCS 64

/* The CPUs each reported process may use: the one piece of I/O the
 * findings need, done here so the model and the rules stay pure. */
static void fill_allowed_cpus(struct sched_interval *si)
{
	/* processes come busiest first: the rest are neither shown nor judged */
	for (int i = 0; i < si->n_procs && i < SESSION_JUDGED_PROCS; i++) {
		struct sched_proc_stats *p = &si->procs[i];
		struct dbt_cpuset set;
		int n = 0;

		if (!proc_cpus_allowed(NULL, p->pid, 0, &set)) {
			n = (int)dbt_cpuset_count(&set);
			if (dbt_cpuset_format_list(&set, p->cpus_allowed, sizeof(p->cpus_allowed)) < 0)
				p->cpus_allowed[0] = 0;
		}
		p->total.allowed_cpus = n;
		for (int k = 0; k < p->n_classes; k++)
			p->classes[k].allowed_cpus = n;
	}
}

/* The net family's rules over one window. */
static int judge_net(struct session_state *st, const struct net_interval *ni, int index)
{
	int err = tx_queueing_check(ni, &st->txq, index, &st->now);

	if (!err)
		err = link_saturated_check(ni, &st->linksat, &st->linksat_runs, index, &st->now);
	if (!err)
		err = bimodal_response_check(ni, &st->bimodal, index, &st->now);
	return err;
}

static int judge(struct session_state *st, struct sched_interval *si,
		 const struct clock_interval *ci, const struct net_interval *ni, int index,
		 struct session_result *res)
{
	int err = 0;

	findings_clear(&st->now);
	if (si) {
		fill_allowed_cpus(si);
		err = oversubscription_check(si, &st->oversub, index, &st->now);
	}
	if (!err && ci)
		err = gettimeofday_hotspot_check(ci, &st->col->clock.fns, &st->clock_env, &st->gtod,
						 index, &st->now);
	if (!err)
		err = misbinding_judge(&st->mis, st->rows, st->col->ncpus, si, ni, st->pids,
				       st->cfg->n_pids, index, &st->now);
	if (!err && ni)
		err = judge_net(st, ni, index);
	for (int i = 0; !err && i < st->now.n; i++)
		err = findings_merge(&res->findings, &st->now.items[i]);
	return err;
}

static int state_init(struct session_state *st, const struct dbt_config *cfg,
		      struct collectors *col)
{
	int err;

	memset(st, 0, sizeof(*st));
	st->cfg = cfg;
	st->col = col;
	for (int i = 0; i < cfg->n_pids; i++)
		st->pids[i] = (int)cfg->pids[i];
	st->filter.pids = st->pids;
	st->filter.n_pids = cfg->n_pids;
	st->filter.comm = cfg->comm;
	oversub_config_default(&st->oversub);
	gtod_config_default(&st->gtod);
	st->gtod.vdso_pct = cfg->clock_vdso_pct;
	st->gtod.syscalls_per_s = cfg->clock_syscalls_per_s;
	clock_snapshot_init(&st->clock_first);
	net_snapshot_init(&st->net_first);
	for (int i = 0; i < cfg->n_ports; i++)
		st->net_ports[i] = cfg->ports[i];
	st->net_filter.ports = st->net_ports;
	st->net_filter.n_ports = cfg->n_ports;
	txq_config_default(&st->txq);
	linksat_config_default(&st->linksat);
	bimodal_config_default(&st->bimodal);
	if (col->on[FAM_CLOCK])
		clock_env_read(NULL, &st->clock_env);
	if (cfg->runq_p99_us > 0)
		st->oversub.runq_p99_us = cfg->runq_p99_us;
	misbinding_init(&st->mis);
	err = tclass_classifier_new(cfg->classes, (size_t)cfg->n_classes, &st->classifier);
	if (err)
		return err;
	st->rows = calloc((size_t)col->ncpus, sizeof(*st->rows));
	if (!st->rows)
		return -ENOMEM;
	err = world_snapshot_alloc(&st->snaps[0], col->ncpus);
	if (!err)
		err = world_snapshot_alloc(&st->snaps[1], col->ncpus);
	return err;
}

static void state_free(struct session_state *st)
{
	world_snapshot_free(&st->snaps[0]);
	world_snapshot_free(&st->snaps[1]);
	free(st->rows);
	misbinding_free(&st->mis);
	tclass_classifier_free(st->classifier);
	clock_snapshot_free(&st->clock_first);
	net_snapshot_free(&st->net_first);
	linksat_state_free(&st->linksat_runs);
	findings_free(&st->now);
}

/* The clock family over the whole run, from the first snapshot to the
 * last: a process that never reads enough samples in one interval to be
 * judged (a few % of a core at 1 s) still is over a long capture. Its
 * findings join the per-interval ones only where those have none. */
static int clock_summary(struct session_state *st, const struct clock_snapshot *last,
			 struct session_result *res)
{
	struct finding_list whole = { 0 };
	int err;

	res->clock_fns = st->col->clock.fns;
	res->clock_hz = st->col->clock.sample_hz;
	err = clock_interval_compute(&st->clock_first, last, st->classifier, NULL, &st->filter,
				     &res->clock);
	if (!err)
		err = gettimeofday_hotspot_check(&res->clock, &res->clock_fns, &st->clock_env,
						 &st->gtod, -1, &whole);
	for (int i = 0; !err && i < whole.n; i++) {
		const struct finding *f = &whole.items[i];
		bool seen = false;

		for (int k = 0; k < res->findings.n && !seen; k++)
			seen = !strcmp(res->findings.items[k].id, f->id) &&
			       res->findings.items[k].pid == f->pid &&
			       !strcmp(res->findings.items[k].class_name, f->class_name);
		if (!seen)
			err = findings_merge(&res->findings, f);
	}
	findings_free(&whole);
	return err;
}

/* The clock family's vDSO share beside each class of the sched view: both
 * name classes alike (the clock model uses the sched snapshot's names). */
static void join_vdso(struct sched_interval *si, const struct clock_interval *ci)
{
	for (int i = 0; i < si->n_procs; i++) {
		struct sched_proc_stats *p = &si->procs[i];
		const struct clock_proc_stats *cp = clock_interval_proc(ci, p->pid);

		if (!cp)
			continue;
		p->total.vdso_pct = cp->total.vdso_pct;
		for (int k = 0; k < p->n_classes; k++) {
			const struct clock_stats *c = clock_interval_class(ci, p->pid, p->classes[k].name);

			if (c)
				p->classes[k].vdso_pct = c->vdso_pct;
		}
	}
}

/* One tick: snapshot, model, findings, sink. */
static int step(struct session_state *st, int *cur_idx, struct session_sink *sink,
		struct session_result *res)
{
	struct world_snapshot *prev = &st->snaps[*cur_idx ^ 1], *cur = &st->snaps[*cur_idx];
	struct sched_interval si = { 0 }, *sip = NULL;
	struct clock_interval ci = { 0 }, *cip = NULL;
	struct net_interval ni = { 0 }, *nip = NULL;
	struct interval_view iv = { 0 };
	struct cpu_row total;
	int err, rc;

	err = collectors_snapshot(st->col, cur);
	if (err)
		return err;
	cpu_rows_compute(&prev->cpu, &cur->cpu, st->rows);
	cpu_rows_total(st->rows, st->col->ncpus, &total);
	if (cur->have_sched) {
		err = sched_interval_compute(&prev->sched, &cur->sched, st->classifier, &st->filter, &si);
		if (err)
			return err;
		sip = &si;
	}
	if (cur->have_clock) {
		struct clock_sched_namer sn = { 0 };
		bool named = cur->have_sched &&
			     !clock_sched_namer_init(&sn, &cur->sched, st->classifier);

		/* the sched model's classes, so the class view can join them */
		err = clock_interval_compute(&prev->clock, &cur->clock, st->classifier,
					     named ? &sn.namer : NULL, &st->filter, &ci);
		clock_sched_namer_free(&sn);
		if (err) {
			sched_interval_free(&si);
			return err;
		}
		cip = &ci;
	}
	if (cur->have_net) {
		err = net_interval_compute(&prev->net, &cur->net, &st->net_filter, &ni);
		if (err) {
			sched_interval_free(&si);
			clock_interval_free(&ci);
			return err;
		}
		nip = &ni;
	}
	if (sip && cip)
		join_vdso(sip, cip);
	err = judge(st, sip, cip, nip, res->intervals, res);
	if (!err && sip)
		err = sched_summary_add(&res->sched, sip);
	if (err) {
		sched_interval_free(&si);
		clock_interval_free(&ci);
		net_interval_free(&ni);
		return err;
	}
	res->lost_events = collectors_lost(st->col) + cur->sched.lost;
	res->thread_evictions = cur->sched.evictions;

	iv.index = res->intervals;
	iv.t_s = (double)(cur->cpu.mono_ns - res->first.mono_ns) / 1e9;
	iv.dt_s = (double)(cur->cpu.mono_ns - prev->cpu.mono_ns) / 1e9;
	iv.ncpus = st->col->ncpus;
	iv.rows = st->rows;
	iv.total = &total;
	iv.sched = sip;
	iv.clock = cip;
	iv.clock_fns = &st->col->clock.fns;
	iv.clock_hz = st->col->clock.sample_hz;
	iv.net = nip;
	iv.findings = &st->now;
	iv.lost_events = res->lost_events;
	iv.thread_evictions = res->thread_evictions;
	cpu_snapshot_copy(&res->last, &cur->cpu);
	res->intervals++;
	*cur_idx ^= 1;

	rc = sink->on_interval(sink->ctx, &iv);
	sched_interval_free(&si);
	clock_interval_free(&ci);
	net_interval_free(&ni);
	if (rc < 0)
		return rc;
	if (rc == SESSION_STOP)
		return SESSION_STOP;
	/* a few ms of slack: the ticker may fire a hair early */
	if (st->cfg->duration_s && iv.t_s + 0.005 >= st->cfg->duration_s)
		return SESSION_STOP;
	return 0;
}

int session_run(const struct dbt_config *cfg, struct collectors *col,
		struct session_sink *sink, struct session_result *res)
{
	struct session_state st;
	double first = sink->first_tick_s > 0 ? sink->first_tick_s : cfg->interval_s;
	int sfd = -1, tfd = -1, err, cur_idx = 1;

	memset(res, 0, sizeof(*res));
	err = state_init(&st, cfg, col);
	if (!err)
		err = cpu_snapshot_alloc(&res->first, col->ncpus);
	if (!err)
		err = cpu_snapshot_alloc(&res->last, col->ncpus);
	if (err)
		goto out;
	sfd = signals_open();
	if (sfd < 0) {
		err = sfd;
		goto out;
	}
	err = collectors_snapshot(col, &st.snaps[0]);
	if (err)
		goto out;
	cpu_snapshot_copy(&res->first, &st.snaps[0].cpu);
	cpu_snapshot_copy(&res->last, &st.snaps[0].cpu);
	if (sink->on_start && (err = sink->on_start(sink->ctx, st.snaps[0].cpu.mono_ns)))
		goto out;
	if (st.snaps[0].have_clock) {
		err = clock_snapshot_copy(&st.clock_first, &st.snaps[0].clock);
		if (err)
			goto out;
	}
	if (st.snaps[0].have_net) {
		err = net_snapshot_copy(&st.net_first, &st.snaps[0].net);
		if (err)
			goto out;
	}
	tfd = ticker_open(first, cfg->interval_s);
	if (tfd < 0) {
		err = tfd;
		goto out;
	}

	for (;;) {
		struct pollfd pfd[3] = {
			{ .fd = tfd, .events = POLLIN },
			{ .fd = sfd, .events = POLLIN },
			{ .fd = sink->input_fd, .events = POLLIN },
		};
		int n = sink->input_fd >= 0 ? 3 : 2;

		if (poll(pfd, (nfds_t)n, -1) < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		if (pfd[1].revents & POLLIN) {
			res->stop_signal = signals_take(sfd);
			if (res->stop_signal)
				break;
		}
		if (n == 3 && (pfd[2].revents & (POLLIN | POLLHUP)) && sink->on_input &&
		    sink->on_input(sink->ctx))
			break;
		if (!(pfd[0].revents & POLLIN) || !ticker_take(tfd))
			continue;
		err = step(&st, &cur_idx, sink, res);
		if (err == SESSION_STOP) {
			err = 0;
			break;
		}
		if (err)
			break;
	}
	res->elapsed_s = (double)(res->last.mono_ns - res->first.mono_ns) / 1e9;
	sched_summary_finish(&res->sched);
	if (!err && st.snaps[cur_idx ^ 1].have_clock)
		err = clock_summary(&st, &st.snaps[cur_idx ^ 1].clock, res);
	if (!err && st.snaps[cur_idx ^ 1].have_net && res->intervals) {
		err = net_interval_compute(&st.net_first, &st.snaps[cur_idx ^ 1].net, &st.net_filter,
					   &res->net);
		res->have_net = !err;
	}
out:
	if (tfd >= 0)
		close(tfd);
	if (sfd >= 0)
		close(sfd);
	state_free(&st);
	return err;
}
