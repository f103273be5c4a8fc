/* The Prometheus exposition of the running totals, read back as a scraper
 * would: counters are the sums of what the intervals measured and never go
 * down, histograms are cumulative log2 buckets, the number of series stays
 * bounded by top_n whatever the host runs, and label values are always
 * valid, escaped UTF-8. (The totals alone: test_prom_totals.c.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "interval_world.h"
#include "render/prom_exposition.h"

/* --- building intervals ---------------------------------------------- */


/* --- reading the exposition back ------------------------------------- */

static const struct probe_report probes[] = {
	{ .family = "softirq", .attach = "tp_btf" },
	{ .family = "net" },                       /* did not attach */
};
static const struct prom_build build = { .version = "9.9.9", .probes = probes, .n_probes = 2 };

struct series {
	char key[512];                 /* name{labels} */
	double v;
};

struct scrape {
	struct series *s;
	int n;
	int families;
};

static void scrape(const struct prom_totals *st, struct scrape *out, char **text)
{
	struct prom_self self = { 1.5, 4096, 1700000000 };
	size_t len;
	FILE *f = open_memstream(text, &len);
	char *line, *save = NULL, *copy;

	assert_int_equal(prom_render(st, &build, &self, f), 0);
	fclose(f);
	memset(out, 0, sizeof(*out));
	out->s = calloc(20000, sizeof(*out->s));
	copy = strdup(*text);
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *sp;

		if (!strncmp(line, "# TYPE ", 7))
			out->families++;
		if (line[0] == '#')
			continue;
		sp = strrchr(line, ' ');
		assert_non_null(sp);
		*sp = 0;
		assert_true(out->n < 20000);
		snprintf(out->s[out->n].key, sizeof(out->s[out->n].key), "%s", line);
		out->s[out->n++].v = strtod(sp + 1, NULL);
	}
	free(copy);
}

static double value(const struct scrape *s, const char *key)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->s[i].key, key))
			return s->s[i].v;
	return NAN;
}

static int count_prefix(const struct scrape *s, const char *prefix)
{
	int n = 0;

	for (int i = 0; i < s->n; i++)
		n += !strncmp(s->s[i].key, prefix, strlen(prefix));
	return n;
}

static bool near(double a, double b)
{
	return fabs(a - b) <= 1e-9 + 1e-9 * fabs(b);
}

static struct prom_totals *new_totals(int top_n)
{
	struct prom_totals *st;

	assert_int_equal(prom_totals_new(&st, top_n), 0);
	return st;
}

/* --- tests --------------------------------------------------------------- */

