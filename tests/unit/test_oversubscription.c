/* The oversubscription rule: more runnable threads than allowed CPUs and a
 * run-queue p99 above the threshold, both needed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "findings/oversubscription.h"

static struct sched_class_stats cls(const char *name, double runnable, int cpus, double p99)
{
	struct sched_class_stats c;

	memset(&c, 0, sizeof(c));
	snprintf(c.name, sizeof(c.name), "%s", name);
	c.threads = 16;
	c.runnable_avg = runnable;
	c.allowed_cpus = cpus;
	c.runq_p99_us = p99;
	c.runq_p50_us = p99 / 4;
	c.runq_max_us = p99 * 2;
	c.invol_per_s = 500;
	return c;
}

static int check(struct sched_class_stats *classes, int n, struct finding_list *out)
{
	struct sched_group_stats p = { .pid = 42, .comm = "observer", .classes = classes, .n_classes = n };
	struct sched_interval iv = { .dt_s = 1, .groups = &p, .n_groups = 1 };
	struct oversub_config cfg;

	oversub_config_default(&cfg);
	return oversubscription_check(&iv, &cfg, 3, out);
}

static void test_fires_and_evidence(void **state)
{
	struct sched_class_stats c[] = { cls("TNT_L0_1002", 15.8, 2, 24000) };
	struct finding_list l = { 0 };
	const struct finding *f;

	assert_int_equal(check(c, 1, &l), 0);
	assert_int_equal(l.n, 1);
	f = &l.items[0];
	assert_string_equal(f->id, "oversubscription");
	assert_int_equal(f->pid, 42);
	assert_string_equal(f->class_name, "TNT_L0_1002");
	assert_int_equal(f->severity, SEV_CRITICAL);   /* 8x the CPUs */
	assert_int_equal(f->first_interval, 3);
	assert_non_null(strstr(f->title, "15.8 runnable threads on 2 CPUs"));
	assert_non_null(strstr(f->hint, "Shrink the pool"));
	assert_true(f->n_ev >= 8);
	assert_string_equal(f->ev[0].key, "threads");
	findings_free(&l);
}

static void test_each_condition_alone_is_not_enough(void **state)
{
	struct sched_class_stats lone = cls("one-thread", 1.02, 1, 3000);
	struct sched_class_stats c[] = {
		lone,                                    /* one thread, one CPU: others' load */
		cls("busy-but-fast", 15.8, 2, 900),      /* p99 under 1 ms */
		cls("slow-but-few", 1.5, 2, 50000),      /* fewer runnable than CPUs */
		cls("unknown-cpus", 15.8, 0, 50000),     /* allowed CPUs unknown */
		cls("never-waited", 15.8, 2, NAN),
	};
	struct finding_list l = { 0 };

	c[0].threads = 1;
	assert_int_equal(check(c, 5, &l), 0);
	assert_int_equal(l.n, 0);
	findings_free(&l);
}

/* The judge reads a class's own CPUs only for a candidate: the tests that
 * are not about CPUs. A candidate fires or not by those CPUs alone. */
static void test_candidate_is_the_cpu_free_half(void **state)
{
	struct sched_class_stats pool = cls("pinned", 1.9, 2, 3000);
	struct sched_class_stats c[] = {
		cls("fast", 15.8, 2, 900),
		cls("never-waited", 15.8, 2, NAN),
		cls("one", 1.0, 2, 3000),
	};
	struct oversub_config cfg;
	struct finding_list l = { 0 };

	(void)state;
	oversub_config_default(&cfg);
	c[2].threads = 1;
	for (int i = 0; i < 3; i++)
		assert_false(oversubscription_candidate(&c[i], &cfg));
	/* two threads bound to one CPU of the group's two: a candidate, not
	 * oversubscribed on the group's CPUs, oversubscribed on its own */
	pool.threads = 2;
	assert_true(oversubscription_candidate(&pool, &cfg));
	assert_int_equal(check(&pool, 1, &l), 0);
	assert_int_equal(l.n, 0);
	pool.allowed_cpus = 1;
	assert_int_equal(check(&pool, 1, &l), 0);
	assert_int_equal(l.n, 1);
	assert_non_null(strstr(l.items[0].title, "1.9 runnable threads on 1 CPUs"));
	findings_free(&l);
}

static void test_merge_widens_interval_range(void **state)
{
	struct sched_class_stats c[] = { cls("w", 4.5, 2, 5000) };
	struct finding_list l = { 0 };
	struct finding f;

	assert_int_equal(check(c, 1, &l), 0);
	assert_int_equal(l.items[0].severity, SEV_WARNING);
	f = l.items[0];
	f.first_interval = f.last_interval = 7;
	assert_int_equal(findings_merge(&l, &f), 0);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.items[0].first_interval, 3);
	assert_int_equal(l.items[0].last_interval, 7);
	findings_free(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fires_and_evidence),
		cmocka_unit_test(test_each_condition_alone_is_not_enough),
		cmocka_unit_test(test_candidate_is_the_cpu_free_half),
		cmocka_unit_test(test_merge_widens_interval_range),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
