/* The HTML report: self-contained (no URL, no external resource, a CSP
 * that forbids fetching), every section of a capture present, the
 * heatmap's embedded data equal to the capture's time series (averaged
 * into at most REPORT_HEAT_COLUMNS columns), absent families said so,
 * and capture strings escaped. Headless Chromium renders it in
 * tests/bats/report.bats. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "render/report_html.h"

#define CAPS FIXTURES "/captures/"

static char *render_with(const struct capture *c, int top_n, bool all)
{
	struct report_opts o = { .top_n = top_n, .all = all, .generator = "dbtrace test" };
	char *text;
	size_t len;
	FILE *f = open_memstream(&text, &len);

	assert_int_equal(report_html_write(f, c, &o), 0);
	fclose(f);
	return text;
}

static char *render(const struct capture *c)
{
	return render_with(c, 20, false);
}

static int count(const char *text, const char *needle)
{
	int n = 0;

	for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

static json_object *heat_data(const char *html)
{
	const char *start = strstr(html, "id=\"heat-data\">"), *end;
	char *json;
	json_object *o;

	assert_non_null(start);
	start += strlen("id=\"heat-data\">");
	end = strstr(start, "</script>");
	assert_non_null(end);
	json = strndup(start, (size_t)(end - start));
	o = json_tokener_parse(json);
	free(json);
	assert_non_null(o);
	return o;
}

static void assert_self_contained(const char *html)
{
	assert_non_null(strstr(html, "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';"));
	assert_null(strstr(html, "http://"));
	assert_null(strstr(html, "https://"));
	assert_null(strstr(html, " src="));
	assert_null(strstr(html, "url("));
	assert_null(strstr(html, "@import"));
	/* the only links are in-page anchors */
	for (const char *p = strstr(html, "href=\""); p; p = strstr(p + 1, "href=\""))
		assert_int_equal(p[6], '#');
	assert_int_equal(count(html, "<section"), count(html, "</section>"));
	assert_int_equal(count(html, "<table"), count(html, "</table>"));
	assert_int_equal(count(html, "<svg"), count(html, "</svg>"));
	assert_int_equal(count(html, "<script"), count(html, "</script>"));
}

static void test_full_capture(void **state)
{
	struct capture c;
	json_object *d, *series, *total;
	char err[256], *html;

	assert_int_equal(capture_read_file(CAPS "tbf.json", &c, err, sizeof(err)), 0);
	html = render(&c);
	assert_self_contained(html);
	for (const char *id = "findings\0heatmap\0cpus\0classes\0net\0clock\0"; *id; id += strlen(id) + 1) {
		char want[64];

		snprintf(want, sizeof(want), "<section id=\"%s\">", id);
		if (!strstr(html, want))
			fail_msg("no section %s", id);
	}
	/* every finding, with its evidence and hint */
	assert_int_equal(count(html, "<article class=\"finding"), c.findings.n);
	assert_non_null(strstr(html, "<article class=\"finding sev-critical\" data-id=\"tx_queueing\">"));
	assert_non_null(strstr(html, "<dt>qdisc_rate_mbit</dt><dd>20</dd>"));
	assert_non_null(strstr(html, "Raise the rate"));
	/* critical findings first */
	assert_true(strstr(html, "sev-critical") < strstr(html, "sev-warning"));

	/* the heatmap's data: every interval, every CPU, the capture's values */
	d = heat_data(html);
	assert_int_equal(json_object_array_length(json_object_object_get(d, "cpus")), 2);
	assert_int_equal(json_object_array_length(json_object_object_get(d, "t")), c.n_intervals);
	series = json_object_object_get(d, "series");
	total = json_object_object_get(series, "total");
	assert_int_equal(json_object_array_length(total), c.n_intervals);
	for (int i = 0; i < c.n_intervals; i++)
		for (int k = 0; k < 2; k++) {
			double want = c.intervals[i].cpus[k].softirq_total_pct;
			double got = json_object_get_double(json_object_array_get_idx(
				json_object_array_get_idx(total, (size_t)i), (size_t)k));

			assert_true(fabs(got - want) <= 0.006);
		}
	assert_non_null(json_object_object_get(series, "net_rx"));
	assert_null(json_object_object_get(series, "hi"));       /* a vector never used */
	json_object_put(d);

	/* tables and histograms */
	assert_non_null(strstr(html, "<table id=\"class-table\">"));
	assert_non_null(strstr(html, "<table id=\"dev-table\">"));
	assert_non_null(strstr(html, "<table id=\"port-table\">"));
	assert_non_null(strstr(html, "<table id=\"clock-table\">"));
	assert_non_null(strstr(html, "<td>tbf rate 20Mbit burst 100Kb limit 344.1Kb</td>"));
	assert_non_null(strstr(html, "<figcaption>tx queue: dbtfxa@dbtfxA<br><small>258 samples;"));
	assert_non_null(strstr(html, "data-total=\"258\""));
	/* the bars between the first and the last non-empty bucket hold
	 * every sample, in at most 260 bars */
	{
		const char *fig = strstr(html, "<figcaption>tx queue: dbtfxa@dbtfxA"), *end, *at;
		uint64_t sum = 0;
		int bars = 0;

		assert_non_null(fig);
		end = strstr(fig, "</figure>");
		for (at = strstr(fig, "<rect"); at && at < end; at = strstr(at + 1, "<rect")) {
			const char *t = strstr(at, " µs: ");

			assert_non_null(t);
			sum += strtoull(t + strlen(" µs: "), NULL, 10);
			bars++;
		}
		assert_int_equal(sum, 258);
		assert_true(bars >= 8 && bars <= 260);
	}
	free(html);
	capture_free(&c);
}

