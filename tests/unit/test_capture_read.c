/* The capture reader: real captures (tests/fixtures/captures/) read back
 * into the model's structs with the numbers jq sees in the file, absent
 * families read as absent, and every kind of bad input is one message and
 * a negative errno. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "capture/capture_read.h"
#include "model/hist.h"

#define CAPS FIXTURES "/captures/"

static bool near(double a, double b)
{
	return fabs(a - b) <= 1e-4 * (fabs(b) > 1 ? fabs(b) : 1);
}

static void test_loopback_capture(void **state)
{
	struct capture cap;
	char err[256];

	assert_int_equal(capture_read_file(CAPS "rr.json", &cap, err, sizeof(err)), 0);
	assert_string_equal(cap.host.hostname, "vm");
	assert_int_equal(cap.host.cpus, 2);
	assert_string_equal(cap.host.clocksource, "tsc");
	assert_true(near(cap.duration_s, 3.00125));
	assert_true(cap.interval_s == 1);
	assert_true(near(cap.cpu_pct, 0.400699));
	assert_int_equal(cap.max_rss_kb, 16864);
	assert_string_equal(capture_probe_attach(&cap, "softirq"), "tp_btf");
	assert_string_equal(capture_probe_attach(&cap, "clock"), "perf_event+tp_btf");
	assert_null(capture_probe_attach(&cap, "nosuch"));

	/* the whole-capture CPUs and the time series */
	assert_int_equal(cap.n_cpus, 2);
	assert_int_equal(cap.cpus[1].cpu, 1);
	assert_true(cap.cpus[1].have_sirq);
	assert_true(near(cap.cpus[0].softirq_pct[DBT_SOFTIRQ_NET_RX], 18.1328));
	assert_true(near(cap.cpus[1].softirq_total_pct, 16.0298));
	assert_int_equal(cap.n_intervals, 3);
	assert_int_equal(cap.intervals[1].n_cpus, 2);
	assert_true(near(cap.intervals[1].cpus[0].softirq_pct[DBT_SOFTIRQ_NET_RX], 22.7404));
	assert_true(cap.intervals[0].t < cap.intervals[2].t);

	/* sched: processes and classes with their CPU masks */
	assert_true(cap.have_sched);
	assert_int_equal(cap.sched.n_groups, 10);
	assert_int_equal(cap.processes_omitted, 52);
	assert_int_equal(cap.sched.groups[0].pid, 28079);
	assert_string_equal(cap.sched.groups[0].comm, "tcp_rr");
	assert_string_equal(cap.sched.groups[0].cpus_allowed, "0");
	assert_true(near(cap.sched.groups[0].total.oncpu_pct, 66.1379));
	assert_string_equal(cap.sched.groups[0].classes[0].name, "tcp_rr");
	assert_true(cap.sched.groups[0].classes[0].cpus[0] == 1);   /* ran on CPU 0 */

	/* net: histograms carried, their totals equal the sample counts */
	assert_true(cap.have_net);
	assert_true(cap.have_net_hist);
	assert_int_equal(cap.net.n_ports, 4);
	assert_int_equal(cap.net.n_devs, 4);
	assert_string_equal(cap.net.devs[0].name, "lo");
	assert_false(cap.net.devs[0].foreign);
	for (int i = 0; i < cap.net.n_ports; i++) {
		const struct net_port_stats *p = &cap.net.ports[i];

		assert_int_equal(hist_total(p->resp_hist, DBT_HIST_BUCKETS), p->requests);
		/* the reader's percentile agrees with the writer's: an old
		 * capture's log2 slots are spread evenly over the fine
		 * buckets, as the old interpolation assumed, so to one fine
		 * bucket (1/32) */
		assert_true(fabs(hist_percentile_us(p->resp_hist, DBT_HIST_BUCKETS, 0.99) - p->resp_p99_us)
			    <= p->resp_p99_us / 32);
	}
	assert_int_equal(cap.net.ports[0].port, 33755);
	assert_int_equal(cap.net.ports[0].role, DBT_NET_CLIENT);
	assert_int_equal(cap.net.ports[1].role, DBT_NET_SERVER);

	/* clock */
	assert_true(cap.have_clock);
	assert_int_equal(cap.clock_hz, 499);
	assert_int_equal(cap.clock.samples, 2987);
	assert_int_equal(cap.clock.groups[0].pid, 28079);
	assert_int_equal(cap.clock.groups[0].total.top_fn, -1);

	/* findings with their evidence */
	assert_int_equal(cap.findings.n, 4);
	assert_string_equal(cap.findings.items[0].id, "softirq_on_db_cores");
	assert_int_equal(cap.findings.items[0].severity, SEV_INFO);
	assert_int_equal(cap.findings.items[0].n_ev, 12);
	assert_int_equal(cap.findings.items[1].severity, SEV_WARNING);
	assert_int_equal(cap.findings.items[2].pid, 28092);
	capture_free(&cap);
}

