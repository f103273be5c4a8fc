#include "cmd/capture_run.h"
#include "core/log.h"
#include "core/self_usage.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

int capture_run_open(struct capture_run *c, const struct dbt_config *cfg)
{
	char err[512];

	memset(c, 0, sizeof(*c));
	c->cfg = cfg;
	c->meta = (struct capture_meta){ .version = DBTRACE_VERSION, .interval_s = cfg->interval_s };
	c->out = cfg->output;
	if (!c->out) {
		time_t now = time(NULL);
		struct tm tm;

		localtime_r(&now, &tm);
		strftime(c->path, sizeof(c->path), "dbtrace-%Y%m%d-%H%M%S.json", &tm);
		c->out = c->path;
	}
	if (capture_open(&c->w, c->out, err, sizeof(err))) {
		log_err("%s", err);
		return DBT_EXIT_USAGE;
	}
	return 0;
}

void capture_run_probes(struct capture_run *c, const struct collectors *col)
{
	host_info_read(NULL, &c->meta.host);
	snprintf(c->meta.host.netns, sizeof(c->meta.host.netns), "%s", c->cfg->netns ? c->cfg->netns : "");
	c->meta.probes = col->reports;
	c->meta.n_probes = FAM_COUNT;
	c->cpu0 = self_cpu_seconds();
}

/* The header goes out once the first snapshot is taken: started_at and
 * started_at_monotonic_s are then the instant of the intervals' t = 0,
 * on both clocks, to line up with sysbench's per-second reports and
 * Prometheus samples. */
int capture_run_begin(struct capture_run *c, uint64_t first_mono_ns)
{
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
	capture_format_time(&wall, c->meta.started_at, sizeof(c->meta.started_at));
	c->meta.started_at_monotonic_s = (double)first_mono_ns / 1e9;
	/* record knows its command's pid only once it started it */
	c->meta.load_pid = (int)c->cfg->load_pid;
	return capture_begin(c->w, &c->meta);
}

int capture_run_interval(void *ctx, const struct interval *iv, const struct finding_list *found)
{
	struct capture_run *c = ctx;

	(void)found;   /* the capture keeps the run's findings, merged */
	return capture_add_interval(c->w, iv);
}

int capture_run_finish(struct capture_run *c, const struct collectors *col,
		       const struct session_result *res, const char *stop_reason, bool complete)
{
	struct capture_summary sum = { 0 };
	struct cpu_row *rows = calloc((size_t)col->ncpus, sizeof(*rows));
	char err[512];
	int rc;

	if (!rows) {
		log_err("out of memory; no file written");
		capture_abort(c->w);
		return DBT_EXIT_RUNTIME;
	}
	cpu_rows_compute(&res->first, &res->last, rows);
	sum.complete = complete;
	sum.stop_reason = stop_reason;
	sum.duration_s = res->elapsed_s;
	sum.cpu_pct = res->elapsed_s > 0 ? 100.0 * (self_cpu_seconds() - c->cpu0) / res->elapsed_s : 0;
	sum.max_rss_kb = self_max_rss_kb();
	sum.lost_events = res->lost_events;
	sum.thread_evictions = res->thread_evictions;
	sum.bpf = &res->bpf;
	sum.bpf_why = res->bpf_why;
	sum.ncpus = col->ncpus;
	sum.rows = rows;
	sum.sched = col->on[FAM_SCHED] ? &res->sched : NULL;
	sum.clock = res->clock_hz ? &res->clock : NULL;
	sum.clock_fns = &res->clock_fns;
	sum.clock_hz = res->clock_hz;
	sum.net = res->have_net ? &res->net : NULL;
	sum.loss = res->have_loss ? &res->loss : NULL;
	sum.findings = &res->findings;
	sum.groups = &res->groups;
	rc = capture_finish(c->w, &sum, err, sizeof(err));
	free(rows);
	if (rc) {
		log_err("%s; no file written", err);
		return DBT_EXIT_RUNTIME;
	}
	log_info("wrote %s: %d intervals over %.1f s%s%s", c->out, res->intervals, sum.duration_s,
		 complete ? "" : ", cut short by ", complete ? "" : stop_reason);
	return DBT_EXIT_OK;
}
