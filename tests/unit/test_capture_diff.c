/* The capture diff: real before/after captures (a thread pool of 1 and of
 * 8 busy workers on one CPU) give the directions a person expects, a
 * capture compared with itself changes nothing, and the noise floors,
 * the process matching by name and rank, and absent sections hold. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capture/capture_diff.h"

#define CAPS FIXTURES "/captures/"

static void load(const char *name, struct capture *c)
{
	char path[256], err[256];

	snprintf(path, sizeof(path), CAPS "%s", name);
	if (capture_read_file(path, c, err, sizeof(err)))
		fail_msg("%s", err);
}

static const struct cdiff_row *row(const struct capture_diff *d, enum cdiff_section_id s,
				   const char *key, const char *metric)
{
	const struct cdiff_row *r = cdiff_find(d, s, key, metric);

	if (!r)
		fail_msg("no row %s %s", key, metric);
	return r;
}

static int total_rows(const struct capture_diff *d)
{
	int n = 0;

	for (int i = 0; i < CDIFF_SECTIONS; i++)
		n += d->sec[i].n;
	return n;
}

static void test_oversized_pool(void **state)
{
	struct capture a, b;
	struct capture_diff d;
	struct cdiff_opts o = { .top_n = 20 };
	const struct cdiff_row *r;
	int sum = 0;

	load("pool1.json", &a);
	load("pool8.json", &b);
	assert_int_equal(capture_diff_compute(&a, &b, &o, &d), 0);

	r = row(&d, CDIFF_CLASSES, "thread_pool/TNT_L0_1002", "threads");
	assert_true(r->before == 1 && r->after == 8);
	assert_int_equal(r->dir, CDIFF_UP);
	r = row(&d, CDIFF_CLASSES, "thread_pool/TNT_L0_1002", "runq_p99_us");
	assert_int_equal(r->dir, CDIFF_WORSE);
	assert_true(r->change > 40000);
	assert_true(fabs(r->change_pct - 100.0 * r->change / r->before) < 1e-9);
	assert_int_equal(row(&d, CDIFF_CLASSES, "thread_pool/TNT_L0_1002", "csw_involuntary_per_s")->dir,
			 CDIFF_WORSE);
	assert_int_equal(row(&d, CDIFF_CLASSES, "thread_pool/TNT_L0_1002", "runnable_avg")->dir, CDIFF_UP);
	/* the ping-pong pair got preempted far less once it lost the CPU */
	assert_int_equal(row(&d, CDIFF_CLASSES, "thread_pool/RpcIO", "csw_involuntary_per_s")->dir,
			 CDIFF_BETTER);

	/* findings: the pool's went from warning to critical, one is new */
	r = row(&d, CDIFF_FINDINGS, "thread_pool/TNT_L0_1002", "oversubscription");
	assert_true(r->is_text);
	assert_string_equal(r->before_text, "warning");
	assert_string_equal(r->after_text, "critical");
	assert_int_equal(r->dir, CDIFF_WORSE);
	assert_non_null(strstr(r->note, "8.1 runnable threads on 1 CPUs"));
	assert_int_equal(row(&d, CDIFF_FINDINGS, "thread_pool/RpcIO", "oversubscription")->dir, CDIFF_NEW);
	assert_int_equal(row(&d, CDIFF_FINDINGS, "thread_pool", "irq_affinity_overlap")->dir, CDIFF_SAME);

	/* both have every section but ports with traffic */
	assert_true(d.sec[CDIFF_CLASSES].in_before && d.sec[CDIFF_CLASSES].in_after);
	assert_true(d.sec[CDIFF_PORTS].in_before && d.sec[CDIFF_PORTS].in_after);
	for (int i = 0; i < CDIFF_DIRS; i++)
		sum += d.count[i];
	assert_int_equal(sum, total_rows(&d));
	capture_diff_free(&d);
	capture_free(&a);
	capture_free(&b);
}