static void test_tbf_device_and_vdso(void **state)
{
	struct capture cap;
	const struct net_dev_stats *d = NULL;
	char err[256];

	assert_int_equal(capture_read_file(CAPS "tbf.json", &cap, err, sizeof(err)), 0);
	for (int i = 0; i < cap.net.n_devs; i++)
		if (!strcmp(cap.net.devs[i].name, "dbtfxa"))
			d = &cap.net.devs[i];
	assert_non_null(d);
	assert_true(d->foreign);
	assert_string_equal(d->netns_name, "dbtfxA");
	assert_string_equal(d->qdisc_text, "tbf rate 20Mbit burst 100Kb limit 344.1Kb");
	assert_true(isnan(d->speed_mbps));
	assert_true(isnan(d->rx_pps));
	assert_int_equal(d->txq_samples, 258);
	assert_int_equal(hist_total(d->txq_hist, DBT_HIST_BUCKETS), 258);
	/* old slot 16, [65.5, 131) ms, held 46: spread over the fine buckets
	 * inside it (the two at its edges shared with its neighbours) */
	{
		uint64_t in = 0;

		for (__u32 b = dbt_hist_bucket(65536000); b <= dbt_hist_bucket(131072000 - 1); b++)
			in += d->txq_hist[b];
		assert_true(in >= 45 && in <= 47);
	}
	assert_true(fabs(hist_percentile_us(d->txq_hist, DBT_HIST_BUCKETS, 0.5) - d->txq_p50_us) <=
		    d->txq_p50_us / 32);
	/* the tx_queueing finding names the device in its namespace */
	{
		bool found = false;

		for (int i = 0; i < cap.findings.n; i++)
			found |= !strcmp(cap.findings.items[i].id, "tx_queueing") &&
				 !strcmp(cap.findings.items[i].class_name, "dbtfxa@dbtfxA");
		assert_true(found);
	}
	capture_free(&cap);
}

static void test_absent_families(void **state)
{
	struct capture cap;
	char err[256];

	assert_int_equal(capture_read_file(CAPS "rr-no-net-clock.json", &cap, err, sizeof(err)), 0);
	assert_true(cap.have_sched);
	assert_false(cap.have_net);
	assert_false(cap.have_clock);
	assert_string_equal(capture_probe_attach(&cap, "net"), "");
	assert_int_equal(cap.net.n_ports, 0);
	assert_int_equal(cap.n_intervals, 3);
	capture_free(&cap);
}

static int read_text(const char *text, struct capture *cap, char *err)
{
	return capture_read_buf(text, strlen(text), "x.json", cap, err, 256);
}

static void test_minimal_and_nulls(void **state)
{
	struct capture cap;
	char err[256];

	/* only the two required members; a CPU without the softirq family */
	assert_int_equal(read_text("{\"schema\":\"dbtrace.capture/1\",\"cpus\":[{\"cpu\":3,"
				   "\"usr_pct\":null,\"softirq_pct\":{\"total\":null}}],\"intervals\":[]}",
				   &cap, err), 0);
	assert_int_equal(cap.n_cpus, 1);
	assert_int_equal(cap.cpus[0].cpu, 3);
	assert_false(cap.cpus[0].have_sirq);
	assert_true(isnan(cap.cpus[0].usr_pct));
	assert_true(isnan(cap.duration_s));
	assert_false(cap.have_sched || cap.have_net || cap.have_clock);
	assert_int_equal(cap.n_intervals, 0);
	capture_free(&cap);
}

/* complete, stop_reason and started_at_monotonic_s read back; a capture
 * from before them reads as not saying (have_complete false, NAN). */
static void test_cut_short_and_start_clocks(void **state)
{
	struct capture cap;
	char err[256];

	assert_int_equal(read_text("{\"schema\":\"dbtrace.capture/1\",\"started_at\":\"2026-01-01T09:30:00.123Z\","
				   "\"started_at_monotonic_s\":123456.789012,\"intervals\":[],\"complete\":false,"
				   "\"stop_reason\":\"SIGINT\",\"cpus\":[]}", &cap, err), 0);
	assert_string_equal(cap.started_at, "2026-01-01T09:30:00.123Z");
	assert_true(cap.started_at_monotonic_s == 123456.789012);
	assert_true(cap.have_complete);
	assert_false(cap.complete);
	assert_string_equal(cap.stop_reason, "SIGINT");
	capture_free(&cap);
	assert_int_equal(read_text("{\"schema\":\"dbtrace.capture/1\",\"complete\":true,"
				   "\"stop_reason\":\"duration\",\"cpus\":[]}", &cap, err), 0);
	assert_true(cap.have_complete && cap.complete);
	capture_free(&cap);
	assert_int_equal(capture_read_file(CAPS "rr.json", &cap, err, sizeof(err)), 0);
	assert_false(cap.have_complete);
	assert_true(isnan(cap.started_at_monotonic_s));
	assert_string_equal(cap.stop_reason, "");
	capture_free(&cap);
}

