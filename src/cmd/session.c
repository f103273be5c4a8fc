#include "cmd/session.h"
#include "core/log.h"
#include "core/loop_fds.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void session_result_free(struct session_result *res)
{
	cpu_snapshot_free(&res->first);
	cpu_snapshot_free(&res->last);
}

int session_run(const struct dbt_config *cfg, struct collectors *col,
		struct session_sink *sink, struct session_result *res)
{
	struct cpu_snapshot prev = { 0 }, cur = { 0 };
	struct cpu_row *rows = NULL, total;
	int sfd = -1, tfd = -1, err;
	double first = sink->first_tick_s > 0 ? sink->first_tick_s : cfg->interval_s;

	memset(res, 0, sizeof(*res));
	rows = calloc((size_t)col->ncpus, sizeof(*rows));
	err = rows ? 0 : -ENOMEM;
	if (!err)
		err = cpu_snapshot_alloc(&prev, col->ncpus);
	if (!err)
		err = cpu_snapshot_alloc(&cur, col->ncpus);
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
	err = collectors_snapshot(col, &prev);
	if (err)
		goto out;
	cpu_snapshot_copy(&res->first, &prev);
	cpu_snapshot_copy(&res->last, &prev);
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
		struct interval_view iv;
		int n = sink->input_fd >= 0 ? 3 : 2, rc;

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
		if (n == 3 && (pfd[2].revents & (POLLIN | POLLHUP)) && sink->on_input) {
			rc = sink->on_input(sink->ctx);
			if (rc)
				break;
		}
		if (!(pfd[0].revents & POLLIN) || !ticker_take(tfd))
			continue;

		err = collectors_snapshot(col, &cur);
		if (err)
			break;
		cpu_rows_compute(&prev, &cur, rows);
		cpu_rows_total(rows, col->ncpus, &total);
		iv.t_s = (double)(cur.mono_ns - res->first.mono_ns) / 1e9;
		iv.dt_s = (double)(cur.mono_ns - prev.mono_ns) / 1e9;
		iv.ncpus = col->ncpus;
		iv.rows = rows;
		iv.total = &total;
		iv.lost_events = collectors_lost(col);
		cpu_snapshot_copy(&res->last, &cur);
		cpu_snapshot_copy(&prev, &cur);
		res->intervals++;
		rc = sink->on_interval(sink->ctx, &iv);
		if (rc < 0) {
			err = rc;
			break;
		}
		if (rc == SESSION_STOP)
			break;
		/* a few ms of slack: the ticker may fire a hair early */
		if (cfg->duration_s && iv.t_s + 0.005 >= cfg->duration_s)
			break;
	}
	res->elapsed_s = (double)(res->last.mono_ns - res->first.mono_ns) / 1e9;
out:
	if (tfd >= 0)
		close(tfd);
	if (sfd >= 0)
		close(sfd);
	cpu_snapshot_free(&prev);
	cpu_snapshot_free(&cur);
	free(rows);
	return err;
}
