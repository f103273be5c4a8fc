/* CLI parsing: every bad input is one message and -EINVAL, never an exit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <string.h>
#include "cli/options.h"

/* The commands as the parser sees them; the handlers are the program's
 * (src/cmd/commands.c), not needed to parse. */
static const struct dbt_subcommand test_items[] = {
	{ "top", DBT_CMD_TOP, NULL, "", "live view" },
	{ "capture", DBT_CMD_CAPTURE, NULL, "", "record a capture" },
	{ "check", DBT_CMD_CHECK, NULL, "", "static audit" },
	{ "serve", DBT_CMD_SERVE, NULL, "", "exporter" },
	{ "report", DBT_CMD_REPORT, NULL, "CAPTURE", "HTML page" },
	{ "diff", DBT_CMD_DIFF, NULL, "BEFORE AFTER", "two captures" },
	{ "probes", DBT_CMD_PROBES, NULL, "", "attach paths" },
	{ "version", DBT_CMD_VERSION, NULL, "", "version" },
	{ "help", DBT_CMD_HELP, NULL, "", "this help" },
	{ "record", DBT_CMD_RECORD, NULL, "-- PROGRAM", "run and capture a program" },
};
static const struct dbt_command_table test_cmds = { test_items, 10 };

static char *usage_text(void)
{
	static char buf[8192];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	assert_non_null(f);
	assert_int_equal(dbt_usage(&test_cmds, f), 0);
	fclose(f);
	return buf;
}

static int parse(struct dbt_config *cfg, char *err, int argc, ...)
{
	char *argv[16] = { "dbtrace" };
	va_list ap;

	va_start(ap, argc);
	for (int i = 1; i <= argc; i++)
		argv[i] = va_arg(ap, char *);
	va_end(ap);
	return dbt_parse_args(argc + 1, argv, &test_cmds, cfg, err, 256);
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
	assert_non_null(strstr(usage_text(), "capture"));
}

/* The clock family's sample rate and the gettimeofday_hotspot thresholds. */
static void test_group_options(void **state)
{
	struct dbt_config cfg;
	char err[256];

	(void)state;
	assert_int_equal(parse(&cfg, err, 1, "top"), 0);
	assert_int_equal(cfg.group_by, PROC_GROUP_PARENT);
	assert_int_equal(cfg.n_cgroups, 0);
	assert_int_equal(parse(&cfg, err, 6, "capture", "--group-by", "cgroup", "--cgroup",
			       "postgresql@15-main.service", "--cgroup=/system.slice"), 0);
	assert_int_equal(cfg.group_by, PROC_GROUP_CGROUP);
	assert_int_equal(cfg.n_cgroups, 2);
	assert_string_equal(cfg.cgroups[0], "postgresql@15-main.service");
	assert_string_equal(cfg.cgroups[1], "/system.slice");
	assert_int_equal(parse(&cfg, err, 2, "top", "--group-by=pid"), 0);
	assert_int_equal(cfg.group_by, PROC_GROUP_PID);
	assert_int_equal(parse(&cfg, err, 2, "top", "--group-by=process"), -EINVAL);
	assert_string_equal(err, "bad --group-by 'process': parent, pid or cgroup");
	assert_int_equal(parse(&cfg, err, 2, "top", "--cgroup="), -EINVAL);
	assert_non_null(strstr(err, "bad --cgroup"));
}

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
	assert_false(cfg.count_clock_syscalls);
	assert_int_equal(parse(&cfg, err, 2, "capture", "--clock-syscalls=count"), 0);
	assert_true(cfg.count_clock_syscalls);
	assert_true(cfg.clock_syscalls_per_s == 10000);
	assert_int_equal(parse(&cfg, err, 2, "capture", "--clock-syscalls=counts"), -EINVAL);
	assert_non_null(strstr(err, "count"));

	assert_int_equal(parse(&cfg, err, 2, "top", "--sample-hz=0"), -EINVAL);
	assert_non_null(strstr(err, "bad sample rate '0'"));
	assert_int_equal(parse(&cfg, err, 2, "top", "--sample-hz=10001"), -EINVAL);
	assert_int_equal(parse(&cfg, err, 2, "top", "--sample-hz=99.5"), -EINVAL);
	assert_int_equal(parse(&cfg, err, 2, "top", "--sample-hz=1k"), -EINVAL);
	assert_int_equal(parse(&cfg, err, 2, "top", "--clock-vdso-pct=101"), -EINVAL);
	assert_non_null(strstr(err, "bad vDSO share '101'"));
	assert_int_equal(parse(&cfg, err, 2, "top", "--clock-vdso-pct=nan"), -EINVAL);
	assert_int_equal(parse(&cfg, err, 2, "top", "--clock-syscalls=-1"), -EINVAL);
	assert_non_null(strstr(err, "bad --clock-syscalls '-1'"));
	assert_int_equal(parse(&cfg, err, 2, "top", "--sample-hz"), -EINVAL);
	assert_non_null(strstr(err, "needs a value"));
	assert_non_null(strstr(usage_text(), "--sample-hz"));
}