static void test_tbf_device(void **state)
{
	struct capture a, b;
	struct capture_diff d;
	const struct cdiff_row *r;

	load("rr.json", &a);
	load("tbf.json", &b);
	assert_int_equal(capture_diff_compute(&a, &b, NULL, &d), 0);
	/* the shaped device exists only after; its qdisc is a text row */
	r = row(&d, CDIFF_DEVICES, "dbtfxa@dbtfxA", "txq_p99_us");
	assert_int_equal(r->dir, CDIFF_NEW);
	assert_true(isnan(r->before) && r->after > 100000);
	r = row(&d, CDIFF_DEVICES, "dbtfxa@dbtfxA", "qdisc");
	assert_string_equal(r->after_text, "tbf rate 20Mbit burst 100Kb limit 344.1Kb");
	assert_int_equal(r->dir, CDIFF_NEW);
	/* loopback carried the request/response load before, little after */
	assert_int_equal(row(&d, CDIFF_DEVICES, "lo", "tx_pps")->dir, CDIFF_DOWN);
	assert_string_equal(row(&d, CDIFF_DEVICES, "lo", "qdisc")->before_text, "noqueue");
	assert_int_equal(row(&d, CDIFF_DEVICES, "lo", "qdisc")->dir, CDIFF_SAME);
	/* idle devices on both sides are left out */
	assert_null(cdiff_find(&d, CDIFF_DEVICES, "ifb0", "tx_pps"));
	/* ephemeral ports of tcp_rr: gone */
	assert_int_equal(row(&d, CDIFF_PORTS, "33755/server", "response_p99_us")->dir, CDIFF_GONE);
	capture_diff_free(&d);
	capture_free(&a);
	capture_free(&b);
}

static void test_same_capture(void **state)
{
	struct capture a, b;
	struct capture_diff d;

	load("rr.json", &a);
	load("rr.json", &b);
	assert_int_equal(capture_diff_compute(&a, &b, NULL, &d), 0);
	assert_true(total_rows(&d) > 50);
	assert_int_equal(d.count[CDIFF_SAME], total_rows(&d));
	for (int s = 0; s < CDIFF_SECTIONS; s++)
		for (int i = 0; i < d.sec[s].n; i++)
			assert_true(d.sec[s].rows[i].is_text || isnan(d.sec[s].rows[i].change) ||
				    d.sec[s].rows[i].change == 0);
	/* two tcp_rr processes: matched by rank, not PID */
	assert_non_null(cdiff_find(&d, CDIFF_CLASSES, "tcp_rr", "oncpu_pct"));
	assert_non_null(cdiff_find(&d, CDIFF_CLASSES, "tcp_rr#2", "oncpu_pct"));
	assert_non_null(cdiff_find(&d, CDIFF_FINDINGS, "tcp_rr#2", "softirq_on_db_cores"));
	/* vectors under the noise floor on both sides are left out */
	assert_non_null(cdiff_find(&d, CDIFF_SOFTIRQ, "cpu1", "net_rx_pct"));
	assert_null(cdiff_find(&d, CDIFF_SOFTIRQ, "cpu1", "hi_pct"));
	capture_diff_free(&d);
	capture_free(&a);
	capture_free(&b);
}

static void test_absent_sections(void **state)
{
	struct capture a, b;
	struct capture_diff d;

	load("rr.json", &a);
	load("rr-no-net-clock.json", &b);
	assert_int_equal(capture_diff_compute(&a, &b, NULL, &d), 0);
	assert_true(d.sec[CDIFF_PORTS].in_before);
	assert_false(d.sec[CDIFF_PORTS].in_after);
	assert_false(d.sec[CDIFF_CLOCK].in_after);
	assert_true(d.sec[CDIFF_CLASSES].in_after);
	assert_int_equal(row(&d, CDIFF_PORTS, "40419/client", "requests_per_s")->dir, CDIFF_GONE);
	assert_int_equal(row(&d, CDIFF_DEVICES, "lo", "qdisc")->dir, CDIFF_GONE);
	capture_diff_free(&d);
	capture_free(&a);
	capture_free(&b);
}

/* --- synthetic captures for the rules ------------------------------------ */

static void one_cpu(struct capture *c, double net_rx)
{
	memset(c, 0, sizeof(*c));
	c->cpus = calloc(1, sizeof(*c->cpus));
	c->n_cpus = 1;
	c->cpus[0].have_sirq = true;
	c->cpus[0].softirq_total_pct = net_rx;
	c->cpus[0].softirq_pct[DBT_SOFTIRQ_NET_RX] = net_rx;
	c->cpus[0].hardirq_pct = NAN;
}

