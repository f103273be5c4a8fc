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

#include "sysinfo/cpuset.h"
#include "fixture_util.h"

static void list_basic(void **state)
{
	struct dbt_cpuset s;
	char buf[64];

	assert_int_equal(dbt_cpuset_parse_list(&s, "0-3,8,10-11"), 0);
	assert_int_equal(dbt_cpuset_count(&s), 7);
	assert_true(dbt_cpuset_test(&s, 0));
	assert_true(dbt_cpuset_test(&s, 3));
	assert_false(dbt_cpuset_test(&s, 4));
	assert_true(dbt_cpuset_test(&s, 8));
	assert_false(dbt_cpuset_test(&s, 9));
	assert_true(dbt_cpuset_test(&s, 11));
	assert_false(dbt_cpuset_test(&s, 12));
	assert_false(dbt_cpuset_test(&s, DBT_CPUSET_MAX));
	assert_int_equal(dbt_cpuset_format_list(&s, buf, sizeof(buf)), 11);
	assert_string_equal(buf, "0-3,8,10-11");
}

static void list_empty_and_whitespace(void **state)
{
	struct dbt_cpuset s;
	char buf[8];

	assert_int_equal(dbt_cpuset_parse_list(&s, ""), 0);
	assert_true(dbt_cpuset_empty(&s));
	assert_int_equal(dbt_cpuset_parse_list(&s, "\n"), 0);
	assert_true(dbt_cpuset_empty(&s));
	assert_int_equal(dbt_cpuset_parse_list(&s, NULL), 0);
	assert_int_equal(dbt_cpuset_parse_list(&s, "0-5,12-17\n"), 0);
	assert_int_equal(dbt_cpuset_count(&s), 12);
	/* The kernel skips empty regions; a trailing comma is one. */
	assert_int_equal(dbt_cpuset_parse_list(&s, "1,,2,"), 0);
	assert_int_equal(dbt_cpuset_count(&s), 2);
	assert_int_equal(dbt_cpuset_format_list(&s, buf, sizeof(buf)), 3);
	assert_string_equal(buf, "1-2");
	dbt_cpuset_zero(&s);
	assert_int_equal(dbt_cpuset_format_list(&s, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
}

static void list_stride(void **state)
{
	struct dbt_cpuset s;
	char buf[64];

	/* Kernel "range:used/group" syntax: 2 of every 8 CPUs in 0-15. */
	assert_int_equal(dbt_cpuset_parse_list(&s, "0-15:2/8"), 0);
	assert_int_equal(dbt_cpuset_format_list(&s, buf, sizeof(buf)), 7);
	assert_string_equal(buf, "0-1,8-9");
}

static void list_garbage(void **state)
{
	static const char *const bad[] = {
		"a", "3-1", "1-", "-1", "1 2", "0-3:2", "0-3:2/", "0-7:3/0",
		"0-7:3/2", "1;2", "0x1", "1-2-3", "4,a", ",x",
	};
	struct dbt_cpuset s;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		dbt_cpuset_set(&s, 5);
		assert_int_equal(dbt_cpuset_parse_list(&s, bad[i]), -EINVAL);
		assert_true(dbt_cpuset_empty(&s));
	}
	assert_int_equal(dbt_cpuset_parse_list(&s, "8191"), 0);
	assert_true(dbt_cpuset_test(&s, 8191));
	assert_int_equal(dbt_cpuset_parse_list(&s, "8192"), -ERANGE);
	assert_int_equal(dbt_cpuset_parse_list(&s, "0-99999"), -ERANGE);
	assert_int_equal(dbt_cpuset_parse_list(&s, "99999999999999999999"),
			 -ERANGE);
	assert_true(dbt_cpuset_empty(&s));
	/* Length-bounded: the bytes after len must not be read. */
	assert_int_equal(dbt_cpuset_parse_list_n(&s, "12garbage", 2), 0);
	assert_int_equal(dbt_cpuset_count(&s), 1);
	assert_true(dbt_cpuset_test(&s, 12));
}

static void mask_basic(void **state)
{
	struct dbt_cpuset s;
	char buf[64];

	assert_int_equal(dbt_cpuset_parse_mask(&s, "ffffffff,000000ff"), 0);
	assert_int_equal(dbt_cpuset_count(&s), 40);
	assert_int_equal(dbt_cpuset_format_list(&s, buf, sizeof(buf)), 9);
	assert_string_equal(buf, "0-7,32-63");
	/* harvester workqueue cpumask: all 24 CPUs, no comma at all. */
	assert_int_equal(dbt_cpuset_parse_mask(&s, "ffffff\n"), 0);
	assert_int_equal(dbt_cpuset_count(&s), 24);
	assert_int_equal(dbt_cpuset_format_list(&s, buf, sizeof(buf)), 4);
	assert_string_equal(buf, "0-23");
	assert_int_equal(dbt_cpuset_parse_mask(&s, "0\n"), 0);
	assert_true(dbt_cpuset_empty(&s));
	assert_int_equal(dbt_cpuset_parse_mask(&s, ""), 0);
	assert_true(dbt_cpuset_empty(&s));
	assert_int_equal(dbt_cpuset_parse_mask(&s, "8000,00000001"), 0);
	assert_int_equal(dbt_cpuset_format_list(&s, buf, sizeof(buf)), 4);
	assert_string_equal(buf, "0,47");
}

/* The tuned.non_isolcpus masks on the ansvu command lines must agree with
 * systemd.cpu_affinity on the same lines. */
static void mask_ansvu_non_isolcpus(void **state)
{
	struct dbt_cpuset s;
	char buf[64];

	assert_int_equal(dbt_cpuset_parse_mask(&s,
			"000000ff,ffffffff,fff00000,03ffffff"), 0);
	assert_int_equal(dbt_cpuset_format_list(&s, buf, sizeof(buf)), 11);
	assert_string_equal(buf, "0-25,52-103");
	assert_int_equal(dbt_cpuset_parse_mask(&s,
			"000000ff,ffffffff,ffffffff,fffffe00"), 0);
	assert_int_equal(dbt_cpuset_format_list(&s, buf, sizeof(buf)), 5);
	assert_string_equal(buf, "9-103");
}

static void mask_vc2004_16_words(void **state)
{
	struct dbt_cpuset s;
	char buf[64];

	assert_int_equal(dbt_cpuset_read_mask(FIXTURES "/vc2004-bnx2x",
			"sys/devices/pci0000:00/0000:00:02.0/local_cpus", &s),
			 0);
	assert_int_equal(dbt_cpuset_count(&s), 16);
	assert_int_equal(dbt_cpuset_format_list(&s, buf, sizeof(buf)), 9);
	assert_string_equal(buf, "0-7,16-23");
	assert_int_equal(dbt_cpuset_read_mask(FIXTURES "/vc2004-bnx2x",
			"sys/class/net/eth0/queues/rx-0/rps_cpus", &s), 0);
	assert_int_equal(dbt_cpuset_format_list(&s, buf, sizeof(buf)), 3);
	assert_string_equal(buf, "0-7");
}

static void mask_garbage(void **state)
{
	static const char *const bad[] = {
		"xyz", "123456789", ",ff", "ff,", "ff,,ff", "ff ff", "0xff",
		"f-f", "ff,g",
	};
	struct dbt_cpuset s;
	char big[300 * 9 + 1];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		dbt_cpuset_set(&s, 1);
		assert_int_equal(dbt_cpuset_parse_mask(&s, bad[i]), -EINVAL);
		assert_true(dbt_cpuset_empty(&s));
	}
	/* 300 words: zero high words beyond 8192 CPUs are accepted... */
	big[0] = '\0';
	for (int i = 0; i < 300; i++)
		strcat(big, i ? ",00000000" : "00000000");
	big[strlen(big) - 1] = '1';
	assert_int_equal(dbt_cpuset_parse_mask(&s, big), 0);
	assert_int_equal(dbt_cpuset_count(&s), 1);
	assert_true(dbt_cpuset_test(&s, 0));
	/* ...a set bit there is not. */
	big[7] = '1';
	assert_int_equal(dbt_cpuset_parse_mask(&s, big), -ERANGE);
	assert_true(dbt_cpuset_empty(&s));
}