/* The network view and the --port filter (repeatable, 1..65535). */
static void test_net_view_and_ports(void **state)
{
	struct dbt_config cfg;
	char err[256];

	assert_int_equal(parse(&cfg, err, 7, "top", "--batch", "--view", "net", "--port", "3306",
			       "--port=33060"), 0);
	assert_true(cfg.view_net);
	assert_false(cfg.view_classes);
	assert_int_equal(cfg.n_ports, 2);
	assert_int_equal(cfg.ports[0], 3306);
	assert_int_equal(cfg.ports[1], 33060);
	assert_int_equal(parse(&cfg, err, 3, "top", "--view", "classes"), 0);
	assert_true(cfg.view_classes);
	assert_false(cfg.view_net);
	assert_int_equal(parse(&cfg, err, 3, "top", "--view", "time"), 0);
	assert_true(cfg.view_time);
	assert_false(cfg.view_classes || cfg.view_net);
	assert_int_equal(parse(&cfg, err, 6, "top", "--futex-pct", "40", "--disk-pct=20", "--net-wait-pct",
			       "65"), 0);
	assert_true(cfg.futex_pct == 40 && cfg.disk_pct == 20 && cfg.net_wait_pct == 65);
	assert_int_equal(parse(&cfg, err, 3, "top", "--futex-pct", "0"), -EINVAL);
	assert_int_equal(parse(&cfg, err, 3, "top", "--disk-pct", "101"), -EINVAL);
	assert_non_null(strstr(err, "bad share '101'"));
	assert_int_equal(parse(&cfg, err, 3, "top", "--view", "disks"), -EINVAL);
	assert_non_null(strstr(err, "cpus, classes, time or net"));
	assert_int_equal(parse(&cfg, err, 3, "capture", "--port", "0"), -EINVAL);
	assert_non_null(strstr(err, "bad port '0'"));
	assert_int_equal(parse(&cfg, err, 3, "capture", "--port", "65536"), -EINVAL);
	assert_int_equal(parse(&cfg, err, 3, "capture", "--port", "80x"), -EINVAL);
	assert_int_equal(parse(&cfg, err, 3, "capture", "--port", "3306.5"), -EINVAL);
	assert_int_equal(parse(&cfg, err, 2, "capture", "--port"), -EINVAL);
	assert_non_null(strstr(err, "needs a value"));
	{
		char *argv[40] = { "dbtrace", "capture" };
		int argc = 2;

		for (int i = 0; i < 17; i++) {
			argv[argc++] = "--port";
			argv[argc++] = "80";
		}
		assert_int_equal(dbt_parse_args(argc, argv, &test_cmds, &cfg, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "too many --port"));
	}
}

