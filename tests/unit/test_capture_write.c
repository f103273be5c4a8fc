/* The capture writer: the document parses, NAN becomes null, and an
 * aborted or unwritable capture leaves no file behind. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "capture/capture_read.h"
#include "capture/capture_write.h"
#include "model/hist.h"
#include "sysinfo/procfile.h"

static char dir[64];

static int mkdir_tmp(void **state)
{
	snprintf(dir, sizeof(dir), "/tmp/dbtrace-test-XXXXXX");
	assert_non_null(mkdtemp(dir));
	return 0;
}

static int rm_tmp(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

static int count_entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static void rows_init(struct cpu_row *rows, int n)
{
	memset(rows, 0, sizeof(*rows) * (size_t)n);
	for (int c = 0; c < n; c++) {
		rows[c].cpu = c;
		rows[c].valid = c != 1;    /* CPU 1 offline */
		rows[c].have_sirq = true;
		for (int v = 0; v < DBT_SOFTIRQ_VECS; v++)
			rows[c].wait_p99_us[v] = NAN;
	}
	rows[0].softirq_pct[DBT_SOFTIRQ_NET_RX] = 12.5;
	rows[0].entries[DBT_SOFTIRQ_NET_RX] = 4242;
	rows[0].wait_p99_us[DBT_SOFTIRQ_NET_RX] = 17;
}

static void write_capture(const char *path, int intervals)
{
	struct capture_writer *w;
	struct probe_report rep = { .family = "softirq", .attach = "raw_tp", .n_rejected = 1 };
	struct capture_meta meta = { .version = "t", .started_at = "2026-01-01T00:00:00Z",
				     .interval_s = 1, .probes = &rep, .n_probes = 1 };
	struct cpu_row rows[3];
	struct interval iv = { .ncpus = 3, .rows = rows, .dt_s = 1 };
	struct capture_summary sum = { .duration_s = intervals, .ncpus = 3, .rows = rows };
	char err[256];

	snprintf(rep.rejected[0].path, sizeof(rep.rejected[0].path), "tp_btf");
	snprintf(rep.rejected[0].error, sizeof(rep.rejected[0].error), "load: EPERM");
	snprintf(meta.host.hostname, sizeof(meta.host.hostname), "db1");
	meta.host.cpus = 3;
	rows_init(rows, 3);
	cpu_rows_total(rows, 3, &iv.total);
	assert_int_equal(capture_open(&w, path, err, sizeof(err)), 0);
	assert_int_equal(capture_begin(w, &meta), 0);
	for (int i = 0; i < intervals; i++) {
		iv.t_s = i + 1;
		assert_int_equal(capture_add_interval(w, &iv), 0);
	}
	assert_int_equal(capture_finish(w, &sum, err, sizeof(err)), 0);
}

static void test_document(void **state)
{
	char path[128], cmd[512], *text;

	snprintf(path, sizeof(path), "%s/run.json", dir);
	write_capture(path, 3);
	assert_int_equal(count_entries(), 1);   /* no temp file left beside it */
	assert_int_equal(procfile_slurp("", path, 1 << 20, &text, NULL), 0);
	assert_non_null(strstr(text, "\"schema\":\"dbtrace.capture/2\""));
	assert_non_null(strstr(text, "\"net_rx\":12.5"));
	assert_non_null(strstr(text, "\"net_rx\":4242"));
	assert_non_null(strstr(text, "\"hi\":null"));     /* NAN p99: no samples */
	assert_non_null(strstr(text, "\"attach\":\"raw_tp\""));
	assert_non_null(strstr(text, "\"error\":\"load: EPERM\""));
	assert_non_null(strstr(text, "\"findings\":[]"));
	assert_null(strstr(text, "\"cpu\":1,"));          /* offline CPU left out */
	free(text);
	/* and it is one valid JSON document with three intervals */
	snprintf(cmd, sizeof(cmd), "jq -e '(.intervals|length)==3 and (.cpus|length)==2' %s >/dev/null", path);
	assert_int_equal(system(cmd), 0);
}

