/* The loop: one snapshot per tick from the collectors, the tick's model
 * (session/tick.c) into a complete interval, its findings
 * (session/judge.c), then the sink. The
 * only file of the session layer that touches the collectors, and so
 * libbpf: the rest is linked into the unit tests. */
#include "session/session.h"
#include "session/judge.h"
#include "session/proc_groups.h"
#include "session/tick.h"
#include "collect/bpf_meter.h"
#include "core/log.h"
#include "core/loop_fds.h"

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
	struct sched_filter filter;      /* -p, --comm */
	int pids[DBT_MAX_PIDS];
	struct net_filter net_filter;    /* --port */
	uint16_t net_ports[DBT_MAX_PORTS];
	struct tick_filters filters;
	struct proc_groups groups;       /* --group-by, --cgroup, titles */
	struct judge judge;
	struct clock_snapshot clock_first;  /* for the whole-run clock summary */
	struct net_snapshot net_first;      /* for the whole-run net summary */
	struct loss_snapshot loss_first;    /* and its loss part */
	struct world_snapshot snaps[2];
	struct cpu_row *rows;            /* lent to each interval */
	struct bpf_meter meter;          /* dbtrace's own BPF run time */
};

void session_result_free(struct session_result *res)
{
	cpu_snapshot_free(&res->first);
	cpu_snapshot_free(&res->last);
	sched_summary_free(&res->sched);
	clock_interval_free(&res->clock);
	net_interval_free(&res->net);
	loss_interval_free(&res->loss);
	findings_free(&res->findings);
	proc_group_log_free(&res->groups);
}

static int state_init(struct session_state *st, const struct dbt_config *cfg,
		      struct collectors *col)
{
	int err;

	memset(st, 0, sizeof(*st));
	bpf_meter_init(&st->meter);
	st->cfg = cfg;
	st->col = col;
	for (int i = 0; i < cfg->n_pids; i++)
		st->pids[i] = (int)cfg->pids[i];
	st->filter.pids = st->pids;
	st->filter.n_pids = cfg->n_pids;
	st->filter.comm = cfg->comm;
	st->filter.by_pids = cfg->n_cgroups > 0;
	st->groups.by = cfg->group_by;
	st->groups.cgroups = cfg->cgroup_paths;
	st->groups.n_cgroups = cfg->n_cgroups;
	st->groups.pids = st->pids;
	st->groups.n_pids = cfg->n_pids;
	st->groups.load_pid = (int)cfg->load_pid;
	for (int i = 0; i < cfg->n_ports; i++)
		st->net_ports[i] = cfg->ports[i];
	st->net_filter.ports = st->net_ports;
	st->net_filter.n_ports = cfg->n_ports;
	clock_snapshot_init(&st->clock_first);
	net_snapshot_init(&st->net_first);
	loss_snapshot_init(&st->loss_first);
	judge_init(&st->judge, cfg, col->on[FAM_CLOCK]);
	st->judge.mis.groups = &st->groups;
	err = tclass_classifier_new(cfg->classes, (size_t)cfg->n_classes, &st->classifier);
	if (err)
		return err;
	st->filters = (struct tick_filters){ st->classifier, &st->filter, &st->net_filter, NULL, 0 };
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
	judge_free(&st->judge);
	proc_groups_free(&st->groups);
	tclass_classifier_free(st->classifier);
	clock_snapshot_free(&st->clock_first);
	net_snapshot_free(&st->net_first);
	loss_snapshot_free(&st->loss_first);
}

/* The clock family over the whole run, from the first snapshot to the
 * last, and its findings. */
static int clock_summary(struct session_state *st, const struct clock_snapshot *last,
			 struct session_result *res)
{
	int err;

	res->clock_fns = st->col->clock.fns;
	res->clock_hz = st->col->clock.sample_hz;
	err = tick_clock_run(&st->clock_first, last, &st->filters, &res->clock);
	if (!err)
		err = judge_clock_run(&st->judge, &res->clock, &res->clock_fns, &res->findings);
	return err;
}

/* The tick's process groups, into the filters the model takes. */
static int groups_update(struct session_state *st, const struct world_snapshot *cur)
{
	int err = proc_groups_update(&st->groups, cur);

	if (err)
		return err;
	st->filters.procs = st->groups.procs;
	st->filters.n_procs = st->groups.n;
	st->filter.pids = st->groups.selected;
	st->filter.n_pids = (int)st->groups.n_selected;
	return 0;
}

/* One tick: snapshot, model, findings, sink. */
static int step(struct session_state *st, int *cur_idx, struct session_sink *sink,
		struct session_result *res)
{
	struct world_snapshot *prev = &st->snaps[*cur_idx ^ 1], *cur = &st->snaps[*cur_idx];
	struct tick_args args = { &st->filters, &st->judge.cpus, res->intervals, res->first.mono_ns,
				  st->rows, &st->col->clock.fns, st->col->clock.sample_hz, 0 };
	struct interval iv;
	double t_s;
	int err, rc;