static void test_counters_are_sums(void **state)
{
	struct prom_totals *st = new_totals(20);
	struct world w;
	struct scrape s;
	char *text;

	for (int k = 0; k < 2; k++) {
		struct sched_class_stats *c;

		world_init(&w, k ? 0.5 : 1.0);
		w.rows[1].softirq_pct[DBT_SOFTIRQ_NET_RX] = 20;    /* 0.2 s, then 0.1 s */
		w.rows[1].hardirq_pct = 2;
		w.rows[0].softirq_pct[DBT_SOFTIRQ_TIMER] = NAN;    /* not measured: skipped */
		c = add_class(&w, 42, "mysqld", 0.75);
		c->vol = 100;
		c->invol = 7;
		c->runq_ns = 3000000;                              /* 3 ms */
		c->runq_hist[dbt_hist_bucket(800)] = 5;            /* 0.8 µs */
		c->runq_hist[dbt_hist_bucket(1500000)] = 2;        /* 1.5 ms */
		c->runq_hist[DBT_HIST_BUCKETS - 1] = 1;            /* open above */
		c->time.ns[CT_FUTEX] = 400000000;                  /* 0.4 s blocked on futexes */
		c->time.oncpu_user_ns = 300000000;                 /* of its oncpu state: 0.3 s user */
		c->time.oncpu_sys_ns = 100000000;                  /* and 0.1 s system */
		assert_int_equal(prom_totals_add(st, &w.iv, &w.findings), 0);
	}
	scrape(st, &s, &text);
	assert_true(near(value(&s, "dbtrace_softirq_seconds_total{cpu=\"1\",vector=\"net_rx\"}"), 0.3));
	assert_true(near(value(&s, "dbtrace_softirq_seconds_total{cpu=\"0\",vector=\"timer\"}"), 0));
	assert_true(near(value(&s, "dbtrace_hardirq_seconds_total{cpu=\"1\"}"), 0.03));
	assert_true(near(value(&s, "dbtrace_class_cpu_seconds_total{pid=\"42\",comm=\"mysqld\",class=\"mysqld\"}"), 1.5));
	assert_true(value(&s, "dbtrace_class_context_switches_total{pid=\"42\",comm=\"mysqld\",class=\"mysqld\",kind=\"voluntary\"}") == 200);
	assert_true(value(&s, "dbtrace_class_context_switches_total{pid=\"42\",comm=\"mysqld\",class=\"mysqld\",kind=\"involuntary\"}") == 14);
	/* cumulative buckets on the fixed 1-2-5 bounds */
	assert_true(value(&s, "dbtrace_class_runqueue_delay_seconds_bucket{pid=\"42\",comm=\"mysqld\",class=\"mysqld\",le=\"1e-06\"}") == 10);
	assert_true(value(&s, "dbtrace_class_runqueue_delay_seconds_bucket{pid=\"42\",comm=\"mysqld\",class=\"mysqld\",le=\"0.001\"}") == 10);
	assert_true(value(&s, "dbtrace_class_runqueue_delay_seconds_bucket{pid=\"42\",comm=\"mysqld\",class=\"mysqld\",le=\"0.002\"}") == 14);
	assert_true(value(&s, "dbtrace_class_runqueue_delay_seconds_bucket{pid=\"42\",comm=\"mysqld\",class=\"mysqld\",le=\"10\"}") == 14);
	assert_true(value(&s, "dbtrace_class_runqueue_delay_seconds_bucket{pid=\"42\",comm=\"mysqld\",class=\"mysqld\",le=\"+Inf\"}") == 16);
	assert_true(value(&s, "dbtrace_class_runqueue_delay_seconds_count{pid=\"42\",comm=\"mysqld\",class=\"mysqld\"}") == 16);
	assert_true(near(value(&s, "dbtrace_class_runqueue_delay_seconds_sum{pid=\"42\",comm=\"mysqld\",class=\"mysqld\"}"), 0.006));
	/* the budget's states are counters too, one series per state */
	assert_true(near(value(&s, "dbtrace_class_state_seconds_total{pid=\"42\",comm=\"mysqld\",class=\"mysqld\",state=\"futex\"}"), 0.8));
	assert_true(near(value(&s, "dbtrace_class_state_seconds_total{pid=\"42\",comm=\"mysqld\",class=\"mysqld\",state=\"net\"}"), 0));
	assert_int_equal(count_prefix(&s, "dbtrace_class_state_seconds_total{pid=\"42\""), CT_STATES);
	/* the oncpu state's user and system parts, summed like the states */
	assert_true(near(value(&s, "dbtrace_class_oncpu_mode_seconds_total{pid=\"42\",comm=\"mysqld\",class=\"mysqld\",mode=\"user\"}"), 0.6));
	assert_true(near(value(&s, "dbtrace_class_oncpu_mode_seconds_total{pid=\"42\",comm=\"mysqld\",class=\"mysqld\",mode=\"system\"}"), 0.2));
	/* 22 finite buckets + Inf + sum + count */
	assert_int_equal(count_prefix(&s, "dbtrace_class_runqueue_delay_seconds"), 25);
	/* the exporter itself */
	assert_true(value(&s, "dbtrace_intervals_total") == 2);
	assert_true(value(&s, "dbtrace_interval_seconds") == 0.5);
	assert_true(value(&s, "process_cpu_seconds_total") == 1.5);
	assert_true(value(&s, "process_resident_memory_bytes") == 4096);
	assert_true(value(&s, "dbtrace_build_info{version=\"9.9.9\"}") == 1);
	assert_true(value(&s, "dbtrace_probe_info{family=\"net\",attach=\"\"}") == 1);
	assert_true(value(&s, "dbtrace_series_limit") == 20);
	/* no "other" series when everything fits */
	assert_int_equal(count_prefix(&s, "dbtrace_class_cpu_seconds_total{pid=\"\""), 0);
	free(s.s);
	free(text);
	prom_totals_free(st);
}