static void add_proc(struct capture *c, int pid, const char *comm, double oncpu, double runq_p99)
{
	struct sched_group_stats *p;

	c->have_sched = true;
	c->sched.groups = realloc(c->sched.groups, sizeof(*p) * (size_t)(c->sched.n_groups + 1));
	p = &c->sched.groups[c->sched.n_groups++];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	snprintf(p->comm, sizeof(p->comm), "%s", comm);
	p->classes = calloc(1, sizeof(*p->classes));
	p->n_classes = 1;
	snprintf(p->classes[0].name, sizeof(p->classes[0].name), "%s", comm);
	p->classes[0].threads = 4;
	p->classes[0].oncpu_pct = oncpu;
	p->classes[0].runq_p99_us = runq_p99;
	p->classes[0].runq_p50_us = NAN;
	p->classes[0].vol_per_s = p->classes[0].invol_per_s = 0;
	p->classes[0].runnable_avg = 1;
	p->classes[0].softirq_lost_pct = NAN;
}

static void test_noise_floors_and_matching(void **state)
{
	struct capture a, b;
	struct capture_diff d;
	struct cdiff_opts o = { .top_n = 2 };

	one_cpu(&a, 10.0);
	one_cpu(&b, 10.4);                            /* within 0.5 points: same */
	add_proc(&a, 100, "mysqld", 50, 100);
	add_proc(&a, 101, "mysqld", 40, 100);
	add_proc(&a, 102, "cron", 1, 100);
	/* new PIDs, the same two mysqld by rank */
	add_proc(&b, 200, "mysqld", 60, 110);          /* +10 µs of 110: same */
	add_proc(&b, 201, "mysqld", 20, 60);           /* 100 -> 60 µs: better */
	add_proc(&b, 202, "cron", 1, 5000);            /* past top_n: left out */
	assert_int_equal(capture_diff_compute(&a, &b, &o, &d), 0);
	assert_int_equal(row(&d, CDIFF_SOFTIRQ, "cpu0", "total_pct")->dir, CDIFF_SAME);
	assert_int_equal(row(&d, CDIFF_CLASSES, "mysqld", "runq_p99_us")->dir, CDIFF_SAME);
	assert_int_equal(row(&d, CDIFF_CLASSES, "mysqld#2", "runq_p99_us")->dir, CDIFF_BETTER);
	assert_int_equal(row(&d, CDIFF_CLASSES, "mysqld#2", "oncpu_pct")->dir, CDIFF_DOWN);
	assert_int_equal(row(&d, CDIFF_CLASSES, "mysqld", "oncpu_pct")->dir, CDIFF_UP);
	/* a number missing on both sides gives no row */
	assert_null(cdiff_find(&d, CDIFF_CLASSES, "mysqld", "runq_p50_us"));
	assert_null(cdiff_find(&d, CDIFF_CLASSES, "cron", "oncpu_pct"));
	assert_false(d.sec[CDIFF_PORTS].in_before || d.sec[CDIFF_PORTS].in_after);
	assert_int_equal(d.sec[CDIFF_PORTS].n, 0);
	capture_diff_free(&d);

	/* 10% -> 16%: softirq time is time taken from the database */
	b.cpus[0].softirq_total_pct = 16;
	assert_int_equal(capture_diff_compute(&a, &b, &o, &d), 0);
	assert_int_equal(row(&d, CDIFF_SOFTIRQ, "cpu0", "total_pct")->dir, CDIFF_WORSE);
	capture_diff_free(&d);
	capture_free(&a);
	capture_free(&b);
	assert_string_equal(cdiff_dir_name(CDIFF_GONE), "gone");
	assert_string_equal(cdiff_dir_name(CDIFF_CHANGED), "changed");
}

/* Fuzzing regression (fuzz_capture): two captures with nothing in any
 * section sorted a NULL array (undefined even for no items). */
static void test_empty_captures(void **state)
{
	const char *text = "{\"schema\":\"dbtrace.capture/1\",\"intervals\":[],\"cpus\":[]}";
	struct capture a, b;
	struct capture_diff d;
	char err[256];

	assert_int_equal(capture_read_buf(text, strlen(text), "a.json", &a, err, sizeof(err)), 0);
	assert_int_equal(capture_read_buf(text, strlen(text), "b.json", &b, err, sizeof(err)), 0);
	assert_int_equal(capture_diff_compute(&a, &b, NULL, &d), 0);
	for (int i = 0; i < CDIFF_SECTIONS; i++)
		assert_int_equal(d.sec[i].n, 0);
	capture_diff_free(&d);
	capture_free(&a);
	capture_free(&b);
}

/* The wall-time budget: one row per state the class was in, before or
 * after ("time_<state>_pct"), the blocked sum and on-CPU's user and
 * system parts; none for states it never was in. */
