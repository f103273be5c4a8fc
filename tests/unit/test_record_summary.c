/* record's closing lines: the findings most severe first and no more
 * than five, the busiest classes over every process with the load's
 * marked, the ports that carried requests, "-" for a percentile never
 * measured. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render/record_summary.h"

static char *print(const struct record_summary *s)
{
	static char buf[8192];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	assert_non_null(f);
	assert_int_equal(record_summary_print(f, s), 0);
	fclose(f);
	return buf;
}

static void add_finding(struct finding_list *l, const char *id, enum finding_severity sev)
{
	struct finding f = { .severity = sev };

	snprintf(f.id, sizeof(f.id), "%s", id);
	snprintf(f.title, sizeof(f.title), "the %s title", id);
	assert_int_equal(findings_merge(l, &f), 0);
}

static void test_findings_order(void **state)
{
	struct finding_list l = { 0 };
	struct record_summary s = { .program = "sysbench", .ended = "exit 0", .duration_s = 12.3456,
				    .findings = &l };
	char *out;

	out = print(&s);
	assert_non_null(strstr(out, "sysbench ran 12.346 s (exit 0)\n"));
	assert_non_null(strstr(out, "findings: none\n"));
	add_finding(&l, "info1", SEV_INFO);
	add_finding(&l, "warn1", SEV_WARNING);
	add_finding(&l, "crit1", SEV_CRITICAL);
	for (int i = 0; i < 4; i++) {
		char id[8];

		snprintf(id, sizeof(id), "warn%d", i + 2);
		add_finding(&l, id, SEV_WARNING);
	}
	out = print(&s);
	assert_non_null(strstr(out, "findings (7):\n  critical crit1: the crit1 title\n"
				    "  warning  warn1: the warn1 title\n"));
	/* five shown: the critical and four warnings; no info */
	assert_non_null(strstr(out, "warn4"));
	assert_null(strstr(out, "warn5"));
	assert_null(strstr(out, "info1"));
	assert_non_null(strstr(out, "  ... 2 more in the capture\n"));
	findings_free(&l);
}

static void test_classes_and_ports(void **state)
{
	struct sched_class_stats db[2] = { { .name = "connection", .threads = 32, .oncpu_pct = 150 },
					  { .name = "ib_io_wr-*", .threads = 4, .oncpu_pct = 5 } };
	struct sched_class_stats sb[1] = { { .name = "sysbench", .threads = 16, .oncpu_pct = 60 } };
	struct sched_group_stats procs[2] = {
		{ .pid = 100, .comm = "mysqld", .classes = db, .n_classes = 2 },
		{ .pid = 200, .comm = "sysbench", .classes = sb, .n_classes = 1 },
	};
	struct sched_summary sched = { .groups = procs, .n_groups = 2 };
	struct net_port_stats ports[3] = {
		{ .port = 3306, .role = 0, .requests = 50000, .requests_per_s = 4000, .resp_p50_us = 210,
		  .resp_p99_us = 1900 },
		{ .port = 22, .role = 0, .requests = 0 },
		{ .port = 3306, .role = 1, .requests = 50000, .requests_per_s = 4000, .resp_p50_us = NAN,
		  .resp_p99_us = NAN },
	};
	struct net_interval net = { .ports = ports, .n_ports = 3 };
	struct record_summary s = { .program = "sysbench", .ended = "killed by SIGINT", .duration_s = 2,
				    .sched = &sched, .net = &net, .load_pid = 200 };
	char *out, *a, *b;

	db[0].runq_p99_us = 1786;
	db[1].runq_p99_us = NAN;
	sb[0].runq_p99_us = 12;
	out = print(&s);
	a = strstr(out, "connection");
	b = strstr(out, "sysbench         ");
	assert_non_null(a);
	assert_non_null(b);
	assert_true(a < b);   /* busiest first, across processes */
	assert_non_null(strstr(out, "     100 mysqld          connection                32   150.0      1786\n"));
	assert_non_null(strstr(out, "     200 sysbench        sysbench                  16    60.0        12  (load)\n"));
	assert_non_null(strstr(out, "ib_io_wr-*                 4     5.0         -\n"));
	assert_non_null(strstr(out, "   3306 server       4000       210      1900\n"));
	assert_non_null(strstr(out, "   3306 client       4000         -         -\n"));
	assert_null(strstr(out, "    22 "));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_findings_order),
		cmocka_unit_test(test_classes_and_ports),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
