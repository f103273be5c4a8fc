/* `dbtrace capture`: a timed JSON capture, named only once complete. */
#include "cmd/cmd.h"
#include "session/session.h"
#include "core/log.h"
#include "capture/capture_write.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

struct capture_ctx {
	struct capture_writer *w;
};

static int on_interval(void *ctx, const struct interval_view *iv)
{
	struct capture_ctx *c = ctx;

	return capture_add_interval(c->w, iv);
}

static double cpu_seconds(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static long max_rss_kb(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
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
	struct capture_ctx c = { 0 };
	struct session_sink sink = { .ctx = &c, .on_interval = on_interval, .input_fd = -1 };
	struct capture_meta meta = { .version = DBTRACE_VERSION, .interval_s = cfg->interval_s };
	struct capture_summary sum = { 0 };
	struct session_result res;
	struct collectors col;
	struct collect_config cc = cmd_collect_config(cfg);
	struct cpu_row *rows;
	char path[256], err[512], eb[96];
	const char *out = cfg->output;
	time_t now = time(NULL);
	double cpu0;
	int rc, failed;

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
	failed = collectors_open(&col, &cc);
	if (failed < 0) {
		log_err("cannot set up the probes: %s", log_errno_text(failed, eb, sizeof(eb)));
		capture_abort(c.w);
		return DBT_EXIT_RUNTIME;
	}
	for (int f = 0; f < FAM_COUNT; f++)
		if (!col.on[f])
			log_err("%s probes did not attach (see dbtrace probes); capturing the rest",
				col.reports[f].family);

	strftime(meta.started_at, sizeof(meta.started_at), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	host_info_read(NULL, &meta.host);
	meta.probes = col.reports;
	meta.n_probes = FAM_COUNT;
	rc = capture_begin(c.w, &meta);
	if (!rc) {
		if (cfg->duration_s)
			log_info("capturing to %s for %g s", out, cfg->duration_s);
		else
			log_info("capturing to %s until interrupted (Ctrl-C)", out);
		cpu0 = cpu_seconds();
		rc = session_run(cfg, &col, &sink, &res);
	}
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
	sum.duration_s = res.elapsed_s;
	sum.cpu_pct = res.elapsed_s > 0 ? 100.0 * (cpu_seconds() - cpu0) / res.elapsed_s : 0;
	sum.max_rss_kb = max_rss_kb();
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
	collectors_close(&col);
	rc = capture_finish(c.w, &sum, err, sizeof(err));
	free(rows);
	session_result_free(&res);
	if (rc) {
		log_err("%s; no file written", err);
		return DBT_EXIT_RUNTIME;
	}
	log_info("wrote %s: %d intervals over %.1f s", out, res.intervals, sum.duration_s);
	return DBT_EXIT_OK;
}