static void test_time_budget(void **state)
{
	struct capture a, b;
	struct capture_diff d;
	struct cdiff_opts o = { .top_n = 20 };
	const struct cdiff_row *r;

	load("time_a.json", &a);
	load("time_b.json", &b);
	assert_int_equal(capture_diff_compute(&a, &b, &o, &d), 0);
	r = row(&d, CDIFF_CLASSES, "time_classes/locker-*", "time_futex_pct");
	assert_true(fabs(r->before - 20.9) < 0.1 && fabs(r->after - 42.3) < 0.1);
	assert_int_equal(r->dir, CDIFF_UP);
	assert_int_equal(row(&d, CDIFF_CLASSES, "time_classes/locker-*", "time_blocked_pct")->dir, CDIFF_UP);
	/* two points less on-CPU: within the noise */
	assert_int_equal(row(&d, CDIFF_CLASSES, "time_classes/locker-*", "time_oncpu_pct")->dir, CDIFF_SAME);
	assert_null(cdiff_find(&d, CDIFF_CLASSES, "time_classes/locker-*", "time_net_pct"));
	assert_non_null(cdiff_find(&d, CDIFF_CLASSES, "time_classes/recv", "time_net_pct"));
	/* on-CPU's user and system parts, where the capture has the split */
	r = row(&d, CDIFF_CLASSES, "time_classes/locker-*", "time_oncpu_system_pct");
	assert_true(fabs(r->before - 21.1) < 0.1 && fabs(r->after - 20.0) < 0.1);
	r = row(&d, CDIFF_CLASSES, "time_classes/locker-*", "time_oncpu_user_pct");
	assert_true(fabs(r->before - 5.0) < 0.1 && fabs(r->after - 4.0) < 0.1);
	assert_null(cdiff_find(&d, CDIFF_CLASSES, "time_classes/recv", "time_oncpu_user_pct"));
	capture_diff_free(&d);
	capture_free(&a);
	capture_free(&b);
}

/* Whether metric is a row a section's tables declare (docs/diff.md
 * lists them from the same tables). */
static bool declared(enum cdiff_section_id s, const char *metric)
{
	for (int k = 0; k < 2 && cdiff_sections[s].tables[k]; k++) {
		struct fig_ref refs[64];
		int n = figure_diff_rows(cdiff_sections[s].tables[k], refs, 64);

		for (int i = 0; i < n && i < 64; i++) {
			const struct fig_ref *r = &refs[i];
			char name[64];

			snprintf(name, sizeof(name), r->diff->metric ? r->diff->metric : r->f->name,
				 r->f->keys ? r->f->keys->name(r->key) : "");
			if (!strcmp(name, metric))
				return true;
		}
	}
	return false;
}

/* Every number diff compares is a figure its section declares: the
 * rows of diffs between the fixtures, of every section. */
static void test_rows_declared(void **state)
{
	static const char *const pairs[][2] = {
		{ "time_a.json", "time_b.json" }, { "rr.json", "tbf.json" }, { "pool1.json", "pool8.json" },
	};

	(void)state;
	for (size_t p = 0; p < sizeof(pairs) / sizeof(pairs[0]); p++) {
		struct capture a, b;
		struct capture_diff d;
		int rows = 0;

		load(pairs[p][0], &a);
		load(pairs[p][1], &b);
		assert_int_equal(capture_diff_compute(&a, &b, NULL, &d), 0);
		for (int s = 0; s < CDIFF_SECTIONS; s++) {
			assert_string_equal(d.sec[s].name, cdiff_sections[s].name);
			for (int i = 0; i < d.sec[s].n; i++) {
				const struct cdiff_row *r = &d.sec[s].rows[i];

				if (s == CDIFF_FINDINGS || r->is_text)
					continue;
				if (!declared((enum cdiff_section_id)s, r->metric))
					fail_msg("%s: %s %s is no declared figure", d.sec[s].name, r->key, r->metric);
				rows++;
			}
		}
		assert_true(rows > 10);
		capture_diff_free(&d);
		capture_free(&a);
		capture_free(&b);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_oversized_pool),
		cmocka_unit_test(test_time_budget),
		cmocka_unit_test(test_tbf_device),
		cmocka_unit_test(test_same_capture),
		cmocka_unit_test(test_absent_sections),
		cmocka_unit_test(test_noise_floors_and_matching),
		cmocka_unit_test(test_empty_captures),
		cmocka_unit_test(test_rows_declared),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
