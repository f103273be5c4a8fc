/* CLI parsing: every bad input is one message and -EINVAL, never an exit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <string.h>
#include "cli/options.h"

static int parse(struct dbt_config *cfg, char *err, int argc, ...)
{
	char *argv[16] = { "dbtrace" };
	va_list ap;

	va_start(ap, argc);
	for (int i = 1; i <= argc; i++)
		argv[i] = va_arg(ap, char *);
	va_end(ap);
	return dbt_parse_args(argc + 1, argv, cfg, err, 256);
}

static void test_defaults(void **state)
{
	struct dbt_config cfg;
	char err[256];

	assert_int_equal(parse(&cfg, err, 1, "top"), 0);
	assert_int_equal(cfg.command, DBT_CMD_TOP);
	assert_true(cfg.interval_s == 1.0);
	assert_true(cfg.duration_s == 0);
	assert_int_equal(cfg.n_pids, 0);
	assert_false(cfg.batch);
}

static void test_all_options(void **state)
{
	struct dbt_config cfg;
	char err[256];

	assert_int_equal(parse(&cfg, err, 12, "capture", "-i", "0.5", "-d", "30", "-p", "1",
			       "--pid=42", "-o", "run.json", "-vv", "--batch"), 0);
	assert_int_equal(cfg.command, DBT_CMD_CAPTURE);
	assert_true(cfg.interval_s == 0.5);
	assert_true(cfg.duration_s == 30);
	assert_int_equal(cfg.n_pids, 2);
	assert_int_equal(cfg.pids[0], 1);
	assert_int_equal(cfg.pids[1], 42);
	assert_string_equal(cfg.output, "run.json");
	assert_int_equal(cfg.verbose, 2);
	assert_true(cfg.batch);
}

static void test_seconds(void **state)
{
	double v;

	assert_int_equal(dbt_parse_seconds("2", &v), 0);
	assert_true(v == 2);
	assert_int_equal(dbt_parse_seconds("500ms", &v), 0);
	assert_true(fabs(v - 0.5) < 1e-9);
	assert_int_equal(dbt_parse_seconds("1m", &v), 0);
	assert_true(v == 60);
	assert_int_equal(dbt_parse_seconds("3s", &v), 0);
	assert_true(v == 3);
	const char *bad[] = { "0", "-1", "abc", "", "1x", "nan", "inf", "1e9", "0ms", "--5", " " };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(dbt_parse_seconds(bad[i], &v), -EINVAL);
}

static void test_bad_duration_messages(void **state)
{
	struct dbt_config cfg;
	char err[256];

	const char *bad[] = { "0", "-5", "abc" };
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(parse(&cfg, err, 3, "capture", "-d", bad[i]), -EINVAL);
		assert_non_null(strstr(err, "bad duration"));
		assert_non_null(strstr(err, bad[i]));
		assert_null(strchr(err, '\n'));
	}
	assert_int_equal(parse(&cfg, err, 3, "top", "-i", "0"), -EINVAL);
	assert_non_null(strstr(err, "bad interval"));
	/* a duration shorter than one interval would print nothing */
	assert_int_equal(parse(&cfg, err, 5, "top", "-i", "2", "-d", "1"), -EINVAL);
	assert_non_null(strstr(err, "shorter than the interval"));
}

static void test_bad_pids(void **state)
{
	struct dbt_config cfg;
	char err[256];
	pid_t p;

	const char *bad[] = { "0", "-1", "abc", "12x", "99999999999" };
	for (size_t i = 0; i < 5; i++) {
		assert_int_equal(dbt_parse_pid(bad[i], &p), -EINVAL);
		assert_int_equal(parse(&cfg, err, 3, "top", "-p", bad[i]), -EINVAL);
		assert_non_null(strstr(err, "bad PID"));
	}
}