static void test_check_options(void **state)
{
	struct dbt_config cfg;
	char err[256];

	assert_int_equal(parse(&cfg, err, 1, "check"), 0);
	assert_int_equal(cfg.command, DBT_CMD_CHECK);
	assert_false(cfg.json);
	assert_null(cfg.root);
	assert_int_equal(parse(&cfg, err, 6, "check", "--json", "--root", "/srv/copy", "-p", "42"), 0);
	assert_true(cfg.json);
	assert_string_equal(cfg.root, "/srv/copy");
	assert_int_equal(cfg.n_pids, 1);
	assert_int_equal(parse(&cfg, err, 2, "check", "--root="), -EINVAL);
	assert_string_equal(err, "empty --root directory");
	assert_int_equal(parse(&cfg, err, 2, "check", "--root"), -EINVAL);
	assert_string_equal(err, "option '--root' needs a value");
	/* options of check only */
	assert_int_equal(parse(&cfg, err, 2, "top", "--json"), -EINVAL);
	assert_string_equal(err, "--json is an option of check and diff only");
	assert_int_equal(parse(&cfg, err, 3, "capture", "--root", "/x"), -EINVAL);
	assert_string_equal(err, "--root is an option of check only");
}

/* --all: every thread class in top's class and time views and the
 * report; the capture keeps every class anyway. */
static void test_all(void **state)
{
	struct dbt_config cfg;
	char err[256];

	(void)state;
	assert_int_equal(parse(&cfg, err, 2, "top", "--batch"), 0);
	assert_false(cfg.all);
	assert_int_equal(parse(&cfg, err, 3, "top", "--batch", "--all"), 0);
	assert_true(cfg.all);
	assert_int_equal(parse(&cfg, err, 3, "report", "x.json", "--all"), 0);
	assert_true(cfg.all);
	assert_int_equal(parse(&cfg, err, 2, "capture", "--all"), -EINVAL);
	assert_string_equal(err, "--all is an option of top and report only");
}

static void test_listen(void **state)
{
	char host[64];
	unsigned short port;

	assert_int_equal(dbt_parse_listen("127.0.0.1:9464", host, sizeof(host), &port), 0);
	assert_string_equal(host, "127.0.0.1");
	assert_int_equal(port, 9464);
	assert_int_equal(dbt_parse_listen(":9100", host, sizeof(host), &port), 0);
	assert_string_equal(host, "");
	assert_int_equal(port, 9100);
	assert_int_equal(dbt_parse_listen("[::1]:1", host, sizeof(host), &port), 0);
	assert_string_equal(host, "::1");
	assert_int_equal(port, 1);
	assert_int_equal(dbt_parse_listen("localhost:65535", host, sizeof(host), &port), 0);
	assert_string_equal(host, "localhost");
	/* no port, port out of range or with a sign, bare IPv6, junk */
	assert_int_equal(dbt_parse_listen("127.0.0.1", host, sizeof(host), &port), -EINVAL);
	assert_int_equal(dbt_parse_listen("127.0.0.1:", host, sizeof(host), &port), -EINVAL);
	assert_int_equal(dbt_parse_listen("127.0.0.1:0", host, sizeof(host), &port), -EINVAL);
	assert_int_equal(dbt_parse_listen("127.0.0.1:65536", host, sizeof(host), &port), -EINVAL);
	assert_int_equal(dbt_parse_listen("127.0.0.1:+80", host, sizeof(host), &port), -EINVAL);
	assert_int_equal(dbt_parse_listen("127.0.0.1:80x", host, sizeof(host), &port), -EINVAL);
	assert_int_equal(dbt_parse_listen("::1:80", host, sizeof(host), &port), -EINVAL);
	assert_int_equal(dbt_parse_listen("[::1]80", host, sizeof(host), &port), -EINVAL);
	assert_int_equal(dbt_parse_listen("[]:80", host, sizeof(host), &port), -EINVAL);
	assert_int_equal(dbt_parse_listen("", host, sizeof(host), &port), -EINVAL);
	/* the host must fit */
	assert_int_equal(dbt_parse_listen("averyveryverylonghostname:80", host, 8, &port), -EINVAL);
}