static void expect_bad(const char *text, const char *why)
{
	struct capture cap;
	char err[256];

	assert_int_equal(read_text(text, &cap, err), -EINVAL);
	assert_non_null(strstr(err, "x.json is not a dbtrace capture: "));
	if (!strstr(err, why))
		fail_msg("'%s' does not say '%s'", err, why);
	assert_null(strchr(err, '\n'));
}

static void test_bad_input(void **state)
{
	struct capture cap;
	char err[256];

	expect_bad("", "the file is empty");
	expect_bad("   \n", "the file is empty");
	expect_bad("hello", "not a JSON object");
	expect_bad("[1,2]", "not a JSON object");
	expect_bad("{\"a\":1}", "no \"schema\": \"dbtrace.capture/2\" member");
	expect_bad("{\"schema\":\"dbtrace.check/1\",\"cpus\":[]}", "schema \"dbtrace.check/1\", want");
	/* the file's own string, newline and all, quoted on one line (fuzz_capture) */
	expect_bad("{\"schema\":\"dbtrace\\n.capture/1\",\"cpus\":[]}", "schema \"dbtrace?.capture/1\", want");
	expect_bad("{\"schema\":\"dbtrace.capture/1\"}", "no \"cpus\" member");
	expect_bad("{\"schema\":\"dbtrace.capture/1\",\"cpus\":{}}", "\"cpus\" is not an array");
	expect_bad("{\"schema\":\"dbtrace.capture/1\",\"intervals\":[1]}", "interval 0 is not an object");
	expect_bad("{\"schema\":\"dbtrace.capture/1\",\"intervals\":[{}", "the intervals array is not closed");
	expect_bad("{\"schema\":\"dbtrace.capture/1\",\"intervals\":[{\"t\":", "bad JSON at byte 48 (unexpected end)");
	expect_bad("{\"schema\":\"dbtrace.capture/1\" \"cpus\":[]}", "expected '}'");
	expect_bad("{\"schema\" 1}", "expected ':'");
	expect_bad("{1:2}", "expected a member name");
	expect_bad("{\"schema\":\"dbtrace.capture/1\",\"cpus\":[]", "expected '}'");
	expect_bad("{\"schema\":\"dbtrace.capture/1\",\"complete\":\"no\",\"cpus\":[]}",
		   "\"complete\" is not true or false");

	/* a file cut in the middle (a copy that stopped): not read as complete */
	{
		FILE *f = fopen(CAPS "rr.json", "r");
		char *buf = malloc(1 << 20);
		size_t n = fread(buf, 1, 1 << 20, f);

		fclose(f);
		assert_true(n > 1000);
		assert_int_equal(capture_read_buf(buf, n / 2, "cut.json", &cap, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "cut.json is not a dbtrace capture"));
		free(buf);
	}

	/* files that cannot be read */
	assert_int_equal(capture_read_file("/nonexistent/run.json", &cap, err, sizeof(err)), -ENOENT);
	assert_string_equal(err, "cannot read /nonexistent/run.json: No such file or directory");
	assert_int_equal(capture_read_file(CAPS, &cap, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "it is a directory"));
	assert_int_equal(capture_read_file("/dev/null", &cap, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not a regular file"));
	/* a FIFO is refused at once, not waited on */
	{
		char fifo[] = "/tmp/dbtrace-capfifo.XXXXXX";

		assert_non_null(mkdtemp(fifo));
		strcat(fifo, "/c.json");
		assert_int_equal(mkfifo(fifo, 0600), 0);
		assert_int_equal(capture_read_file(fifo, &cap, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "not a regular file"));
		unlink(fifo);
		*strrchr(fifo, '/') = 0;
		rmdir(fifo);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_loopback_capture),
		cmocka_unit_test(test_tbf_device_and_vdso),
		cmocka_unit_test(test_absent_families),
		cmocka_unit_test(test_minimal_and_nulls),
		cmocka_unit_test(test_cut_short_and_start_clocks),
		cmocka_unit_test(test_bad_input),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
