/* The exporter's running totals, read without any rendering: counters are
 * the sums of what the intervals measured and never go down, at most
 * top_n keys per kind keep totals of their own and the rest is folded
 * into "other", a displaced key gets its totals back when it returns,
 * and the findings are the latest interval's worst. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "interval_world.h"
#include "metrics/prom_totals.h"

static struct net_port_stats *add_port(struct world *w, uint16_t port, uint64_t requests)
{
	struct net_port_stats *p = &w->ports[w->iv.net.n_ports++];

	p->port = port;
	p->role = DBT_NET_SERVER;
	p->requests = requests;
	p->resp_hist[dbt_hist_bucket(96000)] = requests;    /* 96 µs: le 100 µs, slot 6 */
	return p;
}

static void add_finding(struct world *w, const char *id, enum finding_severity sev)
{
	struct finding *f = &w->items[w->findings.n++];

	snprintf(f->id, sizeof(f->id), "%s", id);
	f->severity = sev;
}

/* The kept class with this pid, NULL when it has no totals of its own. */
static const struct prom_class_total *class_of(const struct prom_totals *t, int pid)
{
	for (int i = 0; i < prom_totals_limit(t); i++) {
		const struct prom_class_total *c = prom_totals_class(t, i);

		if (c && c->pid == pid)
			return c;
	}
	return NULL;
}

static const struct prom_class_total *other_class(const struct prom_totals *t)
{
	return prom_totals_class(t, prom_totals_limit(t));
}

static int kept_classes(const struct prom_totals *t)
{
	int n = 0;

	for (int i = 0; i < prom_totals_limit(t); i++)
		n += prom_totals_class(t, i) != NULL;
	return n;
}

static bool near(double a, double b)
{
	return fabs(a - b) <= 1e-9 + 1e-9 * fabs(b);
}

static void test_counters_are_sums(void **state)
{
	struct prom_totals *t;
	const struct prom_class_total *c;
	const struct prom_cpu_total *cpu;
	struct world w;

	assert_int_equal(prom_totals_new(&t, 20), 0);
	for (int k = 0; k < 2; k++) {
		struct sched_class_stats *sc;

		world_init(&w, k ? 0.5 : 1.0);
		w.rows[1].softirq_pct[DBT_SOFTIRQ_NET_RX] = 20;    /* 0.2 s, then 0.1 s */
		w.rows[1].hardirq_pct = 2;
		w.rows[0].softirq_pct[DBT_SOFTIRQ_TIMER] = NAN;    /* not measured: adds nothing */
		sc = add_class(&w, 42, "mysqld", 0.75);
		sc->vol = 100;
		sc->invol = 7;
		sc->threads = 3 + k;
		sc->runq_ns = 3000000;
		sc->runq_hist[0] = 5;
		sc->runq_hist[DBT_HIST_BUCKETS - 1] = 1;
		add_port(&w, 3306, 10);
		w.iv.lost_events = 5 + (uint64_t)k;
		w.iv.net.skipped = 2 + (uint64_t)k;
		w.iv.bpf.on_ns = 100000000;                 /* a 100 ms window each */
		w.iv.bpf.fam_on[FAM_SCHED] = true;
		w.iv.bpf.fam[FAM_SCHED].run_ns = 4000000 + 1000000 * (uint64_t)k;
		w.iv.bpf.fam[FAM_SCHED].runs = 1000;
		assert_int_equal(prom_totals_add(t, &w.iv, &w.findings), 0);
	}
	assert_int_equal(prom_totals_ncpus(t), 2);
	cpu = prom_totals_cpu(t, 1);
	assert_non_null(cpu);
	assert_true(near(cpu->softirq_s[DBT_SOFTIRQ_NET_RX], 0.3));
	assert_true(near(cpu->hardirq_s, 0.03));
	assert_true(near(prom_totals_cpu(t, 0)->softirq_s[DBT_SOFTIRQ_TIMER], 0));

	c = class_of(t, 42);
	assert_non_null(c);
	assert_string_equal(c->comm, "mysqld");
	assert_true(near(c->oncpu_s, 1.5));
	assert_true(c->vol == 200 && c->invol == 14);
	assert_int_equal(c->threads, 4);                   /* a gauge: the latest */
	assert_true(c->runq.slots[0] == 10 && c->runq.slots[PROM_LE_N] == 2);
	assert_true(near(c->runq.sum_s, 0.006));           /* measured, not estimated */
	/* no sum from the kernel: the fine bucket's midpoint per response */
	assert_non_null(prom_totals_port(t, 0));
	assert_true(prom_totals_port(t, 0)->resp.slots[6] == 20);
	assert_true(near(prom_totals_port(t, 0)->resp.sum_s,
			 20 * (double)(dbt_hist_low(dbt_hist_bucket(96000)) +
				       dbt_hist_high(dbt_hist_bucket(96000))) / 2e9));
	/* everything fitted: nothing in "other" */
	assert_null(other_class(t));
	assert_null(prom_totals_port(t, prom_totals_limit(t)));
	assert_null(prom_totals_dev(t, prom_totals_limit(t)));

	assert_true(prom_totals_run(t)->intervals == 2);
	assert_true(prom_totals_run(t)->interval_s == 0.5);
	assert_true(prom_totals_run(t)->lost_events == 6);
	assert_true(prom_totals_run(t)->net_skipped_requests == 5);   /* a counter: summed */
	/* dbtrace's own programs: windows and run time summed */
	assert_true(prom_totals_run(t)->bpf.on_ns == 200000000);
	assert_true(prom_totals_run(t)->bpf.fam[FAM_SCHED].run_ns == 9000000);
	assert_true(prom_totals_run(t)->bpf.fam[FAM_SCHED].runs == 2000);
	assert_true(prom_totals_run(t)->bpf.fam_on[FAM_SCHED] && !prom_totals_run(t)->bpf.fam_on[FAM_NET]);
	prom_totals_free(t);
}

