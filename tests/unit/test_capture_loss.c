/* The loss family's capture fields: written, read back, compared by diff
 * and shown by the report. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capture/capture_diff.h"
#include "capture/capture_figures.h"
#include "capture/capture_loss.h"
#include "capture/capture_read.h"
#include "render/report_html.h"

/* Every field written comes back. */
static void test_round_trip(void **state)
{
	struct net_port_loss l = { .retrans = 67, .rto_timer = 3, .tlp_probes = 59, .stalls = 61,
				   .conns = 4, .drops = 2, .retrans_per_s = 7.5, .rto_per_s = 0.3,
				   .stall_pct = 0.15, .stall_rto_ms = 204, .drops_per_s = 0.25 };
	struct net_dev_loss d = { .drops = 1049, .drops_per_s = 174.8 }, d2;
	struct net_port_loss back;
	json_object *o = json_object_new_object(), *dev = json_object_new_object();

	l.segs[DBT_RETX_TIMEOUT] = 3;
	l.segs[DBT_RETX_TLP] = 59;
	l.segs[DBT_RETX_SYN] = 5;
	capture_figs_write(o, &fig_port_loss, &l, NULL);
	capture_figs_write(dev, &fig_dev_loss, &d, NULL);
	assert_true(capture_loss_read_port(o, &back));
	assert_true(back.retrans == 67 && back.segs[DBT_RETX_TLP] == 59 && back.segs[DBT_RETX_SYN] == 5);
	assert_true(back.rto_timer == 3 && back.tlp_probes == 59 && back.stalls == 61 && back.conns == 4);
	assert_true(back.drops == 2 && fabs(back.stall_rto_ms - 204) < 1e-9 && fabs(back.stall_pct - 0.15) < 1e-9);
	assert_true(capture_loss_read_device(dev, &d2));
	assert_true(d2.drops == 1049 && fabs(d2.drops_per_s - 174.8) < 1e-9);
	/* an object without the family's fields */
	assert_false(capture_loss_read_port(dev, &back));
	assert_true(isnan(back.stall_pct));
	json_object_put(o);
	json_object_put(dev);
}

static const char *capture_text(double retx_per_s, int overflows)
{
	static char buf[8192];

	snprintf(buf, sizeof(buf),
		 "{\"schema\":\"dbtrace.capture/1\",\"version\":\"0.9\",\"started_at\":\"2026-11-24T00:00:00Z\","
		 "\"interval_s\":1,\"host\":{\"hostname\":\"h\",\"kernel\":\"6.18\",\"cpus\":2,"
		 "\"clocksource\":\"tsc\",\"cmdline\":\"\"},\"probes\":{\"loss\":{\"attach\":\"tp_btf\",\"rejected\":[]}},"
		 "\"intervals\":[],\"duration_s\":5,\"overhead\":{\"cpu_pct\":1,\"max_rss_kb\":1,\"lost_events\":0},"
		 "\"cpus\":[{\"cpu\":1,\"softirq_pct\":{},\"hardirq_pct\":0,\"softirq_raises\":{},\"softirq_entries\":{},"
		 "\"softirq_wait_p99_us\":{},\"softnet\":{\"processed\":10,\"backlog_drops\":31,"
		 "\"backlog_drops_per_s\":6.2,\"time_squeezes\":3,\"time_squeezes_per_s\":0.6}}],"
		 "\"net\":{\"devices\":[{\"name\":\"rb\",\"netns\":\"r\",\"tx_pps\":1,\"drops\":50,\"drops_per_s\":10}],"
		 "\"devices_omitted\":0,\"ports\":[{\"port\":7000,\"role\":\"client\",\"requests\":1904,"
		 "\"requests_per_s\":380,\"response_p50_us\":25,\"response_p99_us\":240000,\"reads\":1904,"
		 "\"rxq_p50_us\":null,\"rxq_p99_us\":null,\"retransmits\":{\"segments\":100,\"per_s\":%g,"
		 "\"timeout\":0,\"fast\":0,\"tlp\":100,\"syn\":0,\"other\":0,\"rto_timeouts\":0,\"rto_per_s\":0,"
		 "\"tail_loss_probes\":100,\"rto_waits\":100,\"rto_wait_pct\":5.25,\"rto_wait_ms\":204,"
		 "\"connections\":4},\"drops\":0,\"drops_per_s\":0}],\"ports_omitted\":0,\"lost_samples\":0,"
		 "\"drops\":[{\"reason\":\"tc_egress\",\"count\":100,\"per_s\":20,\"device\":\"rb\",\"netns\":\"r\","
		 "\"port\":null,\"role\":null}],\"drops_omitted\":0,\"drops_total\":100,\"drops_per_s\":20,"
		 "\"drop_reasons\":[{\"reason\":\"tc_egress\",\"count\":100,\"per_s\":20}],"
		 "\"listeners\":[{\"port\":8080,\"netns\":\"b\",\"sockets\":1,\"accept_queue\":2,\"backlog\":1,"
		 "\"overflows\":%d,\"overflows_per_s\":2.4,\"somaxconn\":4096}],\"listeners_omitted\":0,"
		 "\"netstat\":[{\"netns\":null,\"listen_overflows\":12,\"listen_drops\":12,\"somaxconn\":4096}],"
		 "\"netdev_max_backlog\":1000,\"loss_lost_samples\":0},\"findings\":[]}",
		 retx_per_s, overflows);
	return buf;
}

