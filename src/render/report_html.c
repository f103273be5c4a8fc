#include "render/report_html.h"
#include "render/bpf_cost_text.h"
/* asset_report_css, asset_report_guard_js (in the head: it counts the
 * page's script errors, which a test reads), asset_report_js (at the end:
 * the heatmap, the sortable tables): src/render/report*, compiled in */
#include "render/report_assets.h"
#include "render/report_hosts.h"
#include "render/report_stages.h"
#include "render/report_table.h"
#include "core/vec.h"
#include "model/class_rank.h"
#include "model/hist.h"
#include "model/net_loss.h"
#include "model/softirq_vec.h"
#include "figures/figures.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- text ------------------------------------------------------------- */

#define esc report_esc
#define fmt report_fmt
#define td_num report_td_num
#define td_text report_td_text

/* "64µs", "1.02ms", "2.1s" */
static void fmt_us(char *buf, size_t len, double us)
{
	if (us < 1000)
		snprintf(buf, len, "%.3gµs", us);
	else if (us < 1e6)
		snprintf(buf, len, "%.3gms", us / 1e3);
	else
		snprintf(buf, len, "%.3gs", us / 1e6);
}

/* --- page frame ------------------------------------------------------- */

static void head(FILE *f, const struct capture *c)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width\">\n<title>dbtrace report: ", f);
	esc(f, c->host.hostname[0] ? c->host.hostname : "?");
	fputs(" ", f);
	esc(f, c->started_at);
	fprintf(f, "</title>\n<style>%s</style>\n<script>%s</script>\n</head>\n<body>\n", (const char *)asset_report_css,
		(const char *)asset_report_guard_js);
}

static void header(FILE *f, const struct capture *c, const struct report_opts *o)
{
	char dur[32], ival[32], cpu[32];

	fmt(dur, sizeof(dur), c->duration_s);
	fmt(ival, sizeof(ival), c->interval_s);
	fmt(cpu, sizeof(cpu), c->cpu_pct);
	fputs("<header><h1>dbtrace report: ", f);
	esc(f, c->host.hostname[0] ? c->host.hostname : "?");
	fputs("</h1>\n<p class=\"meta\">capture <b>", f);
	esc(f, c->path);
	fputs("</b>, started <b>", f);
	esc(f, c->started_at);
	fprintf(f, "</b>, <b>%s s</b> in %d intervals of %s s", dur, c->n_intervals, ival);
	if (c->have_complete && !c->complete) {
		/* a stop signal came before the planned duration */
		fputs(", <b>cut short by ", f);
		esc(f, c->stop_reason[0] ? c->stop_reason : "a signal");
		fputs("</b>", f);
	}
	fputs("; kernel <b>", f);
	esc(f, c->host.kernel);
	fprintf(f, "</b>, %d CPUs, clocksource <b>", c->host.cpus);
	esc(f, c->host.clocksource);
	fputs("</b>; dbtrace ", f);
	esc(f, c->version);
	fprintf(f, " used %s%% of a core, %ld KiB, lost %llu events", cpu, c->max_rss_kb,
		(unsigned long long)c->lost_events);
	if (c->bpf.have && c->bpf.measured_s > 0) {
		char bpf[64];

		fprintf(f, "; its programs: <b>%s</b> (<a href=\"#overhead\">per family</a>)",
			bpf_cost_text(&c->bpf.total, bpf, sizeof(bpf)));
	}
	fputs(".</p>\n", f);
	fputs("<p class=\"meta\">probes:", f);
	for (int i = 0; i < c->n_probes; i++) {
		fputs(" ", f);
		esc(f, c->probes[i].family);
		fputs("=<b>", f);
		esc(f, c->probes[i].attach[0] ? c->probes[i].attach : "not attached");
		fputs("</b>", f);
	}
	fputs("</p>\n<p class=\"meta\">kernel command line: <code>", f);
	esc(f, c->host.cmdline);
	fputs("</code></p>\n<nav><a href=\"#findings\">Findings</a><a href=\"#heatmap\">Softirq heatmap</a>"
	      "<a href=\"#cpus\">CPUs</a><a href=\"#classes\">Thread classes</a><a href=\"#net\">Network</a>"
	      "<a href=\"#loss\">Loss</a><a href=\"#clock\">Clock</a><a href=\"#overhead\">dbtrace's cost</a>"
	      "</nav></header>\n", f);
	(void)o;
}

static void absent(FILE *f, const struct capture *c, const char *family, const char *what)
{
	const char *attach = capture_probe_attach(c, family);

	fputs("<p class=\"absent\">No ", f);
	esc(f, what);
	fputs(" in this capture: ", f);
	if (attach && !attach[0])
		fprintf(f, "the %s probes did not attach (see dbtrace probes).", family);
	else
		fputs("the capture does not have this section.", f);
	fputs("</p>\n", f);
}

/* --- findings --------------------------------------------------------- */