static void test_cpus_not_measured_have_no_totals(void **state)
{
	struct prom_totals *t;
	struct world w;

	assert_int_equal(prom_totals_new(&t, 4), 0);
	world_init(&w, 1);
	w.rows[0].have_sirq = false;
	w.rows[1].valid = false;
	w.rows[2] = w.rows[1];
	w.rows[2].cpu = 5;                                 /* past ncpus: room is made */
	w.rows[2].valid = true;
	w.rows[2].softirq_pct[DBT_SOFTIRQ_NET_TX] = 50;
	w.iv.ncpus = 3;
	assert_int_equal(prom_totals_add(t, &w.iv, &w.findings), 0);
	assert_int_equal(prom_totals_ncpus(t), 6);
	assert_null(prom_totals_cpu(t, 0));
	assert_null(prom_totals_cpu(t, 1));
	assert_null(prom_totals_cpu(t, 4));
	assert_null(prom_totals_cpu(t, 6));
	assert_null(prom_totals_cpu(t, -1));
	assert_true(near(prom_totals_cpu(t, 5)->softirq_s[DBT_SOFTIRQ_NET_TX], 0.5));
	prom_totals_free(t);
}

static void test_top_n_folds_into_other(void **state)
{
	struct prom_totals *t;
	struct world w;

	assert_int_equal(prom_totals_new(&t, 2), 0);
	assert_int_equal(prom_totals_limit(t), 2);
	/* four busy classes, room for two: the first two, the rest summed */
	world_init(&w, 1);
	add_class(&w, 1, "a", 0.9);
	add_class(&w, 2, "b", 0.5);
	add_class(&w, 3, "c", 0.2)->vol = 10;
	add_class(&w, 4, "d", 0.1)->vol = 5;
	for (int p = 0; p < 4; p++)
		add_port(&w, (uint16_t)(5000 + p), 100);
	assert_int_equal(prom_totals_add(t, &w.iv, &w.findings), 0);
	assert_int_equal(kept_classes(t), 2);
	assert_true(near(class_of(t, 1)->oncpu_s, 0.9));
	assert_true(near(class_of(t, 2)->oncpu_s, 0.5));
	assert_null(class_of(t, 3));
	assert_non_null(other_class(t));
	assert_true(near(other_class(t)->oncpu_s, 0.3));
	assert_true(other_class(t)->vol == 15);
	assert_int_equal(other_class(t)->threads, 2);
	/* ports the same way: two of their own, two in "other" */
	assert_non_null(prom_totals_port(t, 0));
	assert_non_null(prom_totals_port(t, 1));
	assert_true(prom_totals_port(t, 2)->resp.slots[6] == 200);
	assert_null(prom_totals_port(t, 3));               /* past "other" */

	/* b goes quiet and a much busier e arrives: e takes b's slot; c,
	 * not twice as busy as the weakest kept, stays in "other" */
	world_init(&w, 1);
	add_class(&w, 5, "e", 1.2);
	add_class(&w, 1, "a", 0.9);
	add_class(&w, 3, "c", 0.2);
	assert_int_equal(prom_totals_add(t, &w.iv, &w.findings), 0);
	assert_int_equal(kept_classes(t), 2);
	assert_true(near(class_of(t, 5)->oncpu_s, 1.2));
	assert_null(class_of(t, 2));
	assert_true(near(class_of(t, 1)->oncpu_s, 1.8));
	assert_true(near(other_class(t)->oncpu_s, 0.5));
	assert_int_equal(other_class(t)->threads, 1);      /* the latest interval's */
	prom_totals_free(t);
}