static void set_ops(void **state)
{
	struct dbt_cpuset a, b, c;
	char buf[64];

	dbt_cpuset_parse_list(&a, "0-7,16-23");
	dbt_cpuset_parse_list(&b, "4-19");
	dbt_cpuset_and(&c, &a, &b);
	dbt_cpuset_format_list(&c, buf, sizeof(buf));
	assert_string_equal(buf, "4-7,16-19");
	dbt_cpuset_or(&c, &a, &b);
	dbt_cpuset_format_list(&c, buf, sizeof(buf));
	assert_string_equal(buf, "0-23");
	/* Aliasing dst with a source. */
	dbt_cpuset_and(&a, &a, &b);
	dbt_cpuset_parse_list(&c, "4-7,16-19");
	assert_true(dbt_cpuset_equal(&a, &c));
	assert_int_equal(dbt_cpuset_next(&a, -1), 4);
	assert_int_equal(dbt_cpuset_next(&a, 7), 16);
	assert_int_equal(dbt_cpuset_next(&a, 19), -1);
	assert_int_equal(dbt_cpuset_next(&a, DBT_CPUSET_MAX + 5), -1);
	dbt_cpuset_clear(&a, 4);
	assert_int_equal(dbt_cpuset_next(&a, -1), 5);
	assert_int_equal(dbt_cpuset_set(&a, DBT_CPUSET_MAX), -ERANGE);
	assert_int_equal(dbt_cpuset_set(&a, DBT_CPUSET_MAX - 1), 0);
	assert_int_equal(dbt_cpuset_next(&a, 100), DBT_CPUSET_MAX - 1);
}

