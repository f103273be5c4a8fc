// SPDX-License-Identifier: GPL-2.0
/* Transparent huge page modes: the bracketed word of the sysfs choice
 * files, on the fixture trees and on the kernel's exact formats. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "sysinfo/thp.h"

static void parse_choice_formats(void **state)
{
	char out[DBT_THP_VALUE_MAX];
	/* enabled and defrag as mm/huge_memory.c prints them */
	const char *en = "always [madvise] never\n";
	const char *df = "always defer defer+madvise [madvise] never\n";
	const char *df2 = "always [defer+madvise] defer madvise never\n";

	assert_int_equal(dbt_thp_parse_choice(en, strlen(en), out, sizeof(out)), 0);
	assert_string_equal(out, "madvise");
	assert_int_equal(dbt_thp_parse_choice(df, strlen(df), out, sizeof(out)), 0);
	assert_string_equal(out, "madvise");
	assert_int_equal(dbt_thp_parse_choice(df2, strlen(df2), out, sizeof(out)), 0);
	assert_string_equal(out, "defer+madvise");
	assert_int_equal(dbt_thp_parse_choice("[always] madvise never", 22, out, sizeof(out)), 0);
	assert_string_equal(out, "always");
}

static void parse_choice_rejects(void **state)
{
	char out[8];

	assert_int_equal(dbt_thp_parse_choice("always madvise never", 20, out, sizeof(out)), -EINVAL);
	assert_string_equal(out, "");
	assert_int_equal(dbt_thp_parse_choice("[] never", 8, out, sizeof(out)), -EINVAL);
	assert_int_equal(dbt_thp_parse_choice("[madvise", 8, out, sizeof(out)), -EINVAL);
	/* the closing bracket past n does not count */
	assert_int_equal(dbt_thp_parse_choice("[never]", 6, out, sizeof(out)), -EINVAL);
	assert_int_equal(dbt_thp_parse_choice("[defer+madvise]", 15, out, sizeof(out)), -ENAMETOOLONG);
}

static void fixture_trees(void **state)
{
	struct dbt_thp t;

	assert_int_equal(dbt_thp_read(FIXTURES "/clean", &t), 0);
	assert_true(t.has_enabled);
	assert_string_equal(t.enabled, "madvise");
	assert_true(t.has_defrag);
	assert_string_equal(t.defrag, "madvise");

	assert_int_equal(dbt_thp_read(FIXTURES "/hpet-skewtick-netem", &t), 0);
	assert_string_equal(t.enabled, "never");

	/* no transparent_hugepage directory: not an error, nothing known */
	assert_int_equal(dbt_thp_read(FIXTURES "/old-kernel-4cpu", &t), 0);
	assert_false(t.has_enabled);
	assert_false(t.has_defrag);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_choice_formats),
		cmocka_unit_test(parse_choice_rejects),
		cmocka_unit_test(fixture_trees),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