static void test_serve_report_diff(void **state)
{
	struct dbt_config cfg;
	char err[256];

	assert_int_equal(parse(&cfg, err, 1, "serve"), 0);
	assert_int_equal(cfg.command, DBT_CMD_SERVE);
	assert_string_equal(cfg.listen, DBT_DEFAULT_LISTEN);
	assert_int_equal(cfg.top_n, DBT_DEFAULT_TOP_N);
	assert_int_equal(parse(&cfg, err, 5, "serve", "--listen", ":9100", "--top-n", "5"), 0);
	assert_string_equal(cfg.listen, ":9100");
	assert_int_equal(cfg.top_n, 5);
	assert_int_equal(parse(&cfg, err, 3, "serve", "--listen", "127.0.0.1:99999"), -EINVAL);
	assert_string_equal(err, "bad --listen '127.0.0.1:99999': HOST:PORT, [IPV6]:PORT or :PORT, port 1-65535");
	assert_int_equal(parse(&cfg, err, 3, "serve", "--top-n", "0"), -EINVAL);
	assert_string_equal(err, "bad --top-n '0': a whole number from 1 to 1000");
	assert_int_equal(parse(&cfg, err, 2, "serve", "--top-n=2.5"), -EINVAL);
	assert_int_equal(parse(&cfg, err, 3, "top", "--listen", ":9100"), -EINVAL);
	assert_string_equal(err, "--listen is an option of serve only");
	assert_int_equal(parse(&cfg, err, 3, "capture", "--top-n", "3"), -EINVAL);
	assert_string_equal(err, "--top-n is an option of serve, report and diff only");
	assert_int_equal(parse(&cfg, err, 5, "serve", "-d", "1", "-i", "2"), -EINVAL);
	assert_non_null(strstr(err, "shorter than the interval"));

	/* report: one capture, -o anywhere on the line */
	assert_int_equal(parse(&cfg, err, 4, "report", "-o", "run.html", "run.json"), 0);
	assert_int_equal(cfg.command, DBT_CMD_REPORT);
	assert_int_equal(cfg.n_files, 1);
	assert_string_equal(cfg.files[0], "run.json");
	assert_string_equal(cfg.output, "run.html");
	assert_int_equal(parse(&cfg, err, 1, "report"), -EINVAL);
	assert_string_equal(err, "report needs a capture file: dbtrace report CAPTURE.json [OTHER_HOST.json...] "
				 "[-o FILE.html]");
	/* several hosts' captures: the first in full, the others joined */
	assert_int_equal(parse(&cfg, err, 3, "report", "a.json", "b.json"), 0);
	assert_int_equal(cfg.n_files, 2);
	assert_string_equal(cfg.files[1], "b.json");
	assert_int_equal(parse(&cfg, err, 10, "report", "1", "2", "3", "4", "5", "6", "7", "8", "9"), -EINVAL);
	assert_string_equal(err, "unexpected argument '9'");
	assert_int_equal(parse(&cfg, err, 4, "report", "a.json", "-o", "-"), -EINVAL);
	assert_string_equal(err, "report writes a file: give -o FILE.html");
	assert_int_equal(parse(&cfg, err, 2, "report", ""), -EINVAL);
	assert_string_equal(err, "empty capture file name");

	/* diff: two captures, --json */
	assert_int_equal(parse(&cfg, err, 4, "diff", "before.json", "after.json", "--json"), 0);
	assert_int_equal(cfg.command, DBT_CMD_DIFF);
	assert_int_equal(cfg.n_files, 2);
	assert_string_equal(cfg.files[0], "before.json");
	assert_string_equal(cfg.files[1], "after.json");
	assert_true(cfg.json);
	assert_int_equal(parse(&cfg, err, 2, "diff", "before.json"), -EINVAL);
	assert_string_equal(err, "diff needs two capture files: dbtrace diff BEFORE.json AFTER.json");
	assert_int_equal(parse(&cfg, err, 4, "diff", "a", "b", "c"), -EINVAL);
	assert_string_equal(err, "unexpected argument 'c'");
	/* other commands take no file */
	assert_int_equal(parse(&cfg, err, 2, "capture", "run.json"), -EINVAL);
	assert_string_equal(err, "unexpected argument 'run.json'");
}