static void format_full_and_nospc(void **state)
{
	struct dbt_cpuset s;
	char buf[16];

	dbt_cpuset_parse_list(&s, "0-8191");
	assert_int_equal(dbt_cpuset_count(&s), DBT_CPUSET_MAX);
	assert_int_equal(dbt_cpuset_format_list(&s, buf, sizeof(buf)), 6);
	assert_string_equal(buf, "0-8191");
	dbt_cpuset_parse_list(&s, "1,3,5,7,9,11,13,15");
	assert_int_equal(dbt_cpuset_format_list(&s, buf, 8), -ENOSPC);
	assert_int_equal(strlen(buf), 7);
	assert_int_equal(dbt_cpuset_format_list(&s, buf, 0), -ENOSPC);
}

/* Every set must survive format -> parse unchanged (fixed seed). */
static void roundtrip_random(void **state)
{
	static char buf[64 * 1024];
	struct dbt_cpuset a, b;
	unsigned int seed = 12345;

	for (int iter = 0; iter < 200; iter++) {
		dbt_cpuset_zero(&a);
		int n = rand_r(&seed) % 3000;
		for (int i = 0; i < n; i++)
			dbt_cpuset_set(&a, (unsigned)rand_r(&seed) %
					   DBT_CPUSET_MAX);
		assert_true(dbt_cpuset_format_list(&a, buf, sizeof(buf)) >= 0);
		assert_int_equal(dbt_cpuset_parse_list(&b, buf), 0);
		assert_true(dbt_cpuset_equal(&a, &b));
	}
}

static void verbatim_copies(void **state)
{
	static const char *const copies[] = {
		"vc2004-bnx2x/sys/class/net/eth0/queues/rx-0/rps_cpus",
		"vc2004-bnx2x/sys/class/net/eth1/queues/rx-0/rps_cpus",
		"vc2004-bnx2x/sys/devices/pci0000:00/0000:00:02.0/local_cpus",
	};

	assert_verbatim_copies(copies);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(list_basic),
		cmocka_unit_test(list_empty_and_whitespace),
		cmocka_unit_test(list_stride),
		cmocka_unit_test(list_garbage),
		cmocka_unit_test(mask_basic),
		cmocka_unit_test(mask_ansvu_non_isolcpus),
		cmocka_unit_test(mask_vc2004_16_words),
		cmocka_unit_test(mask_garbage),
		cmocka_unit_test(set_ops),
		cmocka_unit_test(format_full_and_nospc),
		cmocka_unit_test(roundtrip_random),
		cmocka_unit_test(verbatim_copies),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
