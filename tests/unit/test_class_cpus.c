/* session/class_cpus: a class's CPUs are the union of its own threads',
 * on the fixture /proc of pinned_pool (700 and its helper 701 on 0-3,
 * the workers 702 and 704 bound to 2, 703 to 3). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>

#include "session/class_cpus.h"

#define ROOT "tests/fixtures/pinned_pool"

static int class_of(const struct class_map *map, uint32_t tid)
{
	return (int)class_map_find(map, 700, tid)->cls;
}

static void test_union_of_the_class_threads(void **state)
{
	struct class_map_input in = { 0 };
	struct class_map map;
	struct dbt_cpuset set, want;

	(void)state;
	assert_int_equal(class_map_input_add(&in, 700, 700, "pool", "pool"), 0);
	assert_int_equal(class_map_input_add(&in, 700, 701, "helper", "pool"), 0);
	for (uint32_t tid = 702; tid <= 704; tid++)
		assert_int_equal(class_map_input_add(&in, 700, tid, "worker", "pool"), 0);
	/* a thread that has exited since the tick: its class reads nothing */
	assert_int_equal(class_map_input_add(&in, 700, 705, "ghost", "pool"), 0);
	assert_int_equal(class_map_build(&map, &in, NULL), 0);
	class_map_input_free(&in);

	/* the workers: 2 and 3, though their process may use 0-3 */
	assert_int_equal(class_cpus_allowed(ROOT, &map, class_of(&map, 703), &set), 3);
	dbt_cpuset_zero(&want);
	dbt_cpuset_set(&want, 2);
	dbt_cpuset_set(&want, 3);
	assert_true(dbt_cpuset_equal(&set, &want));
	assert_int_equal(dbt_cpuset_count(&set), 2);
	/* the helper alone: its own 0-3 */
	assert_int_equal(class_cpus_allowed(ROOT, &map, class_of(&map, 701), &set), 1);
	assert_int_equal(dbt_cpuset_count(&set), 4);
	assert_int_equal(class_cpus_allowed(ROOT, &map, class_of(&map, 705), &set), -ENOENT);
	assert_int_equal(class_cpus_allowed(ROOT, &map, -1, &set), -EINVAL);
	assert_int_equal(class_cpus_allowed(ROOT, &map, (int)map.n_classes, &set), -EINVAL);
	assert_int_equal(class_cpus_allowed(ROOT, NULL, 0, &set), -EINVAL);
	class_map_free(&map);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_union_of_the_class_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