static void test_absent_families(void **state)
{
	struct capture c;
	char err[256], *html;

	assert_int_equal(capture_read_file(CAPS "rr-no-net-clock.json", &c, err, sizeof(err)), 0);
	html = render(&c);
	assert_self_contained(html);
	assert_non_null(strstr(html, "No network numbers in this capture: the net probes did not attach"));
	assert_non_null(strstr(html, "No clock numbers in this capture: the clock probes did not attach"));
	assert_null(strstr(html, "dev-table"));
	assert_non_null(strstr(html, "<table id=\"class-table\">"));
	free(html);

	/* an older capture without the histograms: the percentiles only */
	capture_free(&c);
	assert_int_equal(capture_read_file(CAPS "rr.json", &c, err, sizeof(err)), 0);
	c.have_net_hist = false;
	html = render(&c);
	assert_non_null(strstr(html, "This capture predates the histograms"));
	assert_int_equal(count(html, "<svg"), 0);
	free(html);
	capture_free(&c);
}

static void test_escaping(void **state)
{
	struct capture c;
	char err[256], *html;

	assert_int_equal(capture_read_file(CAPS "rr.json", &c, err, sizeof(err)), 0);
	snprintf(c.host.hostname, sizeof(c.host.hostname), "<script>alert('x')</script>");
	snprintf(c.sched.groups[0].comm, sizeof(c.sched.groups[0].comm), "a&b<i>");
	snprintf(c.findings.items[0].title, sizeof(c.findings.items[0].title), "\"</article>");
	html = render(&c);
	assert_null(strstr(html, "<script>alert"));
	assert_non_null(strstr(html, "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"));
	assert_non_null(strstr(html, "<td>a&amp;b&lt;i&gt;</td>"));
	assert_non_null(strstr(html, "&quot;&lt;/article&gt;"));
	assert_int_equal(count(html, "<script"), 3);     /* the guard, the data, the page's */
	free(html);
	capture_free(&c);
}