static void read_capture(struct capture *c, double retx, int overflows)
{
	char err[256];
	const char *t = capture_text(retx, overflows);

	assert_int_equal(capture_read_buf(t, strlen(t), "x.json", c, err, sizeof(err)), 0);
}

static void test_read_back(void **state)
{
	struct capture c;

	read_capture(&c, 20, 12);
	assert_true(c.have_loss);
	assert_non_null(c.net.port_loss);
	assert_true(c.net.port_loss[0].retrans == 100 && c.net.port_loss[0].segs[DBT_RETX_TLP] == 100);
	assert_true(c.net.dev_loss[0].drops == 50);
	assert_int_equal(c.loss.n_drops, 1);
	assert_string_equal(c.loss.drops[0].reason_name, "tc_egress");
	assert_string_equal(c.loss.drops[0].netns_name, "r");
	assert_int_equal(c.loss.n_reasons, 1);
	assert_int_equal(c.loss.n_listeners, 1);
	assert_true(c.loss.listeners[0].overflows == 12 && c.loss.listeners[0].backlog == 1);
	assert_int_equal(c.loss.n_ns, 1);
	assert_true(c.loss.ns[0].listen_overflows == 12);
	assert_int_equal(c.loss.netdev_max_backlog, 1000);
	assert_int_equal(c.loss.n_cpus, 1);
	assert_true(c.loss.cpus[0].cpu == 1 && c.loss.cpus[0].backlog_drops == 31);
	capture_free(&c);
}

static void test_diff_and_report(void **state)
{
	struct capture a, b;
	struct capture_diff d;
	const struct cdiff_row *r;
	char *html;
	size_t len;
	FILE *f;

	read_capture(&a, 2, 0);
	read_capture(&b, 20, 12);
	assert_int_equal(capture_diff_compute(&a, &b, NULL, &d), 0);
	r = cdiff_find(&d, CDIFF_PORTS, "7000/client", "retransmits_per_s");
	assert_non_null(r);
	assert_int_equal(r->dir, CDIFF_WORSE);
	r = cdiff_find(&d, CDIFF_DEVICES, "rb@r", "drops_per_s");
	assert_non_null(r);
	assert_int_equal(r->dir, CDIFF_SAME);
	capture_diff_free(&d);
	f = open_memstream(&html, &len);
	assert_int_equal(report_html_write(f, &b, NULL), 0);
	fclose(f);
	assert_non_null(strstr(html, "<section id=\"loss\">"));
	assert_non_null(strstr(html, "<table id=\"retx-table\">"));
	assert_non_null(strstr(html, "tc_egress"));
	free(html);
	capture_free(&a);
	capture_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_read_back),
		cmocka_unit_test(test_diff_and_report),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