static void test_net_histograms(void **state)
{
	struct prom_totals *st = new_totals(20);
	struct world w;
	struct scrape s;
	char *text;

	world_init(&w, 1);
	w.iv.net.n_ports = 1;
	w.ports[0].port = 3306;
	w.ports[0].role = DBT_NET_SERVER;
	w.ports[0].requests = 10;
	w.ports[0].resp_hist[dbt_hist_bucket(96000)] = 10;  /* 96 µs */
	w.ports[0].rxq_hist[dbt_hist_bucket(3000)] = 4;
	w.iv.net.n_devs = 1;
	snprintf(w.devs[0].name, sizeof(w.devs[0].name), "veth0");
	snprintf(w.devs[0].netns_name, sizeof(w.devs[0].netns_name), "db");
	w.devs[0].foreign = true;
	w.devs[0].txq_samples = 3;
	w.devs[0].txq_hist[dbt_hist_bucket(12000000)] = 3;   /* 12 ms */
	w.devs[0].tx_pps = NAN;
	assert_int_equal(prom_totals_add(st, &w.iv, &w.findings), 0);
	scrape(st, &s, &text);
	assert_true(value(&s, "dbtrace_port_response_seconds_bucket{port=\"3306\",role=\"server\",le=\"5e-05\"}") == 0);
	assert_true(value(&s, "dbtrace_port_response_seconds_bucket{port=\"3306\",role=\"server\",le=\"0.0001\"}") == 10);
	assert_true(value(&s, "dbtrace_port_response_seconds_count{port=\"3306\",role=\"server\"}") == 10);
	/* no sum in the kernel: the fine bucket's midpoint, 96 µs each to 1/64 */
	assert_true(fabs(value(&s, "dbtrace_port_response_seconds_sum{port=\"3306\",role=\"server\"}") - 10 * 96e-6) <
		    10 * 96e-6 / 64);
	assert_true(value(&s, "dbtrace_port_rx_queue_seconds_count{port=\"3306\",role=\"server\"}") == 4);
	assert_true(value(&s, "dbtrace_device_tx_queue_seconds_bucket{device=\"veth0\",netns=\"db\",le=\"0.02\"}") == 3);
	assert_true(value(&s, "dbtrace_device_tx_queue_seconds_bucket{device=\"veth0\",netns=\"db\",le=\"0.01\"}") == 0);
	free(s.s);
	free(text);
	prom_totals_free(st);
}

/* Every series present in both scrapes: a counter, bucket, sum or count
 * never went down. */
static void assert_monotonic(const struct scrape *a, const struct scrape *b)
{
	int compared = 0;

	for (int i = 0; i < a->n; i++) {
		const char *k = a->s[i].key;
		double v;

		if (!strstr(k, "_total") && !strstr(k, "_bucket") && !strstr(k, "_sum") && !strstr(k, "_count"))
			continue;
		v = value(b, k);
		if (isnan(v))
			continue;
		if (v < a->s[i].v)
			fail_msg("%s went down: %g -> %g", k, a->s[i].v, v);
		compared++;
	}
	assert_true(compared > 0);
}