static void test_unknown_option_and_command(void **state)
{
	struct dbt_config cfg;
	char err[256];

	assert_int_equal(parse(&cfg, err, 2, "top", "--frobnicate"), -EINVAL);
	assert_non_null(strstr(err, "unknown option '--frobnicate'"));
	assert_int_equal(parse(&cfg, err, 2, "top", "-Z"), -EINVAL);
	assert_non_null(strstr(err, "-Z"));
	assert_int_equal(parse(&cfg, err, 1, "fly"), -EINVAL);
	assert_non_null(strstr(err, "unknown command 'fly'"));
	assert_int_equal(parse(&cfg, err, 2, "top", "capture"), -EINVAL);
	assert_non_null(strstr(err, "unexpected argument"));
	assert_int_equal(parse(&cfg, err, 0), -EINVAL);
	assert_non_null(strstr(err, "no command"));
}

static void test_missing_value(void **state)
{
	struct dbt_config cfg;
	char err[256];

	assert_int_equal(parse(&cfg, err, 2, "capture", "-d"), -EINVAL);
	assert_non_null(strstr(err, "needs a value"));
	assert_int_equal(parse(&cfg, err, 2, "capture", "--output"), -EINVAL);
	assert_non_null(strstr(err, "needs a value"));
}

static void test_help(void **state)
{
	struct dbt_config cfg;
	char err[256];

	assert_int_equal(parse(&cfg, err, 1, "--help"), 0);
	assert_int_equal(cfg.command, DBT_CMD_HELP);
	assert_int_equal(parse(&cfg, err, 2, "top", "-h"), 0);
	assert_int_equal(cfg.command, DBT_CMD_HELP);
	assert_non_null(strstr(dbt_usage(), "capture"));
}

/* The clock family's sample rate and the gettimeofday_hotspot thresholds. */
static void test_clock_options(void **state)
{
	struct dbt_config cfg;
	char err[256];

	assert_int_equal(parse(&cfg, err, 1, "capture"), 0);
	assert_int_equal(cfg.sample_hz, 499);
	assert_true(cfg.clock_vdso_pct == 10);
	assert_true(cfg.clock_syscalls_per_s == 10000);

	assert_int_equal(parse(&cfg, err, 4, "top", "--sample-hz=99", "--clock-vdso-pct", "2.5"), 0);
	assert_int_equal(cfg.sample_hz, 99);
	assert_true(cfg.clock_vdso_pct == 2.5);
	assert_int_equal(parse(&cfg, err, 2, "capture", "--clock-syscalls=50000"), 0);
	assert_true(cfg.clock_syscalls_per_s == 50000);

	assert_int_equal(parse(&cfg, err, 2, "top", "--sample-hz=0"), -EINVAL);
	assert_non_null(strstr(err, "bad sample rate '0'"));
	assert_int_equal(parse(&cfg, err, 2, "top", "--sample-hz=10001"), -EINVAL);
	assert_int_equal(parse(&cfg, err, 2, "top", "--sample-hz=99.5"), -EINVAL);
	assert_int_equal(parse(&cfg, err, 2, "top", "--sample-hz=1k"), -EINVAL);
	assert_int_equal(parse(&cfg, err, 2, "top", "--clock-vdso-pct=101"), -EINVAL);
	assert_non_null(strstr(err, "bad vDSO share '101'"));
	assert_int_equal(parse(&cfg, err, 2, "top", "--clock-vdso-pct=nan"), -EINVAL);
	assert_int_equal(parse(&cfg, err, 2, "top", "--clock-syscalls=-1"), -EINVAL);
	assert_non_null(strstr(err, "bad clock syscall rate '-1'"));
	assert_int_equal(parse(&cfg, err, 2, "top", "--sample-hz"), -EINVAL);
	assert_non_null(strstr(err, "needs a value"));
	assert_non_null(strstr(dbt_usage(), "--sample-hz"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_all_options),
		cmocka_unit_test(test_seconds),
		cmocka_unit_test(test_bad_duration_messages),
		cmocka_unit_test(test_bad_pids),
		cmocka_unit_test(test_unknown_option_and_command),
		cmocka_unit_test(test_missing_value),
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_clock_options),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
