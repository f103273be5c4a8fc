/* Which processes the misbinding rules judge: -p's, else the busiest few
 * that use a twentieth of a core, never the tracer itself. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "session/misbinding.h"

static struct sched_group_stats procs[5];
static struct sched_interval si = { .dt_s = 1, .groups = procs, .n_groups = 5 };

static int setup(void **state)
{
	/* busiest first, as the model sorts them */
	static const int pid[] = { 10, 20, 30, 40, 50 };
	static const double pct[] = { 180, 90, 60, 30, 4 };

	for (int i = 0; i < 5; i++) {
		procs[i].pid = pid[i];
		procs[i].total.oncpu_pct = pct[i];
	}
	return 0;
}

static void test_pids_given_win(void **state)
{
	int want[] = { 77, 10 }, out[8];

	assert_int_equal(misbinding_pick(&si, want, 2, 0, out, 8), 2);
	assert_int_equal(out[0], 77);
	assert_int_equal(out[1], 10);
	assert_int_equal(misbinding_pick(&si, want, 2, 0, out, 1), 1);
}

static void test_busiest_three_without_self(void **state)
{
	int out[8];

	assert_int_equal(misbinding_pick(&si, NULL, 0, 20, out, 8), MISBIND_TARGETS);
	assert_int_equal(out[0], 10);
	assert_int_equal(out[1], 30);
	assert_int_equal(out[2], 40);
}

static void test_idle_processes_are_not_targets(void **state)
{
	int out[8];

	procs[1].total.oncpu_pct = 4.9;
	procs[2].total.oncpu_pct = 1;
	procs[3].total.oncpu_pct = 0;
	assert_int_equal(misbinding_pick(&si, NULL, 0, 0, out, 8), 1);
	assert_int_equal(out[0], 10);
	assert_int_equal(misbinding_pick(NULL, NULL, 0, 0, out, 8), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_pids_given_win, setup),
		cmocka_unit_test_setup(test_busiest_three_without_self, setup),
		cmocka_unit_test_setup(test_idle_processes_are_not_targets, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
