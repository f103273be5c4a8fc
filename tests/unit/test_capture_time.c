/* classes[].time in the capture, written and read back through the
 * classes table (report and diff read captures): the oncpu state's
 * user/system split, null when it is unknown; the lists of syscalls and
 * futex words the time section writes itself. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <math.h>
#include <string.h>
#include "capture/capture_figures.h"
#include "capture/capture_time.h"
#include "model/sched_stats.h"

#define MS 1000000ull

static double member(json_object *o, const char *key)
{
	json_object *v;

	assert_true(json_object_object_get_ex(o, key, &v));
	return json_object_get_double(v);
}

/* A class with budget t, through the capture and back. */
static json_object *write_class(const struct class_time *t)
{
	struct sched_class_stats c;
	json_object *o = json_object_new_object();

	memset(&c, 0, sizeof(c));
	c.time = *t;
	capture_figs_write(o, &fig_classes, &c, NULL);
	return o;
}

static void read_class(json_object *o, struct class_time *t)
{
	struct sched_class_stats c;

	memset(&c, 0, sizeof(c));
	assert_int_equal(capture_figs_read(o, &fig_classes, &c, NULL), 0);
	capture_time_derive(&c.time);
	*t = c.time;
	sched_class_free(&c);
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
	json_object *cls, *split;

	t.ns[CT_ONCPU] = 400 * MS;
	t.ns[CT_SLEEP] = 600 * MS;
	t.tick_user_ns = 12 * MS;
	t.tick_sys_ns = 4 * MS;
	class_time_finish(&t);
	cls = write_class(&t);
	split = split_of(cls);
	assert_non_null(split);
	assert_true(fabs(member(split, "user_pct") - 30) < 1e-6);
	assert_true(fabs(member(split, "system_pct") - 10) < 1e-6);
	assert_true(fabs(member(split, "user_seconds") - 0.3) < 1e-9);
	assert_true(fabs(member(split, "system_seconds") - 0.1) < 1e-9);
	read_class(cls, &back);
	assert_int_equal(back.oncpu_user_ns, 300 * MS);
	assert_int_equal(back.oncpu_sys_ns, 100 * MS);
	assert_true(fabs(back.oncpu_user_pct - 30) < 1e-6);
	json_object_put(cls);
}

/* No tick: null in the capture, unknown (NAN) when read back. */
static void test_unknown_split_is_null(void **state)
{
	struct class_time t = { .thread_ns = 1000 * MS }, back;
	json_object *cls;

	t.ns[CT_ONCPU] = 10 * MS;
	t.ns[CT_NET] = 990 * MS;
	class_time_finish(&t);
	cls = write_class(&t);
	assert_null(split_of(cls));
	read_class(cls, &back);
	assert_true(isnan(back.oncpu_user_pct) && isnan(back.oncpu_sys_pct));
	json_object_put(cls);
}

/* The pipe_other syscalls and the futex words, with their seconds. */
static void test_lists_round_trip(void **state)
{
	struct class_time t = { .thread_ns = 1000 * MS }, back;
	json_object *cls, *time, *futex, *words;

	t.ns[CT_PIPE_OTHER] = 200 * MS;
	t.ns[CT_FUTEX] = 800 * MS;
	t.sys_nr[0] = 61;
	t.sys_ns[0] = 150 * MS;
	t.sys_nr[1] = 0;
	t.sys_ns[1] = 50 * MS;
	t.n_sys = 2;
	t.futex_addr[0] = 0x7f00aa10;
	t.futex_ns[0] = 600 * MS;
	t.n_futex = 1;
	class_time_finish(&t);
	cls = write_class(&t);
	assert_true(json_object_object_get_ex(cls, "time", &time));
	assert_true(json_object_object_get_ex(time, "futex", &futex));
	assert_true(json_object_object_get_ex(futex, "top_addresses", &words));
	assert_int_equal(json_object_array_length(words), 1);
	/* of the blocked time, not of the futex time alone */
	assert_true(fabs(member(json_object_array_get_idx(words, 0), "blocked_share_pct") - 60) < 1e-6);
	read_class(cls, &back);
	assert_int_equal(back.n_sys, 2);
	assert_int_equal(back.sys_nr[0], 61);
	assert_int_equal(back.sys_ns[0], 150 * MS);
	assert_int_equal(back.n_futex, 1);
	assert_int_equal(back.futex_addr[0], 0x7f00aa10);
	assert_int_equal(back.futex_ns[0], 600 * MS);
	assert_true(fabs(back.top_word_blocked_pct - 60) < 1e-6);
	json_object_put(cls);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split_round_trip),
		cmocka_unit_test(test_unknown_split_is_null),
		cmocka_unit_test(test_lists_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
