/* classes[].time in the capture: the oncpu state's user/system split
 * written and read back (report and diff read captures), and null when
 * the split is unknown. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <math.h>
#include "capture/capture_time.h"

#define MS 1000000ull

static double member(json_object *o, const char *key)
{
	json_object *v;

	assert_true(json_object_object_get_ex(o, key, &v));
	return json_object_get_double(v);
}

static json_object *split_of(json_object *cls)
{
	json_object *time, *split;

	assert_true(json_object_object_get_ex(cls, "time", &time));
	assert_true(json_object_object_get_ex(time, "oncpu_split", &split));
	return split;
}

/* 400 ms on CPU of 1 s, ticks 3:1: 300 ms user, 100 ms system, read
 * back as the same split (the seconds keep the ticks' ratio). */
static void test_split_round_trip(void **state)
{
	struct class_time t = { .thread_ns = 1000 * MS }, back;
	json_object *cls = json_object_new_object(), *split;

	t.ns[CT_ONCPU] = 400 * MS;
	t.ns[CT_SLEEP] = 600 * MS;
	t.tick_user_ns = 12 * MS;
	t.tick_sys_ns = 4 * MS;
	class_time_finish(&t);
	capture_time_write(cls, &t, NULL);
	split = split_of(cls);
	assert_non_null(split);
	assert_true(fabs(member(split, "user_pct") - 30) < 1e-6);
	assert_true(fabs(member(split, "system_pct") - 10) < 1e-6);
	assert_true(fabs(member(split, "user_seconds") - 0.3) < 1e-9);
	assert_true(fabs(member(split, "system_seconds") - 0.1) < 1e-9);
	capture_time_read(cls, &back);
	assert_int_equal(back.oncpu_user_ns, 300 * MS);
	assert_int_equal(back.oncpu_sys_ns, 100 * MS);
	assert_true(fabs(back.oncpu_user_pct - 30) < 1e-6);
	json_object_put(cls);
}

/* No tick: null in the capture, unknown (NAN) when read back. */
static void test_unknown_split_is_null(void **state)
{
	struct class_time t = { .thread_ns = 1000 * MS }, back;
	json_object *cls = json_object_new_object();

	t.ns[CT_ONCPU] = 10 * MS;
	t.ns[CT_NET] = 990 * MS;
	class_time_finish(&t);
	capture_time_write(cls, &t, NULL);
	assert_null(split_of(cls));
	capture_time_read(cls, &back);
	assert_true(isnan(back.oncpu_user_pct) && isnan(back.oncpu_sys_pct));
	json_object_put(cls);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split_round_trip),
		cmocka_unit_test(test_unknown_split_is_null),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
