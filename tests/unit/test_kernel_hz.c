/* CONFIG_HZ from the kernel config: /boot first, then /proc/config.gz. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>
#include "sysinfo/kernel_hz.h"

static void test_parse(void **state)
{
	const char *cfg = "# CONFIG_HZ_100 is not set\nCONFIG_HZ_250=y\nCONFIG_HZ=250\nCONFIG_HZ_PERIODIC=y\n";

	assert_int_equal(kernel_hz_parse(cfg, strlen(cfg)), 250);
	/* CONFIG_HZ_250=y is not CONFIG_HZ= */
	assert_int_equal(kernel_hz_parse("CONFIG_HZ_250=y\n", 16), -ENOENT);
	assert_int_equal(kernel_hz_parse("CONFIG_HZ=0\n", 12), -ENOENT);
	assert_int_equal(kernel_hz_parse("CONFIG_HZ=25x\n", 14), -ENOENT);
	/* no newline at the end */
	assert_int_equal(kernel_hz_parse("CONFIG_HZ=1000", 14), 1000);
	assert_int_equal(kernel_hz_parse("", 0), -ENOENT);
}

/* tests/fixtures/netloss-host has both (synthetic): /boot says 250, the
 * gzip'd /proc/config.gz 1000. */
static void test_read_order(void **state)
{
	assert_int_equal(kernel_hz_read(FIXTURES "/netloss-host", "6.1.0-27-cloud-amd64"), 250);
	/* another release: /boot has no config of it, /proc/config.gz answers */
	assert_int_equal(kernel_hz_read(FIXTURES "/netloss-host", "6.18.44"), 1000);
	assert_int_equal(kernel_hz_read(FIXTURES "/netloss-host", "../../etc"), 1000);
	assert_int_equal(kernel_hz_read(FIXTURES "/no-such-tree", "6.1.0"), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_read_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