/* started_at to the millisecond, and why a capture stopped */
static void test_start_time_and_stop_reason(void **state)
{
	struct timespec wall = { 1767225600, 123456789 };   /* 2026-01-01T00:00:00 UTC */
	char buf[40], why[24];
	bool complete;

	assert_int_equal(capture_format_time(&wall, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "2026-01-01T00:00:00.123Z");
	wall.tv_nsec = 999999999;                           /* cut, never rounded up to .1000 */
	assert_int_equal(capture_format_time(&wall, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "2026-01-01T00:00:00.999Z");
	assert_int_equal(capture_format_time(&wall, buf, 24), -ENOSPC);

	assert_string_equal(capture_stop_reason(0, true, &complete, why, sizeof(why)), "duration");
	assert_true(complete);
	assert_string_equal(capture_stop_reason(SIGINT, false, &complete, why, sizeof(why)), "user");
	assert_true(complete);
	assert_string_equal(capture_stop_reason(SIGINT, true, &complete, why, sizeof(why)), "SIGINT");
	assert_false(complete);
	assert_string_equal(capture_stop_reason(SIGTERM, false, &complete, why, sizeof(why)), "SIGTERM");
	assert_false(complete);
	assert_string_equal(capture_stop_reason(SIGHUP, true, &complete, why, sizeof(why)), "SIGHUP");
	assert_false(complete);
}

/* Those in the document: a capture cut short says so, and the monotonic
 * start keeps its microseconds (the document's other numbers keep six
 * significant digits). */
static void test_cut_short_document(void **state)
{
	struct capture_writer *w;
	struct capture_meta meta = { .version = "t", .started_at = "2026-01-01T00:00:00.123Z",
				     .started_at_monotonic_s = 123456.789012, .interval_s = 1 };
	struct cpu_row rows[3];
	struct capture_summary sum = { .complete = false, .stop_reason = "SIGINT", .duration_s = 2,
				       .ncpus = 3, .rows = rows };
	char path[128], cmd[512], err[256];

	rows_init(rows, 3);
	snprintf(path, sizeof(path), "%s/cut.json", dir);
	assert_int_equal(capture_open(&w, path, err, sizeof(err)), 0);
	assert_int_equal(capture_begin(w, &meta), 0);
	assert_int_equal(capture_finish(w, &sum, err, sizeof(err)), 0);
	snprintf(cmd, sizeof(cmd), "jq -e '.complete == false and .stop_reason == \"SIGINT\" and "
		 ".started_at == \"2026-01-01T00:00:00.123Z\" and "
		 ".started_at_monotonic_s == 123456.789012' %s >/dev/null", path);
	assert_int_equal(system(cmd), 0);
	unlink(path);
}

static void test_zero_intervals(void **state)
{
	char path[128], cmd[256];

	snprintf(path, sizeof(path), "%s/empty.json", dir);
	write_capture(path, 0);
	snprintf(cmd, sizeof(cmd), "jq -e '.intervals==[]' %s >/dev/null", path);
	assert_int_equal(system(cmd), 0);
}

static void test_abort_leaves_nothing(void **state)
{
	struct capture_writer *w;
	char path[128], err[256];

	snprintf(path, sizeof(path), "%s/aborted.json", dir);
	struct capture_meta meta = { .version = "t", .started_at = "x" };

	assert_int_equal(capture_open(&w, path, err, sizeof(err)), 0);
	assert_int_equal(capture_begin(w, &meta), 0);
	capture_abort(w);
	assert_int_equal(count_entries(), 0);
	assert_int_equal(access(path, F_OK), -1);
}

static void test_replaces_existing_file_atomically(void **state)
{
	char path[128], *text;
	FILE *f;

	snprintf(path, sizeof(path), "%s/run.json", dir);
	f = fopen(path, "w");
	fputs("old", f);
	fclose(f);
	write_capture(path, 1);
	assert_int_equal(procfile_slurp("", path, 1 << 20, &text, NULL), 0);
	assert_int_equal(text[0], '{');
	free(text);
	assert_int_equal(count_entries(), 1);
}

static void test_device_is_written_in_place(void **state)
{
	struct stat st;

	/* a capture to /dev/null must never rename a file over the device */
	write_capture("/dev/null", 1);
	assert_int_equal(stat("/dev/null", &st), 0);
	assert_true(S_ISCHR(st.st_mode));
}

static void test_unwritable_paths(void **state)
{
	struct capture_writer *w;
	char err[256];

	assert_true(capture_open(&w, "/nonexistent-dir/run.json", err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "cannot write /nonexistent-dir/run.json"));
	assert_null(strchr(err, '\n'));
	assert_true(capture_open(&w, dir, err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "directory"));
}

/* The net family's section, per interval and for the whole capture: a
 * device of another namespace names it, unknowns are null. */
static void test_net_section(void **state)
{
	struct capture_writer *w;
	struct capture_meta meta = { .version = "t", .started_at = "2026-01-01T00:00:00Z", .interval_s = 1 };
	struct cpu_row rows[3];
	struct net_dev_stats dev = { .name = "veth0", .foreign = true, .netns_name = "ns1",
				     .qdisc_text = "tbf rate 20Mbit burst 100Kb limit 344.1Kb",
				     .speed_mbps = NAN, .tx_pps = 1700, .rx_pps = NAN, .tx_mbps = 20.5,
				     .rx_mbps = NAN, .util_pct = NAN, .txq_samples = 300,
				     .txq_p50_us = 6200, .txq_p99_us = 16384 };
	struct net_port_stats port = { .port = 3306, .role = DBT_NET_CLIENT, .requests = 10,
				       .requests_per_s = 10, .resp_p50_us = 3072, .resp_p99_us = 4000,
				       .reads = 10, .rxq_p50_us = 6, .rxq_p99_us = NAN };
	struct net_interval net = { .dt_s = 1, .devs = &dev, .n_devs = 1, .ports = &port, .n_ports = 1,
				    .skipped = 2 };
	struct interval iv = { .ncpus = 3, .rows = rows, .dt_s = 1, .t_s = 1 };
	struct capture_summary sum = { .duration_s = 1, .ncpus = 3, .rows = rows, .net = &net };
	char path[128], cmd[1024], err[256];

	struct capture back;
	__u32 b1 = dbt_hist_bucket(6000000), b2 = dbt_hist_bucket(16000000);

	dev.txq_hist[b1] = 200;        /* weighted: 30 timed skbs stand for 300 */
	dev.txq_hist[b2] = 100;
	dev.txq_timed = 30;
	iv.net = net;
	iv.have_net = true;
	rows_init(rows, 3);
	cpu_rows_total(rows, 3, &iv.total);
	snprintf(path, sizeof(path), "%s/net.json", dir);
	assert_int_equal(capture_open(&w, path, err, sizeof(err)), 0);
	assert_int_equal(capture_begin(w, &meta), 0);
	assert_int_equal(capture_add_interval(w, &iv), 0);
	assert_int_equal(capture_finish(w, &sum, err, sizeof(err)), 0);
	snprintf(cmd, sizeof(cmd),
		 "jq -e '[.net, .intervals[0].net][] | .devices[0].name == \"veth0\" and "
		 ".devices[0].netns == \"ns1\" and .devices[0].speed_mbps == null and "
		 ".devices[0].rx_pps == null and .devices[0].tx_pps == 1700 and "
		 ".devices[0].qdisc == \"tbf rate 20Mbit burst 100Kb limit 344.1Kb\" and "
		 ".devices[0].txq_packets == 300 and .devices[0].txq_p99_us == 16384 and "
		 ".ports[0].port == 3306 and .ports[0].role == \"client\" and .ports[0].requests == 10 and "
		 ".ports[0].rxq_p99_us == null and .devices_omitted == 0 and .lost_samples == 0 and "
		 ".skipped_requests == 2' %s >/dev/null",
		 path);
	assert_int_equal(system(cmd), 0);
	/* the sparse histogram: non-empty buckets only, [lower bound ns, count] */
	snprintf(cmd, sizeof(cmd),
		 "jq -e '[.net, .intervals[0].net][] | .devices[0].txq_hist.unit == \"ns\" and "
		 ".devices[0].txq_hist.count == 300 and .devices[0].txq_hist.timed == 30 and "
		 ".devices[0].txq_hist.sample_weight == 16 and "
		 ".devices[0].txq_hist.buckets == [[%llu, 200], [%llu, 100]] and "
		 ".ports[0].response_hist.buckets == [] and .ports[0].response_hist.count == 0' %s >/dev/null",
		 (unsigned long long)dbt_hist_low(b1), (unsigned long long)dbt_hist_low(b2), path);
	assert_int_equal(system(cmd), 0);
	/* and read back as written */
	assert_int_equal(capture_read_file(path, &back, err, sizeof(err)), 0);
	assert_int_equal(back.net.n_devs, 1);
	assert_int_equal(back.net.devs[0].txq_hist[b1], 200);
	assert_int_equal(back.net.devs[0].txq_hist[b2], 100);
	assert_int_equal(hist_total(back.net.devs[0].txq_hist, DBT_HIST_BUCKETS), 300);
	assert_int_equal(back.net.devs[0].txq_timed, 30);
	assert_true(back.net.skipped == 2);
	capture_free(&back);
}

/* record: the command's group is marked "load" in processes and groups,
 * and written even when 64 busier processes fill the list. */
static void test_load_marked(void **state)
{
	struct capture_writer *w;
	struct capture_meta meta = { .version = "t", .started_at = "2026-01-01T00:00:00Z", .interval_s = 1,
				     .load_pid = 5069 };
	struct sched_group_stats procs[CAPTURE_MAX_PROCS + 6];
	struct sched_summary sched = { .groups = procs, .n_groups = CAPTURE_MAX_PROCS + 6 };
	struct proc_group_log log = { .by = PROC_GROUP_PARENT };
	uint32_t pids[2] = { 5069, 5075 };
	struct cpu_row rows[3];
	struct capture_summary sum = { .complete = true, .stop_reason = "command", .duration_s = 1,
				       .ncpus = 3, .rows = rows, .sched = &sched, .groups = &log };
	char path[128], cmd[1024], err[256];

	memset(procs, 0, sizeof(procs));
	for (int i = 0; i < sched.n_groups; i++) {
		procs[i].pid = 5000 + i;
		snprintf(procs[i].comm, sizeof(procs[i].comm), "p%d", i);
		procs[i].total.oncpu_pct = 100 - i;
		assert_int_equal(proc_group_log_add(&log, procs[i].pid, procs[i].comm,
						    (uint32_t *)&procs[i].pid, 1), 0);
	}
	/* the load: the 70th busiest, of two processes */
	assert_int_equal(proc_group_log_add(&log, 5069, "p69", pids, 2), 0);
	rows_init(rows, 3);
	snprintf(path, sizeof(path), "%s/load.json", dir);
	assert_int_equal(capture_open(&w, path, err, sizeof(err)), 0);
	assert_int_equal(capture_begin(w, &meta), 0);
	assert_int_equal(capture_finish(w, &sum, err, sizeof(err)), 0);
	snprintf(cmd, sizeof(cmd),
		 "jq -e '(.processes | length) == 65 and .processes_omitted == 5 and "
		 "[.processes[] | select(.load) | .pid] == [5069] and .processes[-1].pid == 5069 and "
		 "(.groups | length) == 65 and [.groups[] | select(.load) | .pid] == [5069] and "
		 "(.groups[] | select(.pid == 5069) | .formed_by == \"command\" and .pids == [5069, 5075]) and "
		 "(.groups[] | select(.pid == 5001) | has(\"load\") | not) and "
		 ".stop_reason == \"command\"' %s >/dev/null", path);
	assert_int_equal(system(cmd), 0);
	unlink(path);
	proc_group_log_free(&log);
}

/* probes.<family>.notes: how the path taken adapted at load time, written
 * only for the families that adapted (main's load-time adaptations; the
 * restructuring moved the probes object to capture_meta.c, and no replayed
 * snapshot carries a note, so this is where the field is checked). */
static void test_probe_notes(void **state)
{
	struct capture_writer *w;
	struct probe_report rep[2] = {
		{ .family = "sched", .attach = "tp_btf" },
		{ .family = "softirq", .attach = "tp_btf" },
	};
	struct capture_meta meta = { .version = "t", .started_at = "2026-01-01T00:00:00Z", .interval_s = 1,
				     .probes = rep, .n_probes = 2 };
	struct cpu_row rows[3];
	struct capture_summary sum = { .complete = true, .duration_s = 1, .ncpus = 3, .rows = rows };
	char path[128], cmd[1024], err[256];

	probe_note(&rep[0], "blocked time timed by the monotonic clock");
	probe_note(&rep[0], "%s: no %s (%s)", "a hash", "socket storage", "5.11");
	rows_init(rows, 3);
	snprintf(path, sizeof(path), "%s/notes.json", dir);
	assert_int_equal(capture_open(&w, path, err, sizeof(err)), 0);
	assert_int_equal(capture_begin(w, &meta), 0);
	assert_int_equal(capture_finish(w, &sum, err, sizeof(err)), 0);
	snprintf(cmd, sizeof(cmd),
		 "jq -e '.probes.sched.notes == [\"blocked time timed by the monotonic clock\", "
		 "\"a hash: no socket storage (5.11)\"] and .probes.sched.attach == \"tp_btf\" and "
		 "(.probes.softirq | has(\"notes\") | not)' %s >/dev/null", path);
	assert_int_equal(system(cmd), 0);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_document, mkdir_tmp, rm_tmp),
		cmocka_unit_test_setup_teardown(test_zero_intervals, mkdir_tmp, rm_tmp),
		cmocka_unit_test(test_start_time_and_stop_reason),
		cmocka_unit_test_setup_teardown(test_cut_short_document, mkdir_tmp, rm_tmp),
		cmocka_unit_test_setup_teardown(test_abort_leaves_nothing, mkdir_tmp, rm_tmp),
		cmocka_unit_test_setup_teardown(test_replaces_existing_file_atomically, mkdir_tmp, rm_tmp),
		cmocka_unit_test_setup_teardown(test_device_is_written_in_place, mkdir_tmp, rm_tmp),
		cmocka_unit_test_setup_teardown(test_unwritable_paths, mkdir_tmp, rm_tmp),
		cmocka_unit_test_setup_teardown(test_load_marked, mkdir_tmp, rm_tmp),
		cmocka_unit_test_setup_teardown(test_probe_notes, mkdir_tmp, rm_tmp),
		cmocka_unit_test_setup_teardown(test_net_section, mkdir_tmp, rm_tmp),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