static void test_bounded_cardinality(void **state)
{
	struct prom_totals *st = new_totals(2);
	struct scrape s1, s2, s3;
	char *t1, *t2, *t3;
	struct world w;

	/* four busy classes, room for two: the two busiest, the rest summed */
	world_init(&w, 1);
	add_class(&w, 1, "a", 0.9);
	add_class(&w, 2, "b", 0.5);
	add_class(&w, 3, "c", 0.2);
	add_class(&w, 4, "d", 0.1);
	assert_int_equal(prom_totals_add(st, &w.iv, &w.findings), 0);
	scrape(st, &s1, &t1);
	assert_int_equal(count_prefix(&s1, "dbtrace_class_cpu_seconds_total"), 3);
	assert_true(near(value(&s1, "dbtrace_class_cpu_seconds_total{pid=\"1\",comm=\"a\",class=\"a\"}"), 0.9));
	assert_true(near(value(&s1, "dbtrace_class_cpu_seconds_total{pid=\"2\",comm=\"b\",class=\"b\"}"), 0.5));
	assert_true(near(value(&s1, "dbtrace_class_cpu_seconds_total{pid=\"\",comm=\"\",class=\"other\"}"), 0.3));
	assert_true(value(&s1, "dbtrace_class_threads{pid=\"\",comm=\"\",class=\"other\"}") == 2);

	/* b goes quiet and a much busier e arrives: e displaces b, c stays
	 * in "other" (not twice as busy as the weakest kept) */
	world_init(&w, 1);
	add_class(&w, 5, "e", 1.2);
	add_class(&w, 1, "a", 0.9);
	add_class(&w, 3, "c", 0.2);
	assert_int_equal(prom_totals_add(st, &w.iv, &w.findings), 0);
	scrape(st, &s2, &t2);
	assert_int_equal(count_prefix(&s2, "dbtrace_class_cpu_seconds_total"), 3);
	assert_true(near(value(&s2, "dbtrace_class_cpu_seconds_total{pid=\"5\",comm=\"e\",class=\"e\"}"), 1.2));
	assert_true(isnan(value(&s2, "dbtrace_class_cpu_seconds_total{pid=\"2\",comm=\"b\",class=\"b\"}")));
	assert_true(near(value(&s2, "dbtrace_class_cpu_seconds_total{pid=\"1\",comm=\"a\",class=\"a\"}"), 1.8));
	assert_true(near(value(&s2, "dbtrace_class_cpu_seconds_total{pid=\"\",comm=\"\",class=\"other\"}"), 0.5));
	assert_monotonic(&s1, &s2);
	free(s1.s);
	free(t1);

	/* b comes back much busier: it displaces a and resumes its series
	 * where it stopped, never below what was exported before */
	world_init(&w, 1);
	add_class(&w, 2, "b", 5.0);
	assert_int_equal(prom_totals_add(st, &w.iv, &w.findings), 0);
	scrape(st, &s1, &t1);
	assert_true(near(value(&s1, "dbtrace_class_cpu_seconds_total{pid=\"2\",comm=\"b\",class=\"b\"}"), 5.5));
	assert_true(isnan(value(&s1, "dbtrace_class_cpu_seconds_total{pid=\"1\",comm=\"a\",class=\"a\"}")));
	assert_true(near(value(&s1, "dbtrace_class_cpu_seconds_total{pid=\"5\",comm=\"e\",class=\"e\"}"), 1.2));
	/* and a, back in turn, resumes from 1.8 */
	world_init(&w, 1);
	add_class(&w, 1, "a", 9.0);
	assert_int_equal(prom_totals_add(st, &w.iv, &w.findings), 0);
	free(s2.s);
	free(t2);
	scrape(st, &s2, &t2);
	assert_true(near(value(&s2, "dbtrace_class_cpu_seconds_total{pid=\"1\",comm=\"a\",class=\"a\"}"), 10.8));
	assert_monotonic(&s1, &s2);

	/* a hundred intervals of churn: the series count never grows, and
	 * no key kept aside ever comes back lower */
	for (int k = 0; k < 100; k++) {
		world_init(&w, 1);
		for (int j = 0; j < 6; j++)
			add_class(&w, 100 + (k * 7 + j) % 37, "churn", 0.01 * (1 + (k + j) % 9));
		assert_int_equal(prom_totals_add(st, &w.iv, &w.findings), 0);
	}
	scrape(st, &s3, &t3);
	for (int i = 0; i < s3.n; i++) {
		double before = value(&s2, s3.s[i].key);

		if (!isnan(before) && s3.s[i].v < before)
			fail_msg("%s went down", s3.s[i].key);
	}
	assert_true(count_prefix(&s3, "dbtrace_class_cpu_seconds_total") <= 3);
	assert_true(count_prefix(&s3, "dbtrace_class_runqueue_delay_seconds_bucket") <= 3 * 27);
	assert_monotonic(&s2, &s3);
	free(s1.s);
	free(s2.s);
	free(s3.s);
	free(t1);
	free(t2);
	free(t3);
	prom_totals_free(st);
}