/* A long capture: intervals averaged into columns. */
static void test_long_capture(void **state)
{
	struct capture c = { 0 };
	json_object *d, *total;
	char *html;
	int n = 1500;

	c.cpus = calloc(1, sizeof(*c.cpus));
	c.n_cpus = 1;
	c.cpus[0].have_sirq = true;
	c.intervals = calloc((size_t)n, sizeof(*c.intervals));
	for (int i = 0; i < n; i++) {
		c.intervals[i].t = i + 1;
		c.intervals[i].cpus = calloc(1, sizeof(*c.intervals[i].cpus));
		c.intervals[i].n_cpus = 1;
		c.intervals[i].cpus[0].cpu = 5;
		c.intervals[i].cpus[0].softirq_total_pct = (float)(i % 2 ? 30 : 10);
		c.intervals[i].cpus[0].softirq_pct[DBT_SOFTIRQ_NET_RX] = (float)(i % 2 ? 30 : 10);
	}
	c.n_intervals = n;
	html = render(&c);
	assert_self_contained(html);
	d = heat_data(html);
	total = json_object_object_get(json_object_object_get(d, "series"), "total");
	assert_int_equal(json_object_array_length(total), REPORT_HEAT_COLUMNS);
	assert_int_equal(json_object_get_int(json_object_array_get_idx(json_object_object_get(d, "cpus"), 0)), 5);
	/* 1500 into 600: columns of 2 or 3 alternating 10/30 intervals */
	for (int col = 0; col < REPORT_HEAT_COLUMNS; col++) {
		double v = json_object_get_double(json_object_array_get_idx(
			json_object_array_get_idx(total, (size_t)col), 0));

		assert_true(v >= 10 - 1e-9 && v <= 30 + 1e-9);
	}
	assert_true(fabs(json_object_get_double(json_object_array_get_idx(json_object_object_get(d, "t"),
									  REPORT_HEAT_COLUMNS - 1)) - n) < 1e-6);
	assert_non_null(strstr(html, "intervals averaged into columns"));
	assert_non_null(strstr(html, "No scheduler numbers in this capture"));
	json_object_put(d);
	free(html);
	capture_free(&c);
}

/* The wall-time budget over time: one figure per class with a budget,
 * one stacked column per interval that has the class, its states in
 * order and as high as their shares. */
static void test_time_bars(void **state)
{
	struct capture c;
	char err[256], *html, *fig;

	assert_int_equal(capture_read_file(CAPS "time_ivals.json", &c, err, sizeof(err)), 0);
	html = render(&c);
	assert_self_contained(html);
	assert_non_null(strstr(html, "<section id=\"time\">"));
	fig = strstr(html, "/ locker-*</figcaption>");
	assert_non_null(fig);
	/* locker-* in interval 1 (t=2 s): 27.5% futex, 80 px = 100% */
	assert_non_null(strstr(fig, "height=\"22.04\" fill=\"#c62828\"><title>t=2s futex 27.5%"));
	/* the five intervals with the class (the load ran from the second to
	 * the sixth), and the legend */
	assert_int_equal(count(html, "s futex "), 5);
	assert_int_equal(count(html, "</span> futex "), 1);
	free(html);
	capture_free(&c);
}

/* The class table splits each class's on-CPU % (of a core) into user
 * and system by its budget's oncpu_split: time_a.json's locker-* ran
 * 46.24% of a core, its split 5% user and 21.11% system of its thread
 * time, so 8.86% and 37.39%; a class without a split shows none. */
static void test_class_user_system(void **state)
{
	struct capture c;
	char err[256], *html, *row, *end;

	(void)state;
	assert_int_equal(capture_read_file(CAPS "time_a.json", &c, err, sizeof(err)), 0);
	html = render(&c);
	assert_non_null(strstr(html, ">user %</th>"));
	row = strstr(html, "<td>locker-*</td>");
	assert_non_null(row);
	end = strstr(row, "</tr>");
	/* threads, on-CPU %, then the two */
	row = strstr(row, "data-v=\"46.2431\"");
	assert_true(row && row < end);
	row = strstr(row + 1, "data-v=\"");
	assert_true(fabs(strtod(row + strlen("data-v=\""), NULL) - 8.857) < 0.01);
	row = strstr(row + 1, "data-v=\"");
	assert_true(fabs(strtod(row + strlen("data-v=\""), NULL) - 37.386) < 0.01);
	row = strstr(html, "<td>spin</td>");
	assert_non_null(row);
	row = strstr(row, "data-v=\"29.9097\"");
	assert_non_null(row);
	assert_int_equal(strncmp(strstr(row + 1, "<td"), "<td class=\"n na\"", 16), 0);
	free(html);
	capture_free(&c);
}

/* Blocked on what: each class's states over the whole capture, the
 * syscalls behind its other-syscall time and its top futex word, from
 * time_futex.json (time_classes: three lockers on one mutex, a pipe
 * reader). */