	/* the interval's window ends with it, if its timer has not yet */
	bpf_meter_end(&st->meter, st->col);
	err = collectors_snapshot(st->col, cur);
	if (err)
		return err;
	err = groups_update(st, cur);
	if (err)
		return err;
	res->lost_events = collectors_lost(st->col) + cur->sched.lost;
	res->thread_evictions = cur->sched.evictions;
	args.lost_events = res->lost_events;
	err = tick_compute(prev, cur, &args, &iv);
	if (err)
		return err;
	bpf_meter_take(&st->meter, &iv.bpf);
	bpf_cost_add(&res->bpf, &iv.bpf);
	err = judge_interval(&st->judge, &iv, &res->findings);
	if (!err && iv.have_sched)
		err = sched_summary_add(&res->sched, &iv.sched);
	if (!err && iv.have_sched)
		err = proc_groups_record(&st->groups, &iv.sched, &res->groups);
	if (err) {
		interval_free(&iv);
		return err;
	}
	cpu_snapshot_copy(&res->last, &cur->cpu);
	res->intervals++;
	*cur_idx ^= 1;

	rc = sink->on_interval(sink->ctx, &iv, &st->judge.now);
	t_s = iv.t_s;
	interval_free(&iv);
	if (rc < 0)
		return rc;
	/* the next interval's window, once this one's work is done */
	if (rc != SESSION_STOP)
		bpf_meter_window(&st->meter, st->col, BPF_METER_DUTY * st->cfg->interval_s);
	if (rc == SESSION_STOP)
		return SESSION_STOP;
	/* a few ms of slack: the ticker may fire a hair early */
	if (st->cfg->duration_s && t_s + 0.005 >= st->cfg->duration_s)
		return SESSION_STOP;
	return 0;
}

/* A sink asked for the window to close now: one more, shorter interval
 * up to this instant, then the session ends. */
static int last_step(struct session_state *st, int *cur_idx, struct session_sink *sink,
		     struct session_result *res)
{
	int err = step(st, cur_idx, sink, res);

	return err == SESSION_STOP ? 0 : err;
}

/* The next tick would pass -d: one last, shorter one at -d instead. */
static int end_at_duration(const struct dbt_config *cfg, int tfd, const struct session_result *res)
{
	double left = cfg->duration_s - (double)(mono_ns() - res->first.mono_ns) / 1e9;

	if (!cfg->duration_s || left >= cfg->interval_s || left <= 0)
		return 0;
	return ticker_set(tfd, left, 0);
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
	if (st.snaps[0].have_loss) {
		err = loss_snapshot_copy(&st.loss_first, &st.snaps[0].loss);
		if (err)
			goto out;
	}
	bpf_meter_open(&st.meter);
	res->bpf_why = bpf_meter_why(&st.meter);
	if (res->bpf_why)
		log_debug("dbtrace's own BPF run time is not measured: %s", res->bpf_why);
	bpf_meter_window(&st.meter, col, BPF_METER_DUTY * (first < cfg->interval_s ? first : cfg->interval_s));
	tfd = ticker_open(first, cfg->interval_s);
	if (tfd < 0) {
		err = tfd;
		goto out;
	}

	for (;;) {
		/* poll() leaves out a negative fd: no input, no meter */
		struct pollfd pfd[4] = {
			{ .fd = tfd, .events = POLLIN },
			{ .fd = sfd, .events = POLLIN },
			{ .fd = sink->input_fd, .events = POLLIN },
			{ .fd = st.meter.timer_fd, .events = POLLIN },
		};

		if (poll(pfd, 4, -1) < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		if (pfd[1].revents & POLLIN) {
			int sig = signals_take(sfd), act = SESSION_CONTINUE;

			if (sig && !res->stop_signal)
				res->stop_signal = sig;
			if (sig)
				act = sink->on_signal ? sink->on_signal(sink->ctx, sig) : SESSION_STOP;
			if (act == SESSION_LAST) {
				err = last_step(&st, &cur_idx, sink, res);
				break;
			}
			if (act)
				break;
		}
		if (pfd[3].revents & POLLIN)
			bpf_meter_end(&st.meter, col);
		if (sink->input_fd >= 0 && (pfd[2].revents & (POLLIN | POLLHUP)) && sink->on_input) {
			int act = sink->on_input(sink->ctx);

			if (act == SESSION_LAST) {
				err = last_step(&st, &cur_idx, sink, res);
				break;
			}
			if (act)
				break;
		}
		if (!(pfd[0].revents & POLLIN) || !ticker_take(tfd))
			continue;
		err = step(&st, &cur_idx, sink, res);
		if (err == SESSION_STOP) {
			err = 0;
			break;
		}
		if (!err && sink->end_at_duration)
			err = end_at_duration(cfg, tfd, res);
		if (err)
			break;
	}
	res->elapsed_s = (double)(res->last.mono_ns - res->first.mono_ns) / 1e9;
	sched_summary_finish(&res->sched);
	if (!err && st.snaps[cur_idx ^ 1].have_clock)
		err = clock_summary(&st, &st.snaps[cur_idx ^ 1].clock, res);
	if (!err && res->intervals) {
		const struct world_snapshot *last = &st.snaps[cur_idx ^ 1];

		err = tick_net_run(last->have_net ? &st.net_first : NULL, last->have_net ? &last->net : NULL,
				   last->have_loss ? &st.loss_first : NULL, last->have_loss ? &last->loss : NULL,
				   &st.net_filter, &res->net, &res->have_net, &res->loss, &res->have_loss);
	}
	res->bpf_why = bpf_meter_why(&st.meter);
out:
	bpf_meter_close(&st.meter);
	if (tfd >= 0)
		close(tfd);
	if (sfd >= 0)
		close(sfd);
	state_free(&st);
	return err;
}