static void findings(FILE *f, const struct capture *c)
{
	fprintf(f, "<section id=\"findings\"><h2>Findings (%d)</h2>\n", c->findings.n);
	if (!c->findings.n)
		fputs("<p>No findings: none of dbtrace's rules held in this capture.</p>\n", f);
	for (int sev = SEV_CRITICAL; sev >= SEV_INFO; sev--) {
		for (int i = 0; i < c->findings.n; i++) {
			const struct finding *x = &c->findings.items[i];
			const char *sn = finding_severity_name(x->severity);

			if ((int)x->severity != sev)
				continue;
			fprintf(f, "<article class=\"finding sev-%s\" data-id=\"", sn);
			esc(f, x->id);
			fprintf(f, "\"><h3><span class=\"badge b-%s\">%s</span>", sn, sn);
			esc(f, x->title);
			fputs("</h3>\n<p class=\"meta\">id <b>", f);
			esc(f, x->id);
			fputs("</b>", f);
			if (x->pid)
				fprintf(f, ", pid <b>%d</b>", x->pid);
			if (x->class_name[0]) {
				fputs(", about <b>", f);
				esc(f, x->class_name);
				fputs("</b>", f);
			}
			if (x->first_interval < 0)
				fputs(", over the whole capture", f);
			else
				fprintf(f, ", held in intervals %d to %d", x->first_interval, x->last_interval);
			fputs("</p>\n<dl class=\"ev\">", f);
			for (int k = 0; k < x->n_ev; k++) {
				char num[32];

				fputs("<div><dt>", f);
				esc(f, x->ev[k].key);
				fputs("</dt><dd>", f);
				if (x->ev[k].is_text) {
					esc(f, x->ev[k].text);
				} else {
					fmt(num, sizeof(num), x->ev[k].num);
					fputs(num, f);
				}
				fputs("</dd></div>", f);
			}
			fputs("</dl>\n", f);
			if (x->hint[0]) {
				fputs("<p class=\"hint\">", f);
				esc(f, x->hint);
				fputs("</p>\n", f);
			}
			fputs("</article>\n", f);
		}
	}
	fputs("</section>\n", f);
}

/* --- heatmap ------------------------------------------------------------ */

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

/* The CPUs any interval lists, sorted. */
static int heat_cpus(const struct capture *c, int **out)
{
	int n = 0, *v = NULL;
	size_t cap = 0;

	for (int i = 0; i < c->n_intervals; i++)
		for (int k = 0; k < c->intervals[i].n_cpus; k++) {
			int cpu = c->intervals[i].cpus[k].cpu, seen = 0;

			for (int j = 0; j < n && !seen; j++)
				seen = v[j] == cpu;
			if (seen)
				continue;
			if (VEC_RESERVE(v, cap, (size_t)n + 1)) {
				free(v);
				return -ENOMEM;
			}
			v[n++] = cpu;
		}
	/* no interval with a CPU: v is NULL, which qsort must not get */
	if (n > 1)
		qsort(v, (size_t)n, sizeof(*v), cmp_int);
	*out = v;
	return n;
}

static double interval_value(const struct capture_interval *iv, int cpu, int vec)
{
	for (int k = 0; k < iv->n_cpus; k++)
		if (iv->cpus[k].cpu == cpu)
			return vec < 0 ? iv->cpus[k].softirq_total_pct : iv->cpus[k].softirq_pct[vec];
	return NAN;
}

/* One series: per column (intervals averaged into it), per CPU. */
static double heat_series(FILE *f, const struct capture *c, const int *cpus, int ncpu, int cols, int vec)
{
	double max = 0;

	fputc('[', f);
	for (int col = 0; col < cols; col++) {
		int from = (int)((long)col * c->n_intervals / cols);
		int to = (int)((long)(col + 1) * c->n_intervals / cols);

		fprintf(f, "%s[", col ? "," : "");
		for (int k = 0; k < ncpu; k++) {
			double sum = 0;
			int n = 0;

			for (int i = from; i < to; i++) {
				double v = interval_value(&c->intervals[i], cpus[k], vec);

				if (isfinite(v)) {
					sum += v;
					n++;
				}
			}
			if (n) {
				sum /= n;
				max = sum > max ? sum : max;
				fprintf(f, "%s%.2f", k ? "," : "", sum);
			} else {
				fprintf(f, "%snull", k ? "," : "");
			}
		}
		fputc(']', f);
	}
	fputc(']', f);
	return max;
}

static bool vec_used(const struct capture *c, int vec)
{
	for (int i = 0; i < c->n_intervals; i++)
		for (int k = 0; k < c->intervals[i].n_cpus; k++)
			if (c->intervals[i].cpus[k].softirq_pct[vec] > 0.005f)
				return true;
	return false;
}

