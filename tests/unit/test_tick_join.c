/* The tick's join step: the clock's vDSO share beside the sched rows of
 * the same map index, and the CPUs a group and a class may use, read
 * through the session's source (a fake here) for the busiest groups. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <string.h>
#include "session/tick_join.h"
#include "sched_samples.h"

#define NS 1000000000ull

static struct sched_group_stats *group_of(struct sched_interval *si, int pid)
{
	for (int i = 0; i < si->n_groups; i++)
		if (si->groups[i].pid == pid)
			return &si->groups[i];
	return NULL;
}

static struct sched_class_stats *class_of(struct sched_interval *si, int pid, const char *name)
{
	struct sched_group_stats *g = group_of(si, pid);

	for (int k = 0; g && k < g->n_classes; k++)
		if (!strcmp(g->classes[k].name, name))
			return &g->classes[k];
	return NULL;
}

/* Two processes with classes of the same names (db, w-*). */
static void two_processes(struct sched_snapshot *a, struct sched_snapshot *b)
{
	sched_snapshot_init(a);
	sched_snapshot_init(b);
	b->mono_ns = NS;
	for (uint32_t pid = 50; pid <= 70; pid += 20) {
		sched_sample(b, pid, pid, "db", "db", NS / 10, 1, 0);
		sched_sample(b, pid, pid + 1, "w-1", "db", NS / (pid == 50 ? 2 : 4), 1, 0);
		sched_sample(b, pid, pid + 2, "w-2", "db", NS / (pid == 50 ? 2 : 4), 1, 0);
	}
	sched_snapshot_sort(b);
}

/* A clock row of the same map index as the sched row. */
static void clock_row(struct clock_stats *c, const struct sched_class_stats *s, double vdso_pct)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", s->name);
	c->map_class = s->map_class;
	c->vdso_pct = vdso_pct;
}

/* The share reaches the sched row of the same class of the same group:
 * two processes with a class of one name do not mix; a row without a
 * clock row (or with the clock family off) has none. */
static void test_vdso_share_by_map_index(void **state)
{
	struct sched_snapshot a, b;
	struct sched_interval si;
	struct class_map map;
	struct clock_stats rows50[2], rows70[1];
	struct clock_group_stats groups[2];
	struct clock_interval ci = { .groups = groups, .n_groups = 2 };

	(void)state;
	two_processes(&a, &b);
	assert_int_equal(sched_sample_interval_map(&a, &b, NULL, NULL, &map, &si), 0);
	memset(groups, 0, sizeof(groups));
	groups[0].pid = 50;
	groups[0].map_group = group_of(&si, 50)->map_group;
	groups[0].total.vdso_pct = 20;
	clock_row(&rows50[0], class_of(&si, 50, "w-*"), 40);
	clock_row(&rows50[1], class_of(&si, 50, "db"), 0);
	groups[0].classes = rows50;
	groups[0].n_classes = 2;
	groups[1].pid = 70;
	groups[1].map_group = group_of(&si, 70)->map_group;
	groups[1].total.vdso_pct = 10;
	clock_row(&rows70[0], class_of(&si, 70, "db"), 10);   /* its w-* read no clock */
	groups[1].classes = rows70;
	groups[1].n_classes = 1;

	assert_int_equal(tick_join(&si, &ci, &map, NULL, 0), 0);
	assert_float_equal(class_of(&si, 50, "w-*")->vdso_pct, 40.0, 1e-9);
	assert_float_equal(class_of(&si, 50, "db")->vdso_pct, 0.0, 1e-9);
	assert_float_equal(group_of(&si, 50)->total.vdso_pct, 20.0, 1e-9);
	assert_float_equal(class_of(&si, 70, "db")->vdso_pct, 10.0, 1e-9);
	assert_true(isnan(class_of(&si, 70, "w-*")->vdso_pct));
	assert_float_equal(group_of(&si, 70)->total.vdso_pct, 10.0, 1e-9);
	/* no CPU source: unknown, not guessed */
	assert_int_equal(group_of(&si, 50)->total.allowed_cpus, 0);
	assert_string_equal(group_of(&si, 50)->cpus_allowed, "");

	assert_int_equal(tick_join(&si, NULL, &map, NULL, 0), 0);
	assert_true(isnan(class_of(&si, 50, "w-*")->vdso_pct));
	assert_true(isnan(group_of(&si, 50)->total.vdso_pct));
	sched_interval_free(&si);
	class_map_free(&map);
	sched_snapshot_free(&b);
}