static void test_blocked_table(void **state)
{
	struct capture c;
	char err[256], *html, *table, *row, *end;

	(void)state;
	assert_int_equal(capture_read_file(CAPS "time_futex.json", &c, err, sizeof(err)), 0);
	html = render(&c);
	assert_self_contained(html);
	table = strstr(html, "<table id=\"blocked-table\">");
	assert_non_null(table);
	/* the lockers: futex 44.3% of their time, all of it on one word,
	 * their waits' percentiles as the capture has them */
	row = strstr(table, "<td>locker-*</td>");
	assert_non_null(row);
	end = strstr(row, "</tr>");
	row = strstr(row, "data-v=\"44.3050514\"");
	assert_true(row && row < end);
	row = strstr(row, "<td>0x558a16256200</td><td class=\"n\" data-v=\"100\">100</td>"
			  "<td class=\"n\" data-v=\"3391.49\">");
	assert_true(row && row < end);
	/* the pipe reader's other-syscall time: all of it in read */
	row = strstr(table, "<td>piperd</td>");
	assert_non_null(row);
	end = strstr(row, "</tr>");
	row = strstr(row, "<td>read 100%</td><td></td><td class=\"n na\"");
	assert_true(row && row < end);
	free(html);
	capture_free(&c);
}

/* The class tables and the budget charts list the classes by cost,
 * busiest first; those that did nothing worth a row (time_a.json's main
 * thread, time_classes: on a CPU or waiting for one 0.2% of the time) are
 * one "other" row and chart, their own rows and charts hidden after it
 * for a click to show; --top-n folds the least busy of the rest too;
 * --all lists every class and folds none. */
static void test_idle_classes_fold(void **state)
{
	static const char *const order[] = { "locker-*", "spin", "diskrd", "sleeper", "feed", "recv" };
	struct capture c;
	char err[256], *html, *table, *end, *at;

	(void)state;
	assert_int_equal(capture_read_file(CAPS "time_a.json", &c, err, sizeof(err)), 0);
	html = render(&c);
	table = strstr(html, "<table id=\"class-table\">");
	assert_non_null(table);
	end = strstr(table, "</table>");
	at = table;
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		char cell[160];

		snprintf(cell, sizeof(cell), "<tr><td class=\"n\" data-v=\"3421197\">3421197</td>"
			 "<td>time_classes</td><td>%s</td>", order[i]);
		at = strstr(at, cell);
		assert_true(at && at < end);
	}
	at = strstr(at, "<tr class=\"other\"");
	assert_true(at && at < end);
	assert_non_null(strstr(at, "<td class=\"n na\" data-v=\"\">-</td><td></td><td>other (1 class)</td>"));
	at = strstr(at, "<tr class=\"folded\"><td class=\"n\" data-v=\"3421197\">3421197</td>"
			"<td>time_classes</td><td>time_classes</td>");
	assert_true(at && at < end);
	/* the same in the blocked table and the charts */
	table = strstr(html, "<table id=\"blocked-table\">");
	assert_non_null(strstr(table, "<td>other (1 class)</td>"));
	assert_non_null(strstr(table, "<tr class=\"folded\"><td class=\"n\" data-v=\"3421197\">3421197</td>"
				      "<td>time_classes</td><td>time_classes</td>"));
	at = strstr(html, "<figure class=\"other\"");
	assert_non_null(at);
	assert_non_null(strstr(at, "<figcaption>other (1 class)</figcaption>"));
	assert_non_null(strstr(at, "<figure class=\"folded\"><figcaption>time_classes (pid 3421197) / "
				   "time_classes</figcaption>"));
	assert_int_equal(count(html, "<figure><figcaption>time_classes (pid"), 6);
	free(html);

	/* at most three rows: the three least busy of the rest join it */
	html = render_with(&c, 3, false);
	assert_non_null(strstr(html, "<td>other (4 classes)</td>"));
	assert_int_equal(count(html, "<figure><figcaption>time_classes (pid"), 3);
	assert_int_equal(count(html, "<figure class=\"folded\">"), 4);
	free(html);

	html = render_with(&c, 20, true);
	assert_null(strstr(html, "class=\"other\""));
	assert_null(strstr(html, "class=\"folded\""));
	assert_int_equal(count(html, "<figure><figcaption>time_classes (pid"), 7);
	free(html);
	capture_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_capture),
		cmocka_unit_test(test_absent_families),
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_long_capture),
		cmocka_unit_test(test_time_bars),
		cmocka_unit_test(test_class_user_system),
		cmocka_unit_test(test_blocked_table),
		cmocka_unit_test(test_idle_classes_fold),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