static int heatmap(FILE *f, const struct capture *c)
{
	double max[DBT_SOFTIRQ_VECS + 1];
	bool used[DBT_SOFTIRQ_VECS];
	int *cpus = NULL, ncpu, cols;
	bool any = false;

	fputs("<section id=\"heatmap\"><h2>Softirq share per CPU over time</h2>\n", f);
	for (int i = 0; i < c->n_cpus; i++)
		any |= c->cpus[i].have_sirq;
	if (!any || !c->n_intervals) {
		if (!any)
			absent(f, c, "softirq", "softirq times");
		else
			fputs("<p class=\"absent\">The capture has no intervals.</p>\n", f);
		fputs("</section>\n", f);
		return 0;
	}
	ncpu = heat_cpus(c, &cpus);
	if (ncpu < 0)
		return ncpu;
	cols = c->n_intervals < REPORT_HEAT_COLUMNS ? c->n_intervals : REPORT_HEAT_COLUMNS;
	fprintf(f, "<p>Share of wall time each CPU spent in softirq handlers, per interval%s. "
		"Concentration on a few CPUs next to idle ones is the NIC-interrupt misbinding "
		"pattern.</p>\n", cols < c->n_intervals ? " (intervals averaged into columns)" : "");
	fputs("<p><label>vector <select id=\"heat-vector\"><option value=\"total\">total</option>", f);
	for (int v = 0; v < DBT_SOFTIRQ_VECS; v++) {
		used[v] = vec_used(c, v);
		if (used[v])
			fprintf(f, "<option value=\"%s\">%s</option>", softirq_vec_key(v), softirq_vec_key(v));
	}
	fputs("</select></label> <span id=\"heat-legend\"></span></p>\n"
	      "<div id=\"heat-wrap\"><canvas id=\"heat-canvas\" width=\"600\" height=\"100\"></canvas>"
	      "<div id=\"heat-tip\"></div></div>\n<noscript>The heatmap needs JavaScript; the per-CPU "
	      "table below has the same numbers over the whole capture.</noscript>\n"
	      "<script type=\"application/json\" id=\"heat-data\">{\"cpus\":[", f);
	for (int k = 0; k < ncpu; k++)
		fprintf(f, "%s%d", k ? "," : "", cpus[k]);
	fputs("],\"t\":[", f);
	for (int col = 0; col < cols; col++) {
		int last = (int)((long)(col + 1) * c->n_intervals / cols) - 1;
		double t = c->intervals[last].t;

		fprintf(f, "%s%.3f", col ? "," : "", isfinite(t) ? t : (double)last);
	}
	fputs("],\"series\":{\"total\":", f);
	max[DBT_SOFTIRQ_VECS] = heat_series(f, c, cpus, ncpu, cols, -1);
	for (int v = 0; v < DBT_SOFTIRQ_VECS; v++) {
		if (!used[v])
			continue;
		fprintf(f, ",\"%s\":", softirq_vec_key(v));
		max[v] = heat_series(f, c, cpus, ncpu, cols, v);
	}
	fprintf(f, "},\"max\":{\"total\":%.2f", max[DBT_SOFTIRQ_VECS]);
	for (int v = 0; v < DBT_SOFTIRQ_VECS; v++)
		if (used[v])
			fprintf(f, ",\"%s\":%.2f", softirq_vec_key(v), max[v]);
	fputs("}}</script>\n</section>\n", f);
	free(cpus);
	return 0;
}

/* --- tables ----------------------------------------------------------- */

/* A row's own cells, then its figures' (render/report_table.h). */
static void table_row(FILE *f, const char *tr, const struct fig_table *const *tables, const struct report_col *cols,
		      int n, const struct report_own *own, const void *const *rows, const void *ctx)
{
	fputs(tr, f);
	report_table_cells(f, tables, cols, n, own, rows, ctx);
	fputs("</tr>\n", f);
}