static void test_findings_gauge(void **state)
{
	struct prom_totals *st = new_totals(2);
	struct finding items[3] = { 0 };
	struct world w;
	struct scrape s;
	char *text;

	world_init(&w, 1);
	snprintf(items[0].id, sizeof(items[0].id), "softirq_on_db_cores");
	items[0].severity = SEV_INFO;
	snprintf(items[1].id, sizeof(items[1].id), "oversubscription");
	items[1].severity = SEV_WARNING;
	items[1].pid = 7;
	snprintf(items[1].class_name, sizeof(items[1].class_name), "TNT_L0_1002");
	snprintf(items[2].id, sizeof(items[2].id), "tx_queueing");
	items[2].severity = SEV_CRITICAL;
	snprintf(items[2].class_name, sizeof(items[2].class_name), "bond0");
	w.findings.items = items;
	w.findings.n = 3;
	assert_int_equal(prom_totals_add(st, &w.iv, &w.findings), 0);
	scrape(st, &s, &text);
	/* at most top_n, the worst kept */
	assert_int_equal(count_prefix(&s, "dbtrace_finding{"), 2);
	assert_true(value(&s, "dbtrace_finding{id=\"tx_queueing\",severity=\"critical\",pid=\"\",subject=\"bond0\"}") == 1);
	assert_true(value(&s, "dbtrace_finding{id=\"oversubscription\",severity=\"warning\",pid=\"7\",subject=\"TNT_L0_1002\"}") == 1);
	free(s.s);
	free(text);

	/* the next interval without findings: the gauge has no series */
	w.findings.n = 0;
	assert_int_equal(prom_totals_add(st, &w.iv, &w.findings), 0);
	scrape(st, &s, &text);
	assert_int_equal(count_prefix(&s, "dbtrace_finding{"), 0);
	assert_non_null(strstr(text, "# TYPE dbtrace_finding gauge\n"));
	free(s.s);
	free(text);
	prom_totals_free(st);
}

static void test_label_values(void **state)
{
	char *text;
	size_t len;
	FILE *f = open_memstream(&text, &len);

	prom_label_value(f, "a\"b\\c\nd");
	fputc('|', f);
	prom_label_value(f, "caf\xc3\xa9");              /* valid UTF-8 stays */
	fputc('|', f);
	prom_label_value(f, "cut\xe6\x97");              /* a comm cut inside a character */
	fputc('|', f);
	prom_label_value(f, "\xff\xc0\x80\xed\xa0\x80");  /* invalid, overlong, surrogate */
	fclose(f);
	assert_string_equal(text, "a\\\"b\\\\c\\nd|caf\xc3\xa9|cut??|??????");
	free(text);
}

/* The family a sample belongs to: a histogram's _bucket, _sum and
 * _count samples belong to the histogram. */