static void test_families(void **state)
{
	struct dbt_config cfg;
	char err[256];

	assert_int_equal(parse(&cfg, err, 1, "top"), 0);
	assert_int_equal(cfg.families, 0);   /* all */
	assert_int_equal(parse(&cfg, err, 2, "capture", "--families=softirq,sched"), 0);
	assert_int_equal(cfg.families, 3);
	assert_int_equal(parse(&cfg, err, 2, "capture", "--families=net"), 0);
	assert_int_equal(cfg.families, 8);
	assert_int_equal(parse(&cfg, err, 2, "capture", "--families=sched,disk"), -EINVAL);
	assert_non_null(strstr(err, "bad --families"));
	assert_int_equal(parse(&cfg, err, 2, "capture", "--families=,"), -EINVAL);
}

/* --attach FAMILY=PATH: the path kept per family, the rest in the plan's
 * order; which paths a family has is the plan's to say (cmd_open_probes) */
static void test_attach(void **state)
{
	struct dbt_config cfg;
	char err[256];

	assert_int_equal(parse(&cfg, err, 1, "top"), 0);
	for (int f = 0; f < FAM_COUNT; f++)
		assert_null(cfg.attach[f]);
	assert_int_equal(parse(&cfg, err, 5, "capture", "--attach", "sched=raw_tp", "--attach=clock=perf_event",
			       "--attach=sched=tp_btf"), 0);
	assert_string_equal(cfg.attach[FAM_SCHED], "tp_btf");   /* the last one given */
	assert_string_equal(cfg.attach[FAM_CLOCK], "perf_event");
	assert_null(cfg.attach[FAM_SOFTIRQ]);
	assert_int_equal(parse(&cfg, err, 2, "probes", "--attach=net=fentry+tp_btf"), 0);
	assert_string_equal(cfg.attach[FAM_NET], "fentry+tp_btf");
	static const char *const bad[] = { "--attach=sched", "--attach=disk=raw_tp", "--attach=sche=raw_tp",
					   "--attach=schedx=raw_tp", "--attach=sched=", "--attach==raw_tp",
					   "--attach=sched=RAW", "--attach=sched=raw tp",
					   "--attach=sched=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		assert_int_equal(parse(&cfg, err, 2, "capture", bad[i]), -EINVAL);
		assert_non_null(strstr(err, "bad --attach"));
		assert_null(strchr(err, '\n'));
	}
}

/* --btf FILE: kept as given (bpf_prepare reads it); empty is bad usage */
static void test_btf(void **state)
{
	struct dbt_config cfg;
	char err[256];

	assert_int_equal(parse(&cfg, err, 1, "probes"), 0);
	assert_null(cfg.btf_path);
	assert_int_equal(parse(&cfg, err, 3, "capture", "--btf", "/tmp/vmlinux.btf"), 0);
	assert_string_equal(cfg.btf_path, "/tmp/vmlinux.btf");
	assert_int_equal(parse(&cfg, err, 2, "top", "--btf=x.btf"), 0);
	assert_string_equal(cfg.btf_path, "x.btf");
	err[0] = 0;
	assert_int_equal(parse(&cfg, err, 2, "probes", "--btf="), -EINVAL);
	assert_non_null(strstr(err, "--btf"));
	assert_null(strchr(err, '\n'));
}

/* record: the program and its own options after "--", taken as given
 * (getopt moves arguments about: the check is on argv as typed). */