static void cpu_table(FILE *f, const struct capture *c)
{
	static const struct report_own_col own[] = { { "CPU", 10, false, 0 } };
	const struct fig_table *const tables[] = { &fig_cpus };
	struct report_col cols[REPORT_TABLE_COLS];
	bool used[DBT_SOFTIRQ_VECS] = { false };
	int n = report_table_cols(own, 1, tables, 1, cols);

	fputs("<section id=\"cpus\"><h2>Per CPU over the whole capture</h2>\n", f);
	for (int i = 0; i < c->n_cpus; i++)
		for (int v = 0; v < DBT_SOFTIRQ_VECS; v++)
			used[v] |= c->cpus[i].softirq_pct[v] > 0.005;
	fputs("<table id=\"cpu-table\">", f);
	fputs("<thead><tr>", f);
	for (int i = 0; i < n; i++)
		fprintf(f, "<th class=\"sortable\">%s</th>", cols[i].title);
	/* the vectors any CPU spent time in, each a column */
	for (int v = 0; v < DBT_SOFTIRQ_VECS; v++)
		if (used[v])
			fprintf(f, "<th class=\"sortable\">%s %%</th>", softirq_vec_key(v));
	fputs("</tr></thead>\n<tbody>\n", f);
	for (int i = 0; i < c->n_cpus; i++) {
		const struct cpu_row *r = &c->cpus[i];
		const struct report_own o = { .num = { r->cpu } };
		const void *rows[] = { r };

		fputs("<tr>", f);
		report_table_cells(f, tables, cols, n, &o, rows, NULL);
		for (int v = 0; v < DBT_SOFTIRQ_VECS; v++)
			if (used[v])
				td_num(f, r->softirq_pct[v]);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n</section>\n", f);
}

/* A class row's own columns: its group's pid and name, its name, and
 * the group's allowed CPUs (num 0, text 0-2). */
static struct report_own class_own(const struct sched_group_stats *g, const struct sched_class_stats *c)
{
	return (struct report_own){ { g->pid, c->threads }, { g->comm, c->name, g->cpus_allowed } };
}

/* What the "other" row holds, for its tooltip. */
static const char *other_title(const struct class_ranking *r)
{
	bool busy = r->n > r->shown && class_worth_showing(r->row[r->shown].cls);

	/* the first folded is the busiest of them */
	return busy ? "the classes past --top-n and those on a CPU or waiting for one under 0.5% of the time"
		    : "the classes on a CPU or waiting for one under 0.5% of the time";
}

/* A table's rows of ranked classes: the shown ones, then the "other"
 * row, which a click unfolds into the rows it folds (report.js), those
 * after it. */
static void class_rows(FILE *f, const struct class_ranking *r, const struct fig_table *const *tables,
		       const struct report_col *cols, int n)
{
	for (int i = 0; i < r->n; i++) {
		const struct report_own o = class_own(r->row[i].group, r->row[i].cls);
		const void *rows[] = { r->row[i].cls };

		if (i == r->shown) {
			const struct report_own other = { { NAN, r->other.threads }, { "", r->other.name, "" } };
			const void *orow[] = { &r->other };

			fprintf(f, "<tr class=\"other\" title=\"%s: a click shows them\">", other_title(r));
			report_table_cells(f, tables, cols, n, &other, orow, NULL);
			fputs("</tr>\n", f);
		}
		table_row(f, i < r->shown ? "<tr>" : "<tr class=\"folded\">", tables, cols, n, &o, rows, NULL);
	}
}

static int class_table(FILE *f, const struct capture *c, int top_n, bool all)
{
	static const struct report_own_col own[] = {
		{ "pid", 10, false, 0 }, { "process", 20, true, 0 }, { "class", 30, true, 1 },
		{ "CPUs allowed", 160, true, 2 },
	};
	const struct fig_table *const tables[] = { &fig_classes };
	struct report_col cols[REPORT_TABLE_COLS];
	int n = report_table_cols(own, (int)(sizeof(own) / sizeof(own[0])), tables, 1, cols), err;
	struct class_ranking r;

	fputs("<section id=\"classes\"><h2>Thread classes</h2>\n", f);
	if (!c->have_sched) {
		absent(f, c, "sched", "scheduler numbers");
		fputs("</section>\n", f);
		return 0;
	}
	err = class_rank(c->sched.groups, c->sched.n_groups, false, top_n, all, &r);
	if (err)
		return err;
	fputs("<p>Per process and thread class over the whole capture (threads grouped by name), the "
	      "busiest first: by thread-seconds on a CPU and waiting for one (runnable). "
	      "User and system % split the on-CPU % (of a core) as /proc's utime and stime do. "
	      "Involuntary switches and run-queue delay with more runnable threads than allowed "
	      "CPUs mean oversubscription. Click a column to sort.</p>\n<table id=\"class-table\">", f);
	report_table_head(f, cols, n);
	class_rows(f, &r, tables, cols, n);
	fputs("</tbody></table>\n", f);
	if (c->processes_omitted > 0)
		fprintf(f, "<p class=\"meta\">%d less busy processes not shown.</p>\n", c->processes_omitted);
	fputs("</section>\n", f);
	class_ranking_free(&r);
	return 0;
}

/* --- the wall-time budget over time ------------------------------------- */

/* One colour per state (model/class_time.h order). */
static const char *const state_colour[CT_STATES] = {
	"#2e7d32", "#f9a825", "#8e24aa", "#c62828", "#1565c0", "#6d4c41", "#90a4ae", "#00838f", "#455a64",
};

/* The classes a chart draws, sorted by pid and name for the lookups. */
static int by_pid_name(const void *a, const void *b)
{
	const struct class_row *x = a, *y = b;

	if (x->group->pid != y->group->pid)
		return x->group->pid < y->group->pid ? -1 : 1;
	return strcmp(x->cls->name, y->cls->name);
}

/* bsearch: an interval's class against the rows */
static int interval_class_cmp(const void *key, const void *row)
{
	const struct capture_interval_class *ic = key;
	const struct class_row *r = row;

	if (ic->pid != r->group->pid)
		return ic->pid < r->group->pid ? -1 : 1;
	return strcmp(ic->name, r->cls->name);
}

static bool charted(const struct capture_interval_class *ic, const struct class_row *rows, int n)
{
	return bsearch(ic, rows, (size_t)n, sizeof(*rows), interval_class_cmp) != NULL;
}

/* The states' shares in one interval of the classes of rows (sorted by
 * by_pid_name): one class's own, or the budget of several as one, by
 * their thread-seconds. false: none of them was in the interval. */
static bool interval_shares(const struct capture_interval *iv, const struct class_row *rows, int n, float *pct)
{
	double sum[CT_STATES] = { 0 }, weight = 0;
	int found = 0;

	for (int i = 0; i < iv->n_classes; i++) {
		const struct capture_interval_class *ic = &iv->classes[i];
		double w;

		if (!charted(ic, rows, n))
			continue;
		/* a capture without the thread-seconds: the classes alike */
		w = ic->thread_s > 0 ? ic->thread_s : 1;
		if (n == 1) {
			memcpy(pct, ic->pct, sizeof(ic->pct));
			return true;
		}
		for (int st = 0; st < CT_STATES; st++)
			sum[st] += isfinite(ic->pct[st]) ? ic->pct[st] * w : 0;
		weight += w;
		found++;
	}
	for (int st = 0; found && st < CT_STATES; st++)
		pct[st] = (float)(sum[st] / weight);
	return found > 0;
}

/* A budget per interval, of one class or of the classes folded into the
 * "other" row (rows, sorted by by_pid_name): one column each, its states
 * stacked bottom (on CPU) to top, 100% high; an interval without the
 * class stays empty. */
static void time_bars(FILE *f, const struct capture *c, const char *figure, const struct class_row *rows, int n,
		      const char *caption)
{
	const int h = 80, bw = c->n_intervals > 60 ? 4 : 10;

	fprintf(f, "%s<figcaption>", figure);
	if (caption) {
		esc(f, caption);
	} else {
		esc(f, rows[0].group->comm);
		fprintf(f, " (pid %d) / ", rows[0].group->pid);
		esc(f, rows[0].cls->name);
	}
	fprintf(f, "</figcaption><svg class=\"time\" width=\"%d\" height=\"%d\" role=\"img\">",
		c->n_intervals * bw + 2, h + 2);
	for (int i = 0; i < c->n_intervals; i++) {
		float pct[CT_STATES];
		double y = h + 1;

		if (!interval_shares(&c->intervals[i], rows, n, pct))
			continue;
		for (int st = 0; st < CT_STATES; st++) {
			double hh = isfinite(pct[st]) ? pct[st] / 100.0 * h : 0;

			if (hh <= 0)
				continue;
			y -= hh;
			fprintf(f, "<rect x=\"%d\" y=\"%.2f\" width=\"%d\" height=\"%.2f\" fill=\"%s\">"
				"<title>t=%.0fs %s %.1f%%</title></rect>",
				1 + i * bw, y, bw - 1, hh, state_colour[st], c->intervals[i].t,
				class_state_name(st), pct[st]);
		}
	}
	fputs("</svg></figure>\n", f);
}

/* Blocked on what, over the whole capture: each class's states, the
 * syscalls behind its other-syscall time, and the futex word it waited
 * on longest with the futex waits' percentiles. */
static void blocked_table(FILE *f, const struct class_ranking *r)
{
	static const struct report_own_col own[] = {
		{ "pid", 10, false, 0 }, { "process", 20, true, 0 }, { "class", 30, true, 1 },
		{ "threads", 40, false, 1 },
	};
	const struct fig_table *const tables[] = { &fig_time };
	struct report_col cols[REPORT_TABLE_COLS];
	int n = report_table_cols(own, (int)(sizeof(own) / sizeof(own[0])), tables, 1, cols);

	fputs("<h3>Blocked on what</h3>\n<p>Each class's share of its thread-seconds over the whole "
	      "capture. The futex word is the one its threads waited on longest: near 100% of the futex "
	      "time, they queue on one lock.</p>\n<table id=\"blocked-table\">", f);
	report_table_head(f, cols, n);
	class_rows(f, r, tables, cols, n);
	fputs("</tbody></table>\n", f);
}

static int time_section(FILE *f, const struct capture *c, int top_n, bool all)
{
	struct class_row *folded;
	struct class_ranking r;
	int err, n_folded;

	fputs("<section id=\"time\"><h2>Where each class's time goes</h2>\n", f);
	if (!c->have_sched) {
		absent(f, c, "sched", "the wall-time budget");
		fputs("</section>\n", f);
		return 0;
	}
	err = class_rank(c->sched.groups, c->sched.n_groups, true, top_n, all, &r);
	if (err)
		return err;
	n_folded = r.n - r.shown;
	folded = malloc(sizeof(*folded) * (size_t)(n_folded ? n_folded : 1));
	if (!folded) {
		class_ranking_free(&r);
		return -ENOMEM;
	}
	memcpy(folded, r.row + r.shown, sizeof(*folded) * (size_t)n_folded);
	qsort(folded, (size_t)n_folded, sizeof(*folded), by_pid_name);
	fputs("<p>Each thread class's thread-seconds per interval, split by state (100% = all its "
	      "threads for the whole interval), the busiest first:", f);
	for (int st = 0; st < CT_STATES; st++)
		fprintf(f, " <span style=\"color:%s\">&#9632;</span> %s", state_colour[st], class_state_name(st));
	fputs(".</p>\n<div class=\"hists\">", f);
	for (int i = 0; i < r.n; i++) {
		if (i == r.shown) {
			char fig[160];

			snprintf(fig, sizeof(fig), "<figure class=\"other\" title=\"the %d classes of the row "
				 "&quot;other&quot; of the tables, as one: a click shows them\">", n_folded);
			time_bars(f, c, fig, folded, n_folded, r.other.name);
		}
		time_bars(f, c, i < r.shown ? "<figure>" : "<figure class=\"folded\">", &r.row[i], 1, NULL);
	}
	fputs("</div>\n", f);
	blocked_table(f, &r);
	fputs("</section>\n", f);
	free(folded);
	class_ranking_free(&r);
	return 0;
}

/* --- histograms --------------------------------------------------------- */

/* A fine histogram (dbtrace/hist.h, ns) as bars between the first and
 * the last non-empty bucket, at least 8 buckets wide: one bar per bucket
 * while that fits 260 bars, else per run of adjacent buckets. The caption
 * counts what was measured (count unit: "113728 requests"); the weighted
 * sample under load only approximates that count, and `timed` says how
 * many were really timed. */
static void svg_hist(FILE *f, const char *caption, const char *id, const __u64 *slots,
		     uint64_t count, const char *unit, double p50, double p99, uint64_t timed)
{
	uint64_t total = hist_total(slots, DBT_HIST_BUCKETS), top = 0;
	int lo = -1, hi = -1, n, group, bars, bw, h = 110, base = 118, label_every;
	char a[32], b[32];

	for (int i = 0; i < DBT_HIST_BUCKETS; i++)
		if (slots[i]) {
			lo = lo < 0 ? i : lo;
			hi = i;
		}
	if (!total)
		return;
	while (hi - lo + 1 < 8) {
		if (lo > 0)
			lo--;
		if (hi - lo + 1 < 8 && hi < DBT_HIST_BUCKETS - 1)
			hi++;
	}
	n = hi - lo + 1;
	group = (n + 259) / 260;
	bars = (n + group - 1) / group;
	bw = 780 / bars;
	bw = bw > 26 ? 26 : bw < 3 ? 3 : bw;
	label_every = (70 + bw - 1) / bw;
	for (int k = 0; k < bars; k++) {
		uint64_t sum = 0;

		for (int i = lo + k * group; i <= hi && i < lo + (k + 1) * group; i++)
			sum += slots[i];
		top = sum > top ? sum : top;
	}
	fmt_us(a, sizeof(a), p50);
	fmt_us(b, sizeof(b), p99);
	fprintf(f, "<figure class=\"histfig\" id=\"%s\"><figcaption>", id);
	esc(f, caption);
	fprintf(f, "<br><small>%llu %s; p50 %s, p99 %s", (unsigned long long)count,
		unit, isfinite(p50) ? a : "-", isfinite(p99) ? b : "-");
	if (timed && timed < total)
		fprintf(f, "; sampled: %llu timed, weighted", (unsigned long long)timed);
	fputs("</small></figcaption>\n", f);
	fprintf(f, "<svg class=\"hist\" width=\"%d\" height=\"%d\" role=\"img\" data-total=\"%llu\">",
		bars * bw + 40, base + 18, (unsigned long long)total);
	for (int k = 0; k < bars; k++) {
		int first = lo + k * group, last = first + group - 1 > hi ? hi : first + group - 1;
		int x = 5 + k * bw, bh;
		uint64_t sum = 0;
		char low[32], high[32];

		for (int i = first; i <= last; i++)
			sum += slots[i];
		bh = top ? (int)((double)sum * h / (double)top + 0.5) : 0;
		fmt_us(low, sizeof(low), (double)dbt_hist_low((__u32)first) / 1000.0);
		fmt_us(high, sizeof(high), (double)dbt_hist_high((__u32)last) / 1000.0);
		if (sum && bh < 1)
			bh = 1;
		fprintf(f, "<rect class=\"bar\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"><title>[%s, %s) µs: "
			"%llu (%.1f%%)</title></rect>", x, base - bh, bw > 3 ? bw - 1 : bw, bh, low, high,
			(unsigned long long)sum, 100.0 * (double)sum / (double)total);
		if (k % label_every == 0)
			fprintf(f, "<text x=\"%d\" y=\"%d\">%s</text>", x, base + 12, low);
	}
	fputs("</svg></figure>\n", f);
}

static void net_section(FILE *f, const struct capture *c, int top_n)
{
	static const struct report_own_col dev_own[] = {
		{ "device", 10, true, 0 }, { "netns", 20, true, 1 }, { "qdisc", 30, true, 2 },
	};
	static const struct report_own_col port_own[] = { { "port", 10, false, 0 }, { "role", 20, true, 0 } };
	const struct fig_table *const dev_tables[] = { &fig_devices }, *const port_tables[] = { &fig_ports };
	struct report_col dcols[REPORT_TABLE_COLS], pcols[REPORT_TABLE_COLS];
	const struct net_interval *ni = &c->net;
	int nd = ni->n_devs < top_n ? ni->n_devs : top_n, np = ni->n_ports < top_n ? ni->n_ports : top_n;
	int ndc = report_table_cols(dev_own, 3, dev_tables, 1, dcols);
	int npc = report_table_cols(port_own, 2, port_tables, 1, pcols);

	fputs("<section id=\"net\"><h2>Network</h2>\n", f);
	if (!c->have_net) {
		absent(f, c, "net", "network numbers");
		fputs("</section>\n", f);
		return;
	}
	fputs("<h3>Devices</h3>\n<table id=\"dev-table\">", f);
	report_table_head(f, dcols, ndc);
	for (int i = 0; i < nd; i++) {
		const struct net_dev_stats *d = &ni->devs[i];
		const struct report_own o = { { 0 }, { d->name, d->foreign ? d->netns_name : "",
						      d->qdisc_text[0] ? d->qdisc_text : "?" } };
		const void *rows[] = { d };

		table_row(f, "<tr>", dev_tables, dcols, ndc, &o, rows, NULL);
	}
	fputs("</tbody></table>\n<h3>Service ports</h3>\n", f);
	if (!np)
		fputs("<p>No port had a request or a read in the capture.</p>\n", f);
	else {
		fputs("<table id=\"port-table\">", f);
		report_table_head(f, pcols, npc);
		for (int i = 0; i < np; i++) {
			const struct net_port_stats *p = &ni->ports[i];
			const struct report_own o = { { p->port }, { net_role_name(p->role) } };
			const void *rows[] = { p };

			table_row(f, "<tr>", port_tables, pcols, npc, &o, rows, NULL);
		}
		fputs("</tbody></table>\n", f);
		report_stage_bars(f, ni, np);
	}
	fputs("<h3>Latency histograms</h3>\n", f);
	if (!c->have_net_hist) {
		fputs("<p class=\"absent\">This capture predates the histograms (it has only the "
		      "percentiles above).</p>\n</section>\n", f);
		return;
	}
	fputs("<p>Log-linear buckets as the kernel keeps them (32 per power of two); hover a bar "
	      "for its range and count.</p>\n"
	      "<div class=\"hists\">\n", f);
	for (int i = 0; i < nd; i++) {
		const struct net_dev_stats *d = &ni->devs[i];
		char cap[160], id[64];

		snprintf(cap, sizeof(cap), "tx queue: %s%s%s", d->name, d->foreign ? "@" : "",
			 d->foreign ? d->netns_name : "");
		snprintf(id, sizeof(id), "hist-txq-%d", i);
		svg_hist(f, cap, id, d->txq_hist, d->txq_samples, "samples", d->txq_p50_us,
			 d->txq_p99_us, d->txq_timed);
	}
	for (int i = 0; i < np; i++) {
		const struct net_port_stats *p = &ni->ports[i];
		char cap[96], id[64];

		snprintf(cap, sizeof(cap), "response time: %u/%s", p->port, net_role_name(p->role));
		snprintf(id, sizeof(id), "hist-resp-%d", i);
		svg_hist(f, cap, id, p->resp_hist, p->requests, "requests", p->resp_p50_us,
			 p->resp_p99_us, p->resp_timed);
		snprintf(cap, sizeof(cap), "rx queue: %u/%s", p->port, net_role_name(p->role));
		snprintf(id, sizeof(id), "hist-rxq-%d", i);
		svg_hist(f, cap, id, p->rxq_hist, p->reads, "reads", p->rxq_p50_us, p->rxq_p99_us,
			 p->rxq_timed);
	}
	fputs("</div>\n</section>\n", f);
}

static void clock_section(FILE *f, const struct capture *c, int top_n)
{
	static const struct report_own_col own[] = {
		{ "pid", 10, false, 0 }, { "process", 20, true, 0 }, { "class", 30, true, 1 },
	};
	const struct fig_table *const tables[] = { &fig_clock };
	struct report_col cols[REPORT_TABLE_COLS];
	int shown = c->clock.n_groups < top_n ? c->clock.n_groups : top_n;
	int n = report_table_cols(own, (int)(sizeof(own) / sizeof(own[0])), tables, 1, cols);

	fputs("<section id=\"clock\"><h2>Clock reads</h2>\n", f);
	if (!c->have_clock) {
		absent(f, c, "clock", "clock numbers");
		fputs("</section>\n", f);
		return;
	}
	fprintf(f, "<p>CPU samples at %u Hz per CPU (%llu samples, %llu idle): the share in the "
		"vDSO's clock functions and in clock system calls. Clocksource <b>", c->clock_hz,
		(unsigned long long)c->clock.samples, (unsigned long long)c->clock.idle_samples);
	esc(f, c->host.clocksource);
	fputs("</b>.</p>\n<table id=\"clock-table\">", f);
	report_table_head(f, cols, n);
	for (int i = 0; i < shown; i++) {
		const struct clock_group_stats *g = &c->clock.groups[i];

		for (int k = -1; k < g->n_classes; k++) {
			const struct clock_stats *s = k < 0 ? &g->total : &g->classes[k];
			const struct report_own o = { { g->pid }, { g->comm, k < 0 ? "(process)" : s->name } };
			const void *rows[] = { s };

			table_row(f, k < 0 ? "<tr class=\"proc\">" : "<tr>", tables, cols, n, &o, rows,
				  &c->clock_fns);
		}
	}
	fputs("</tbody></table>\n</section>\n", f);
}

/* What dbtrace's own BPF programs cost, per family and together. */
static void overhead_section(FILE *f, const struct capture *c)
{
	static const struct report_own_col own[] = { { "family", 1, true, 0 } };
	const struct fig_table *const tables[] = { &fig_bpf };
	struct report_col cols[REPORT_TABLE_COLS];
	int n = report_table_cols(own, 1, tables, 1, cols);
	char on[32], dur[32];

	fputs("<section id=\"overhead\"><h2>dbtrace's own cost</h2>\n", f);
	if (!c->bpf.have || !(c->bpf.measured_s > 0)) {
		fputs("<p>Its BPF programs' run time was not measured", f);
		if (c->bpf.error[0]) {
			fputs(": ", f);
			esc(f, c->bpf.error);
		}
		fputs(".</p>\n</section>\n", f);
		return;
	}
	fmt(on, sizeof(on), c->bpf.measured_s);
	fmt(dur, sizeof(dur), c->duration_s);
	fprintf(f, "<p>Its BPF programs' run time as the kernel counts it while its run-time statistics are "
		"on (%s s of the capture's %s s, a part of each interval), charged to whatever task an event "
		"interrupted. The loader itself is in the header.</p>\n<table id=\"overhead-table\">", on, dur);
	report_table_head(f, cols, n);
	for (int i = 0; i < c->bpf.n; i++) {
		const struct report_own o = { .text = { dbt_family_names[c->bpf.fams[i].family] } };
		const void *rows[] = { &c->bpf.fams[i] };

		table_row(f, "<tr>", tables, cols, n, &o, rows, NULL);
	}
	{
		const struct report_own o = { .text = { "all" } };
		const void *rows[] = { &c->bpf.total };

		table_row(f, "<tr class=\"proc\">", tables, cols, n, &o, rows, NULL);
	}
	fputs("</tbody></table>\n</section>\n", f);
}

/* The loss family: retransmits per port, drops by reason and place,
 * accept queues, softnet backlog drops per CPU. */
static void loss_section(FILE *f, const struct capture *c, int top_n)
{
	static const struct report_own_col retx_own[] = {
		{ "port", 10, false, 0 }, { "role", 20, true, 0 }, { "requests", 30, false, 1 },
	};
	static const struct report_own_col cpu_own[] = { { "cpu", 10, false, 0 } };
	const struct fig_table *const retx_t[] = { &fig_port_loss }, *const drop_t[] = { &fig_drops };
	const struct fig_table *const lis_t[] = { &fig_listeners }, *const softnet_t[] = { &fig_softnet };
	struct report_col cols[REPORT_TABLE_COLS];
	const struct report_own none = { .num = { 0 } };
	const struct net_interval *ni = &c->net;
	const struct loss_interval *li = &c->loss;
	int shown = 0, n;

	fputs("<section id=\"loss\"><h2>Loss: retransmits, drops, queues</h2>\n", f);
	if (!c->have_loss) {
		absent(f, c, "loss", "retransmit and drop numbers");
		fputs("</section>\n", f);
		return;
	}
	fputs("<h3>Retransmits per service port</h3>\n<table id=\"retx-table\">", f);
	n = report_table_cols(retx_own, 3, retx_t, 1, cols);
	report_table_head(f, cols, n);
	for (int i = 0; ni->port_loss && i < ni->n_ports && shown < top_n; i++) {
		const struct net_port_loss *l = &ni->port_loss[i];
		const struct report_own o = { { ni->ports[i].port, (double)ni->ports[i].requests },
					      { net_role_name(ni->ports[i].role) } };
		const void *rows[] = { l };

		if (!l->retrans && !l->drops)
			continue;
		shown++;
		table_row(f, "<tr>", retx_t, cols, n, &o, rows, NULL);
	}
	fputs("</tbody></table>\n", f);
	fprintf(f, "<h3>Drops by reason</h3>\n<p>%llu packets dropped in the capture.</p>\n"
		"<table id=\"drop-table\">", (unsigned long long)li->drops_total);
	n = report_table_cols(NULL, 0, drop_t, 1, cols);
	report_table_head(f, cols, n);
	for (int i = 0; i < li->n_drops && i < top_n; i++) {
		const void *rows[] = { &li->drops[i] };

		table_row(f, "<tr>", drop_t, cols, n, &none, rows, NULL);
	}
	fputs("</tbody></table>\n<h3>Listening ports</h3>\n<table id=\"listener-table\">", f);
	n = report_table_cols(NULL, 0, lis_t, 1, cols);
	report_table_head(f, cols, n);
	for (int i = 0; i < li->n_listeners && i < top_n; i++) {
		const void *rows[] = { &li->listeners[i] };

		table_row(f, "<tr>", lis_t, cols, n, &none, rows, NULL);
	}
	fputs("</tbody></table>\n<h3>Receive backlog per CPU</h3>\n<table id=\"softnet-table\">", f);
	n = report_table_cols(cpu_own, 1, softnet_t, 1, cols);
	report_table_head(f, cols, n);
	for (int i = 0; i < li->n_cpus; i++) {
		const struct report_own o = { .num = { li->cpus[i].cpu } };
		const void *rows[] = { &li->cpus[i] };

		table_row(f, "<tr>", softnet_t, cols, n, &o, rows, NULL);
	}
	fputs("</tbody></table>\n</section>\n", f);
}

/* This capture's ports joined with the other hosts' (render/report_hosts.h). */
static void hosts_section(FILE *f, const struct capture *c, const struct report_opts *o)
{
	const struct capture *caps[DBT_JOIN_HOSTS] = { c };
	int n = 1;

	for (int i = 0; o && i < o->n_others && n < DBT_JOIN_HOSTS; i++)
		caps[n++] = o->others[i];
	report_hosts_section(f, caps, n);
}

int report_html_write(FILE *f, const struct capture *c, const struct report_opts *o)
{
	int top_n = o && o->top_n > 0 ? o->top_n : 20, err;
	bool all = o && o->all;

	head(f, c);
	header(f, c, o);
	fputs("<main>\n", f);
	findings(f, c);
	err = heatmap(f, c);
	if (err)
		return err;
	cpu_table(f, c);
	err = class_table(f, c, top_n, all) ?: time_section(f, c, top_n, all);
	if (err)
		return err;
	net_section(f, c, top_n);
	hosts_section(f, c, o);
	loss_section(f, c, top_n);
	clock_section(f, c, top_n);
	overhead_section(f, c);
	fputs("</main>\n<footer class=\"meta\"><p>Written by ", f);
	esc(f, o && o->generator ? o->generator : "dbtrace");
	fprintf(f, ". Self-contained: no external resources.</p></footer>\n<script>%s</script>\n"
		"</body></html>\n", (const char *)asset_report_js);
	return ferror(f) ? -EIO : 0;
}