static void family_of(const char *key, const char *text, char *name, size_t len)
{
	static const char *const sfx[] = { "_bucket", "_sum", "_count" };
	size_t n = strcspn(key, "{");

	snprintf(name, len, "%.*s", (int)n, key);
	for (int k = 0; k < 3; k++) {
		size_t l = strlen(sfx[k]);
		char want[300];

		if (n <= l || strcmp(name + n - l, sfx[k]))
			continue;
		snprintf(want, sizeof(want), "# TYPE %.*s histogram\n", (int)(n - l), name);
		if (strstr(text, want)) {
			name[n - l] = 0;
			return;
		}
	}
}

static void test_every_family_typed_once(void **state)
{
	struct prom_totals *st = new_totals(20);
	struct world w;
	struct scrape s;
	char *text;

	world_init(&w, 1);
	add_class(&w, 1, "x\"y", 0.5);
	w.procs[0].n_procs = 9;   /* a group: the postmaster and eight backends */
	w.iv.net.n_ports = 1;
	w.ports[0].port = 5432;
	w.ports[0].staged = 10;
	for (int st = 0; st < DBT_NET_STAGES; st++)
		w.ports[0].stage_mean_us[st] = NAN;
	w.ports[0].stage_mean_us[DBT_NET_STAGE_RX] = 2;
	w.ports[0].stage_mean_us[DBT_NET_STAGE_SOCKET_WAIT] = 30;
	w.ports[0].stage_mean_us[DBT_NET_STAGE_SERVER] = 200;
	w.ports[0].stage_mean_us[DBT_NET_STAGE_TX] = 3;
	w.iv.bpf.on_ns = 100000000;
	w.iv.bpf.fam_on[FAM_NET] = true;
	w.iv.bpf.fam[FAM_NET].run_ns = 2500000;
	w.iv.bpf.fam[FAM_NET].runs = 20000;
	assert_int_equal(prom_totals_add(st, &w.iv, &w.findings), 0);
	scrape(st, &s, &text);
	for (int i = 0; i < s.n; i++) {
		char name[256], want[300];
		const char *first;

		family_of(s.s[i].key, text, name, sizeof(name));
		snprintf(want, sizeof(want), "# TYPE %s ", name);
		first = strstr(text, want);
		if (!first)
			fail_msg("no TYPE line for %s", s.s[i].key);
		assert_null(strstr(first + 1, want));
	}
	/* 29 (with the groups gauge, the budget and its oncpu split, the skipped
	 * requests, dbtrace's own BPF run time, the ports' stages), and the
	 * loss family's 15 */
	assert_int_equal(s.families, 44);
	/* each stage's time: its mean over the staged requests, times them */
	assert_non_null(strstr(text, "dbtrace_port_stage_seconds_total{port=\"5432\",role=\"server\",stage=\"server\"} 0.002\n"));
	assert_non_null(strstr(text, "dbtrace_port_staged_requests_total{port=\"5432\",role=\"server\"} 10\n"));
	assert_null(strstr(text, "stage=\"outside\""));
	assert_non_null(strstr(text, "dbtrace_bpf_measured_seconds_total 0.1\n"));
	assert_non_null(strstr(text, "dbtrace_bpf_run_seconds_total{family=\"net\"} 0.0025\n"));
	assert_non_null(strstr(text, "dbtrace_bpf_runs_total{family=\"net\"} 20000\n"));
	assert_null(strstr(text, "dbtrace_bpf_runs_total{family=\"sched\"}"));
	assert_non_null(strstr(text, "class=\"x\\\"y\""));
	assert_non_null(strstr(text, "dbtrace_group_processes{pid=\"1\",comm=\"x\\\"y\"} 9\n"));
	free(s.s);
	free(text);
	prom_totals_free(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counters_are_sums),
		cmocka_unit_test(test_net_histograms),
		cmocka_unit_test(test_bounded_cardinality),
		cmocka_unit_test(test_findings_gauge),
		cmocka_unit_test(test_label_values),
		cmocka_unit_test(test_every_family_typed_once),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
