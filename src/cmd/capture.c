/* `dbtrace capture`: a timed JSON capture, named only once complete. */
#include "cmd/cmd.h"
#include "session/session.h"
#include "core/log.h"
#include "core/self_usage.h"
#include "capture/capture_write.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <time.h>

struct capture_ctx {
	struct capture_writer *w;
	struct capture_meta *meta;
	const char *out;
	double duration_s;
};

/* The header goes out once the first snapshot is taken: started_at and
 * started_at_monotonic_s are then the instant of the intervals' t = 0,
 * on both clocks, to line up with sysbench's per-second reports and
 * Prometheus samples. */
static int on_start(void *ctx, uint64_t first_mono_ns)
{
	struct capture_ctx *c = ctx;
	struct timespec wall, mono;
	int64_t since_ns;

	clock_gettime(CLOCK_REALTIME, &wall);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	/* the snapshot was a moment ago: take the wall clock back as far */
	since_ns = ((int64_t)mono.tv_sec * 1000000000 + mono.tv_nsec) - (int64_t)first_mono_ns;
	if (since_ns > 0) {
		int64_t w = (int64_t)wall.tv_sec * 1000000000 + wall.tv_nsec - since_ns;

		wall.tv_sec = (time_t)(w / 1000000000);
		wall.tv_nsec = (long)(w % 1000000000);
	}
	capture_format_time(&wall, c->meta->started_at, sizeof(c->meta->started_at));
	c->meta->started_at_monotonic_s = (double)first_mono_ns / 1e9;
	/* said now, not before the first snapshot: a script that starts its
	 * load on this line has all of it inside the window (the first
	 * snapshot reads every map and /proc, and took up to half a second
	 * under load: a test's first retransmits fell before it) */
	if (c->duration_s)
		log_info("capturing to %s for %g s", c->out, c->duration_s);
	else
		log_info("capturing to %s until interrupted (Ctrl-C)", c->out);
	return capture_begin(c->w, c->meta);
}

static int on_interval(void *ctx, const struct interval *iv, const struct finding_list *found)
{
	struct capture_ctx *c = ctx;

	(void)found;   /* the capture keeps the run's findings, merged */
	return capture_add_interval(c->w, iv);
}

static void default_output(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(buf, len, "dbtrace-%Y%m%d-%H%M%S.json", &tm);
}

int cmd_capture(const struct dbt_config *cfg)
{
	struct capture_meta meta = { .version = DBTRACE_VERSION, .interval_s = cfg->interval_s };
	struct capture_ctx c = { .meta = &meta };
	struct session_sink sink = { .ctx = &c, .on_interval = on_interval, .on_start = on_start,
				     .input_fd = -1 };
	struct capture_summary sum = { 0 };
	struct session_result res;
	struct collectors col;
	struct cpu_row *rows;
	char path[256], err[512], eb[96], why[24];
	const char *out = cfg->output;
	double cpu0;
	int rc;

	if (!out) {
		default_output(path, sizeof(path));
		out = path;
	}
	if (capture_open(&c.w, out, err, sizeof(err))) {
		log_err("%s", err);
		return DBT_EXIT_USAGE;
	}
	rc = cmd_prepare_bpf(cfg);
	if (rc) {
		capture_abort(c.w);
		return rc;
	}
	rc = cmd_open_probes(cfg, &col, "capturing the rest");
	if (rc) {
		capture_abort(c.w);
		return rc;
	}

	host_info_read(NULL, &meta.host);
	meta.probes = col.reports;
	meta.n_probes = FAM_COUNT;
	c.out = out;
	c.duration_s = cfg->duration_s;
	cpu0 = self_cpu_seconds();
	rc = session_run(cfg, &col, &sink, &res);
	if (rc) {
		log_err("capture failed: %s; no file written", log_errno_text(rc, eb, sizeof(eb)));
		capture_abort(c.w);
		collectors_close(&col);
		return DBT_EXIT_RUNTIME;
	}

	rows = calloc((size_t)col.ncpus, sizeof(*rows));
	if (!rows) {
		capture_abort(c.w);
		collectors_close(&col);
		session_result_free(&res);
		return DBT_EXIT_RUNTIME;
	}
	cpu_rows_compute(&res.first, &res.last, rows);
	sum.stop_reason = capture_stop_reason(res.stop_signal, cfg->duration_s > 0, &sum.complete,
					      why, sizeof(why));
	sum.duration_s = res.elapsed_s;
	sum.cpu_pct = res.elapsed_s > 0 ? 100.0 * (self_cpu_seconds() - cpu0) / res.elapsed_s : 0;
	sum.max_rss_kb = self_max_rss_kb();
	sum.lost_events = res.lost_events;
	sum.thread_evictions = res.thread_evictions;
	sum.ncpus = col.ncpus;
	sum.rows = rows;
	sum.sched = col.on[FAM_SCHED] ? &res.sched : NULL;
	sum.clock = res.clock_hz ? &res.clock : NULL;
	sum.clock_fns = &res.clock_fns;
	sum.clock_hz = res.clock_hz;
	sum.net = res.have_net ? &res.net : NULL;
	sum.loss = res.have_loss ? &res.loss : NULL;
	sum.findings = &res.findings;
	sum.groups = &res.groups;
	collectors_close(&col);
	rc = capture_finish(c.w, &sum, err, sizeof(err));
	free(rows);
	session_result_free(&res);
	if (rc) {
		log_err("%s; no file written", err);
		return DBT_EXIT_RUNTIME;
	}
	log_info("wrote %s: %d intervals over %.1f s%s%s", out, res.intervals, sum.duration_s,
		 sum.complete ? "" : ", cut short by ", sum.complete ? "" : sum.stop_reason);
	return DBT_EXIT_OK;
}
