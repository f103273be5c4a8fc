/* The loss family's metrics: running totals fed by loss windows and the
 * net rows they are joined into, read back from the exposition. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/net_loss.h"
#include "render/prom_exposition.h"

static const struct probe_report probes[] = { { .family = "loss", .attach = "tp_btf" } };
static const struct prom_build build = { .version = "9.9.9", .probes = probes, .n_probes = 1 };

struct window {
	struct cpu_row rows[1];
	struct net_port_stats ports[1];
	struct net_port_loss port_loss[1];
	struct net_dev_loss dev_loss[1];
	struct loss_reason_stats reasons[2];
	struct loss_cpu_stats cpus[2];
	struct loss_ns_stats ns[2];
	struct loss_listener_stats lis[1];
	struct finding_list findings;
	struct interval iv;            /* its net and loss parts point into the arrays above */
};

static void window(struct window *w, uint64_t k)
{
	memset(w, 0, sizeof(*w));
	w->rows[0].cpu = 0;
	w->iv.net.dt_s = w->iv.loss.dt_s = w->iv.dt_s = 1;
	w->ports[0] = (struct net_port_stats){ .port = 3306, .role = DBT_NET_CLIENT, .requests = 100 };
	w->port_loss[0] = (struct net_port_loss){ .rto_timer = 1 * k, .tlp_probes = 2 * k, .stalls = 3 * k,
						  .drops = 4 * k };
	w->port_loss[0].segs[DBT_RETX_FAST] = 10 * k;
	w->iv.net.ports = w->ports;
	w->iv.net.n_ports = 1;
	w->iv.net.port_loss = w->port_loss;
	w->iv.net.dev_loss = w->dev_loss;
	w->reasons[0] = (struct loss_reason_stats){ .slot = 64, .name = "qdisc_drop", .count = 50 * k };
	w->reasons[1] = (struct loss_reason_stats){ .slot = 2, .name = "not_specified", .count = k };
	w->iv.loss.reasons = w->reasons;
	w->iv.loss.n_reasons = 2;
	w->cpus[0] = (struct loss_cpu_stats){ .cpu = 0, .backlog_drops = 0 };
	w->cpus[1] = (struct loss_cpu_stats){ .cpu = 1, .backlog_drops = 7 * k, .time_squeezes = k };
	w->iv.loss.cpus = w->cpus;
	w->iv.loss.n_cpus = 2;
	w->ns[0] = (struct loss_ns_stats){ .netns = 1, .have = true, .listen_overflows = 5 * k,
					   .listen_drops = 6 * k, .memory_pressure_ms = 500 * k };
	w->ns[1] = (struct loss_ns_stats){ .netns = 2, .name = "nsb", .foreign = true, .have = true,
					   .listen_overflows = k };
	w->iv.loss.ns = w->ns;
	w->iv.loss.n_ns = 2;
	w->lis[0] = (struct loss_listener_stats){ .netns = 2, .netns_name = "nsb", .foreign = true, .port = 8080,
						  .sockets = 1, .queue = 2, .backlog = 1, .have_drops = true,
						  .overflows = 12 * k };
	w->iv.loss.listeners = w->lis;
	w->iv.loss.n_listeners = 1;
	w->iv.ncpus = 1;
	w->iv.rows = w->rows;
	w->iv.have_net = w->iv.have_loss = true;
}

static int has(const char *text, const char *line)
{
	return strstr(text, line) != NULL;
}

static void test_two_windows(void **state)
{
	struct prom_self self = { 1, 1, 1 };
	struct prom_totals *t;
	struct window w;
	char *text;
	size_t len;
	FILE *f;

	assert_int_equal(prom_totals_new(&t, 20), 0);
	window(&w, 1);
	assert_int_equal(prom_totals_add(t, &w.iv, &w.findings), 0);
	window(&w, 2);
	w.iv.loss.n_listeners = 0;               /* the listener went away */
	assert_int_equal(prom_totals_add(t, &w.iv, &w.findings), 0);
	f = open_memstream(&text, &len);
	assert_int_equal(prom_render(t, &build, &self, f), 0);
	fclose(f);
	/* counters are the sums of the two windows */
	assert_true(has(text, "dbtrace_port_retransmits_total{port=\"3306\",role=\"client\",kind=\"fast\"} 30\n"));
	assert_true(has(text, "dbtrace_port_retransmits_total{port=\"3306\",role=\"client\",kind=\"timeout\"} 0\n"));
	assert_true(has(text, "dbtrace_port_retransmit_timeouts_total{port=\"3306\",role=\"client\"} 3\n"));
	assert_true(has(text, "dbtrace_port_tail_loss_probes_total{port=\"3306\",role=\"client\"} 6\n"));
	assert_true(has(text, "dbtrace_port_rto_waits_total{port=\"3306\",role=\"client\"} 9\n"));
	assert_true(has(text, "dbtrace_port_drops_total{port=\"3306\",role=\"client\"} 12\n"));
	assert_true(has(text, "dbtrace_packet_drops_total{reason=\"qdisc_drop\"} 150\n"));
	assert_true(has(text, "dbtrace_packet_drops_total{reason=\"not_specified\"} 3\n"));
	assert_true(has(text, "dbtrace_softnet_backlog_drops_total{cpu=\"1\"} 21\n"));
	assert_true(has(text, "dbtrace_softnet_backlog_drops_total{cpu=\"0\"} 0\n"));
	assert_true(has(text, "dbtrace_softnet_time_squeezes_total{cpu=\"1\"} 3\n"));
	assert_true(has(text, "dbtrace_listen_overflows_total{netns=\"\"} 15\n"));
	assert_true(has(text, "dbtrace_listen_overflows_total{netns=\"nsb\"} 3\n"));
	assert_true(has(text, "dbtrace_tcp_memory_pressure_seconds_total{netns=\"\"} 1.5\n"));
	assert_true(has(text, "dbtrace_listener_overflows_total{port=\"8080\",netns=\"nsb\"} 12\n"));
	/* gauges are the latest window's: the listener is gone */
	assert_false(has(text, "dbtrace_listener_accept_queue{"));
	assert_true(has(text, "# TYPE dbtrace_listener_accept_queue gauge\n"));
	free(text);
	prom_totals_free(t);
}

/* Without the loss family: the families are there, no series. */
static void test_family_off(void **state)
{
	struct prom_self self = { 1, 1, 1 };
	struct prom_totals *t;
	struct window w;
	char *text;
	size_t len;
	FILE *f;

	assert_int_equal(prom_totals_new(&t, 20), 0);
	window(&w, 1);
	w.iv.have_loss = false;
	w.iv.net.port_loss = NULL;
	w.iv.net.dev_loss = NULL;
	assert_int_equal(prom_totals_add(t, &w.iv, &w.findings), 0);
	f = open_memstream(&text, &len);
	assert_int_equal(prom_render(t, &build, &self, f), 0);
	fclose(f);
	assert_true(has(text, "# TYPE dbtrace_port_retransmits_total counter\n"));
	assert_false(has(text, "dbtrace_port_retransmits_total{"));
	assert_false(has(text, "dbtrace_packet_drops_total{"));
	assert_false(has(text, "dbtrace_listen_overflows_total{"));
	free(text);
	prom_totals_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_windows),
		cmocka_unit_test(test_family_off),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