/* Records each kept key's and "other"'s on-CPU total (other as pid 0)
 * and fails when one is lower than the last time it was seen. */
static void assert_never_lower(const struct prom_totals *t, double *last, int n_last)
{
	for (int i = 0; i <= prom_totals_limit(t); i++) {
		const struct prom_class_total *c = prom_totals_class(t, i);
		int pid;

		if (!c)
			continue;
		pid = i == prom_totals_limit(t) ? 0 : c->pid;
		assert_true(pid < n_last);
		if (c->oncpu_s < last[pid])
			fail_msg("pid %d went down: %g -> %g", pid, last[pid], c->oncpu_s);
		last[pid] = c->oncpu_s;
	}
}

static void test_displaced_keys_resume(void **state)
{
	struct prom_totals *t;
	double last[200] = { 0 };      /* by pid: the total seen last */
	struct world w;

	assert_int_equal(prom_totals_new(&t, 2), 0);
	world_init(&w, 1);
	add_class(&w, 1, "a", 0.9);
	add_class(&w, 2, "b", 0.5);
	assert_int_equal(prom_totals_add(t, &w.iv, &w.findings), 0);
	world_init(&w, 1);
	add_class(&w, 3, "c", 4.0);                        /* displaces b */
	assert_int_equal(prom_totals_add(t, &w.iv, &w.findings), 0);
	assert_null(class_of(t, 2));
	/* b comes back much busier: it displaces a and resumes from 0.5 */
	world_init(&w, 1);
	add_class(&w, 2, "b", 50.0);
	assert_int_equal(prom_totals_add(t, &w.iv, &w.findings), 0);
	assert_true(near(class_of(t, 2)->oncpu_s, 50.5));
	assert_null(class_of(t, 1));
	/* and a, back in turn, resumes from 0.9 */
	world_init(&w, 1);
	add_class(&w, 1, "a", 500.0);
	assert_int_equal(prom_totals_add(t, &w.iv, &w.findings), 0);
	assert_true(near(class_of(t, 1)->oncpu_s, 500.9));

	/* a hundred intervals of churn among 12 keys, fewer than the slots
	 * and the keys kept aside together: never more than top_n kept, and
	 * no key's total, nor "other"'s, ever lower than before */
	assert_never_lower(t, last, 200);
	for (int k = 0; k < 100; k++) {
		world_init(&w, 1);
		for (int j = 0; j < 6; j++)
			add_class(&w, 100 + (k * 7 + j) % 12, "churn", 0.01 * (1 + (k + j) % 9));
		assert_int_equal(prom_totals_add(t, &w.iv, &w.findings), 0);
		assert_true(kept_classes(t) <= 2);
		assert_never_lower(t, last, 200);
	}
	assert_true(other_class(t)->oncpu_s > 0);
	prom_totals_free(t);
}

