// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sysinfo/tuned.h"

static void fixture_profiles(void **state)
{
	struct dbt_tuned t;

	assert_int_equal(dbt_tuned_read(FIXTURES "/hpet-skewtick-netem", &t),
			 0);
	assert_true(t.file_present);
	assert_string_equal(t.profile, "network-latency");
	assert_true(dbt_tuned_has(&t, "network-latency"));
	assert_false(dbt_tuned_has(&t, "network"));
	assert_false(dbt_tuned_has(&t, "latency"));

	assert_int_equal(dbt_tuned_read(FIXTURES "/clean", &t), 0);
	assert_string_equal(t.profile, "throughput-performance");
	assert_false(dbt_tuned_has(&t, "network-latency"));
}

static void absent_is_none(void **state)
{
	struct dbt_tuned t;

	assert_int_equal(dbt_tuned_read(FIXTURES "/ansvu-worker0", &t), 0);
	assert_false(t.file_present);
	assert_string_equal(t.profile, "");
	assert_false(dbt_tuned_has(&t, ""));
	assert_false(dbt_tuned_has(&t, NULL));
	assert_int_equal(dbt_tuned_read(FIXTURES "/nonexistent", &t), 0);
	assert_false(t.file_present);
}

/* Edge cases written into a scratch root. */
struct scratch {
	char root[64];
	char dir[96];
	char file[128];
};

static int scratch_setup(void **state)
{
	static struct scratch s; /* one test group at a time */

	strcpy(s.root, "/tmp/dbt_tuned_XXXXXX");
	if (!mkdtemp(s.root))
		return -1;
	snprintf(s.dir, sizeof(s.dir), "%s/etc", s.root);
	mkdir(s.dir, 0755);
	snprintf(s.dir, sizeof(s.dir), "%s/etc/tuned", s.root);
	mkdir(s.dir, 0755);
	snprintf(s.file, sizeof(s.file), "%s/active_profile", s.dir);
	*state = &s;
	return 0;
}

static int scratch_teardown(void **state)
{
	struct scratch *s = *state;

	unlink(s->file);
	rmdir(s->dir);
	snprintf(s->dir, sizeof(s->dir), "%s/etc", s->root);
	rmdir(s->dir);
	rmdir(s->root);
	return 0;
}

static void put(struct scratch *s, const void *data, size_t n)
{
	FILE *f = fopen(s->file, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, n, f), n);
	fclose(f);
}

static void edge_contents(void **state)
{
	struct scratch *s = *state;
	struct dbt_tuned t;
	static char big[70 * 1024];

	put(s, "", 0); /* "tuned-adm off" leaves an empty file */
	assert_int_equal(dbt_tuned_read(s->root, &t), 0);
	assert_true(t.file_present);
	assert_string_equal(t.profile, "");

	put(s, "throughput-performance virtual-guest", 36);
	assert_int_equal(dbt_tuned_read(s->root, &t), 0);
	assert_string_equal(t.profile, "throughput-performance virtual-guest");
	assert_true(dbt_tuned_has(&t, "virtual-guest"));
	assert_true(dbt_tuned_has(&t, "throughput-performance"));

	put(s, "  latency-performance \r\nsecond line\n", 36);
	assert_int_equal(dbt_tuned_read(s->root, &t), 0);
	assert_string_equal(t.profile, "latency-performance");

	put(s, "net\0work-latency\n", 17);
	assert_int_equal(dbt_tuned_read(s->root, &t), 0);
	assert_string_equal(t.profile, "net");

	memset(big, 'a', 1000);
	put(s, big, 1000);
	assert_int_equal(dbt_tuned_read(s->root, &t), 0);
	assert_int_equal(strlen(t.profile), DBT_TUNED_PROFILE_MAX - 1);

	/* past the 64 KiB read limit: its head is read */
	memset(big, 'b', sizeof(big));
	put(s, big, sizeof(big));
	assert_int_equal(dbt_tuned_read(s->root, &t), 0);
	assert_true(t.file_present);
	assert_int_equal(strspn(t.profile, "b"), DBT_TUNED_PROFILE_MAX - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fixture_profiles),
		cmocka_unit_test(absent_is_none),
		cmocka_unit_test_setup_teardown(edge_contents, scratch_setup,
						scratch_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