/* The fake /proc: group 50 may use CPUs 0-3, its w-* threads only CPU 1
 * (its threads do not all share one set); group 70 is gone. */
struct fake_proc {
	int group_reads, class_reads;
};

static int fake_group(void *ctx, int pid, int index, struct dbt_cpuset *cpus, unsigned int *n_differ)
{
	struct fake_proc *f = ctx;

	assert_int_equal(index, 7);
	f->group_reads++;
	dbt_cpuset_zero(cpus);
	if (pid == 70)
		return -ENOENT;
	for (unsigned int c = 0; c < 4; c++)
		dbt_cpuset_set(cpus, c);
	*n_differ = pid == 50 ? 2 : 0;
	return 0;
}

static bool fake_wants(void *ctx, const struct sched_class_stats *c)
{
	(void)ctx;
	return !strcmp(c->name, "w-*");
}

static int fake_class(void *ctx, const struct class_map *map, int cls, struct dbt_cpuset *cpus)
{
	struct fake_proc *f = ctx;

	assert_string_equal(map->classes[cls].name, "w-*");
	f->class_reads++;
	dbt_cpuset_zero(cpus);
	dbt_cpuset_set(cpus, 1);
	return 2;
}

static void test_allowed_cpus(void **state)
{
	struct sched_snapshot a, b;
	struct sched_interval si;
	struct class_map map;
	struct fake_proc f = { 0 };
	struct tick_cpus cpus = { &f, fake_group, fake_wants, fake_class };

	(void)state;
	two_processes(&a, &b);
	assert_int_equal(sched_sample_interval_map(&a, &b, NULL, NULL, &map, &si), 0);
	assert_int_equal(tick_join(&si, NULL, &map, &cpus, 7), 0);
	assert_int_equal(f.group_reads, 2);
	assert_string_equal(group_of(&si, 50)->cpus_allowed, "0-3");
	assert_int_equal(group_of(&si, 50)->total.allowed_cpus, 4);
	assert_int_equal(class_of(&si, 50, "db")->allowed_cpus, 4);
	assert_int_equal(class_of(&si, 50, "w-*")->allowed_cpus, 1);   /* its own threads' set */
	/* group 70 is gone: unknown, and its classes not read */
	assert_int_equal(f.class_reads, 1);
	assert_string_equal(group_of(&si, 70)->cpus_allowed, "");
	assert_int_equal(group_of(&si, 70)->total.allowed_cpus, 0);
	assert_int_equal(class_of(&si, 70, "w-*")->allowed_cpus, 0);
	sched_interval_free(&si);
	class_map_free(&map);
	sched_snapshot_free(&b);
}

static int all_cpus(void *ctx, int pid, int index, struct dbt_cpuset *cpus, unsigned int *n_differ)
{
	(void)ctx;
	(void)pid;
	(void)index;
	dbt_cpuset_zero(cpus);
	dbt_cpuset_set(cpus, 0);
	*n_differ = 0;
	return 0;
}

/* Only the busiest TICK_CPUS_GROUPS groups are read: as many as a
 * capture lists. */
static void test_only_the_busiest_groups(void **state)
{
	struct sched_snapshot a, b;
	struct sched_interval si;
	struct class_map map;
	struct tick_cpus cpus = { NULL, all_cpus, fake_wants, fake_class };
	int n = TICK_CPUS_GROUPS + 2;

	(void)state;
	sched_snapshot_init(&a);
	sched_snapshot_init(&b);
	b.mono_ns = NS;
	for (int i = 0; i < n; i++)
		sched_sample(&b, 1000 + (uint32_t)i, 1000 + (uint32_t)i, "p", "p", NS / 100 * (uint64_t)(n - i), 1, 0);
	sched_snapshot_sort(&b);
	assert_int_equal(sched_sample_interval_map(&a, &b, NULL, NULL, &map, &si), 0);
	assert_int_equal(si.n_groups, n);
	assert_int_equal(tick_join(&si, NULL, &map, &cpus, 0), 0);
	assert_int_equal(si.groups[TICK_CPUS_GROUPS - 1].total.allowed_cpus, 1);
	assert_int_equal(si.groups[TICK_CPUS_GROUPS].total.allowed_cpus, 0);
	assert_int_equal(si.groups[n - 1].total.allowed_cpus, 0);
	sched_interval_free(&si);
	class_map_free(&map);
	sched_snapshot_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vdso_share_by_map_index),
		cmocka_unit_test(test_allowed_cpus),
		cmocka_unit_test(test_only_the_busiest_groups),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