static void test_findings_are_the_latest_worst(void **state)
{
	struct prom_totals *t;
	struct world w;

	assert_int_equal(prom_totals_new(&t, 2), 0);
	world_init(&w, 1);
	add_finding(&w, "softirq_on_db_cores", SEV_INFO);
	add_finding(&w, "oversubscription", SEV_WARNING);
	add_finding(&w, "tx_queueing", SEV_CRITICAL);
	add_finding(&w, "link_saturated", SEV_WARNING);
	assert_int_equal(prom_totals_add(t, &w.iv, &w.findings), 0);
	assert_int_equal(prom_totals_n_findings(t), 2);
	assert_string_equal(prom_totals_finding(t, 0)->id, "tx_queueing");
	/* as bad as the last one kept: the one kept first stays */
	assert_string_equal(prom_totals_finding(t, 1)->id, "oversubscription");
	assert_null(prom_totals_finding(t, 2));

	/* a gauge: an interval without findings (or without a list) clears them */
	w.findings.n = 0;
	assert_int_equal(prom_totals_add(t, &w.iv, &w.findings), 0);
	assert_int_equal(prom_totals_n_findings(t), 0);
	assert_int_equal(prom_totals_add(t, &w.iv, NULL), 0);
	assert_int_equal(prom_totals_n_findings(t), 0);
	prom_totals_free(t);
}

static void test_families_off_add_nothing(void **state)
{
	struct prom_totals *t;
	struct world w;

	/* top_n 0 is taken as 1 */
	assert_int_equal(prom_totals_new(&t, 0), 0);
	assert_int_equal(prom_totals_limit(t), 1);
	world_init(&w, 1);
	add_class(&w, 1, "a", 1);
	add_port(&w, 80, 1);
	w.iv.have_sched = false;
	w.iv.have_net = false;
	assert_int_equal(prom_totals_add(t, &w.iv, &w.findings), 0);
	assert_null(prom_totals_class(t, 0));
	assert_null(other_class(t));
	assert_null(prom_totals_port(t, 0));
	assert_null(prom_totals_dev(t, 0));
	assert_null(prom_totals_class(t, -1));
	assert_true(prom_totals_run(t)->intervals == 1);
	prom_totals_free(t);
	prom_totals_free(NULL);
}

/* The fixed bounds: 1-2-5 per decade, 1 µs to 10 s; a fine bucket goes
 * where its midpoint lies, so each bound is right to one fine bucket. */
static void test_le_folding(void **state)
{
	(void)state;
	assert_true(prom_le_s[0] == 1e-6 && prom_le_s[PROM_LE_N - 1] == 10);
	for (int i = 1; i < PROM_LE_N; i++)
		assert_true(prom_le_s[i] > prom_le_s[i - 1]);
	assert_int_equal(prom_le_slot(dbt_hist_bucket(0)), 0);
	assert_int_equal(prom_le_slot(dbt_hist_bucket(990)), 0);
	assert_int_equal(prom_le_slot(dbt_hist_bucket(1020)), 1);       /* [1008, 1024): above 1 µs */
	assert_int_equal(prom_le_slot(dbt_hist_bucket(1990000)), 10);   /* 1.99 ms: le 2 ms */
	assert_int_equal(prom_le_slot(dbt_hist_bucket(2100000)), 11);   /* le 5 ms */
	assert_int_equal(prom_le_slot(dbt_hist_bucket(9000000000ull)), PROM_LE_N - 1);
	assert_int_equal(prom_le_slot(dbt_hist_bucket(11000000000ull)), PROM_LE_N);
	assert_int_equal(prom_le_slot(DBT_HIST_BUCKETS - 1), PROM_LE_N);
	/* monotonic: a cumulative count never drops */
	for (uint32_t b = 1; b < DBT_HIST_BUCKETS; b++)
		assert_true(prom_le_slot(b) >= prom_le_slot(b - 1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_le_folding),
		cmocka_unit_test(test_counters_are_sums),
		cmocka_unit_test(test_cpus_not_measured_have_no_totals),
		cmocka_unit_test(test_top_n_folds_into_other),
		cmocka_unit_test(test_displaced_keys_resume),
		cmocka_unit_test(test_findings_are_the_latest_worst),
		cmocka_unit_test(test_families_off_add_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
