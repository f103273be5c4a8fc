#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/vec.h"

static void test_grows_by_doubling_and_keeps_items(void **state)
{
	int *items = NULL;
	size_t n = 0, cap = 0;

	for (int i = 0; i < 1000; i++) {
		assert_int_equal(VEC_RESERVE(items, cap, n + 1), 0);
		items[n++] = i;
	}
	assert_true(cap >= 1000 && cap < 2000);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(items[i], i);
	free(items);
}

static void test_no_realloc_when_room(void **state)
{
	long *items = NULL;
	size_t cap = 0;

	assert_int_equal(VEC_RESERVE(items, cap, 3), 0);
	assert_int_equal(cap, 8);
	long *before = items;
	assert_int_equal(VEC_RESERVE(items, cap, 8), 0);
	assert_ptr_equal(items, before);
	free(items);
}

static void test_overflow_refused_unchanged(void **state)
{
	char (*items)[64] = NULL;
	size_t cap = 0;

	assert_int_equal(VEC_RESERVE(items, cap, 1), 0);
	void *before = items;
	assert_int_equal(VEC_RESERVE(items, cap, SIZE_MAX / 8), -ENOMEM);
	assert_ptr_equal(items, before);
	assert_int_equal(cap, 8);
	free(items);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grows_by_doubling_and_keeps_items),
		cmocka_unit_test(test_no_realloc_when_room),
		cmocka_unit_test(test_overflow_refused_unchanged),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