static void test_record(void **state)
{
	struct dbt_config cfg;
	char err[256];

	assert_int_equal(parse(&cfg, err, 9, "record", "-d", "5", "-o", "r.json", "--", "sysbench",
			       "--threads=4", "run"), 0);
	assert_int_equal(cfg.command, DBT_CMD_RECORD);
	assert_true(cfg.duration_s == 5);
	assert_string_equal(cfg.output, "r.json");
	assert_int_equal(cfg.run_argc, 3);
	assert_string_equal(cfg.run_argv[0], "sysbench");
	assert_string_equal(cfg.run_argv[1], "--threads=4");
	assert_string_equal(cfg.run_argv[2], "run");
	assert_null(cfg.run_argv[3]);
	assert_int_equal(cfg.load_pid, 0);

	/* options before the command name too; the program's -d is its own */
	assert_int_equal(parse(&cfg, err, 8, "-i", "0.5", "record", "--report", "r.html", "--",
			       "sh", "-d"), 0);
	assert_true(cfg.interval_s == 0.5);
	assert_true(cfg.duration_s == 0);
	assert_string_equal(cfg.report, "r.html");
	assert_int_equal(cfg.run_argc, 2);
	assert_string_equal(cfg.run_argv[1], "-d");

	/* "--" as -o's value is a file name, the second one ends the options */
	assert_int_equal(parse(&cfg, err, 6, "record", "-o", "--", "--", "true", "-o"), 0);
	assert_string_equal(cfg.output, "--");
	assert_int_equal(cfg.run_argc, 2);
	assert_string_equal(cfg.run_argv[1], "-o");

	assert_int_equal(parse(&cfg, err, 3, "record", "sleep", "1"), -EINVAL);
	assert_non_null(strstr(err, "record runs the program given after --"));
	assert_non_null(strstr(err, "'sleep'"));
	assert_int_equal(parse(&cfg, err, 1, "record"), -EINVAL);
	assert_non_null(strstr(err, "record needs a program to run"));
	assert_int_equal(parse(&cfg, err, 2, "record", "--"), -EINVAL);
	assert_non_null(strstr(err, "record needs a program to run"));
	assert_int_equal(parse(&cfg, err, 3, "record", "--", ""), -EINVAL);
	assert_non_null(strstr(err, "empty program name"));
	assert_int_equal(parse(&cfg, err, 5, "record", "-o", "-", "--", "true"), -EINVAL);
	assert_non_null(strstr(err, "the program writes to standard output too"));
	assert_int_equal(parse(&cfg, err, 3, "capture", "--report", "r.html"), -EINVAL);
	assert_non_null(strstr(err, "--report is an option of record only"));
	assert_int_equal(parse(&cfg, err, 4, "capture", "--", "sleep", "1"), -EINVAL);
	assert_non_null(strstr(err, "unexpected argument 'sleep'"));
	assert_int_equal(parse(&cfg, err, 7, "record", "-d", "0.5", "-i", "1", "--", "true"), -EINVAL);
	assert_non_null(strstr(err, "shorter than the interval"));
	assert_non_null(strstr(usage_text(), "dbtrace record [OPTIONS] -- PROGRAM [ARGS...]"));
	assert_non_null(strstr(usage_text(), "--report=FILE.html"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_btf),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_all_options),
		cmocka_unit_test(test_seconds),
		cmocka_unit_test(test_bad_duration_messages),
		cmocka_unit_test(test_bad_pids),
		cmocka_unit_test(test_unknown_option_and_command),
		cmocka_unit_test(test_missing_value),
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_families),
		cmocka_unit_test(test_attach),
		cmocka_unit_test(test_clock_options),
		cmocka_unit_test(test_group_options),
		cmocka_unit_test(test_net_view_and_ports),
		cmocka_unit_test(test_check_options),
		cmocka_unit_test(test_all),
		cmocka_unit_test(test_listen),
		cmocka_unit_test(test_serve_report_diff),
		cmocka_unit_test(test_record),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
