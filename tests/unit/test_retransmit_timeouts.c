/* retransmit_timeouts on net windows with the loss family's numbers
 * joined, and its join into bimodal_response. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "findings/retransmit_timeouts.h"
#include "finding_asserts.h"

/* Port 3306 in both roles, 10000 requests each in 1 s; the client's
 * response times mostly near 0.2 ms (log2 slots 7-8) with a group at
 * 131-262 ms (slot 17): the retransmit shape test_bimodal_response uses. */
static void window(struct net_interval *ni, uint64_t client_stalls, uint64_t server_stalls,
		   bool slow_group)
{
	memset(ni, 0, sizeof(*ni));
	ni->dt_s = 1;
	ni->n_ports = 2;
	ni->ports = calloc(2, sizeof(*ni->ports));
	ni->port_loss = calloc(2, sizeof(*ni->port_loss));
	ni->dev_loss = calloc(1, sizeof(*ni->dev_loss));
	ni->ports[0] = (struct net_port_stats){ .port = 3306, .role = DBT_NET_SERVER, .requests = 10000,
						.resp_p99_us = 150 };
	ni->ports[1] = (struct net_port_stats){ .port = 3306, .role = DBT_NET_CLIENT, .requests = 10000,
						.resp_p99_us = 210000 };
	ni->ports[1].resp_hist[dbt_hist_bucket(150000)] = 4000;      /* 150 µs */
	ni->ports[1].resp_hist[dbt_hist_bucket(300000)] = 5600;
	if (slow_group)
		ni->ports[1].resp_hist[dbt_hist_bucket(205000000)] = 400;   /* the 200 ms RTO */
	ni->port_loss[1] = (struct net_port_loss){ .stalls = client_stalls, .rto_timer = client_stalls / 2,
						   .tlp_probes = client_stalls - client_stalls / 2,
						   .retrans = client_stalls, .stall_rto_ms = 204,
						   .stall_pct = 100.0 * (double)client_stalls / 10000 };
	ni->port_loss[0] = (struct net_port_loss){ .stalls = server_stalls, .stall_rto_ms = 208,
						   .stall_pct = 100.0 * (double)server_stalls / 10000 };
}

static int check(const struct net_interval *ni, struct finding_list *out)
{
	struct rto_config c;
	struct bimodal_config b;

	rto_config_default(&c);
	bimodal_config_default(&b);
	return retransmit_timeouts_check(ni, &c, &b, 3, out);
}

/* The client row speaks for the port; its slow group sits at the RTO. */
static void test_client_waits(void **state)
{
	struct finding_list out = { 0 };
	struct net_interval ni;
	const struct finding *f;

	window(&ni, 400, 30, true);
	assert_int_equal(check(&ni, &out), 0);
	assert_int_equal(out.n, 1);
	f = find_id(&out, "retransmit_timeouts");
	assert_non_null(f);
	assert_string_equal(f->class_name, "3306/client");
	assert_int_equal(f->severity, SEV_CRITICAL);
	assert_true(ev(f, "rto_waits")->num == 400);
	assert_true(fabs(ev(f, "rto_wait_pct")->num - 4) < 1e-9);
	assert_true(ev(f, "rto_ms")->num == 204);
	assert_true(ev(f, "slow_mode_us")->num >= 131072);
	assert_non_null(strstr(f->title, "4% of requests waited for a retransmit timeout of 204 ms"));
	assert_non_null(strstr(f->hint, "sits at that timeout"));
	assert_int_equal(f->first_interval, 3);
	findings_free(&out);
	net_interval_free(&ni);
}

/* Few waits, no slow group to speak of: info; none at all: nothing. A
 * server row alone (clients elsewhere) is judged on its own. */
static void test_severity_and_roles(void **state)
{
	struct finding_list out = { 0 };
	struct net_interval ni;
	const struct finding *f;

	window(&ni, 3, 0, false);
	assert_int_equal(check(&ni, &out), 0);
	f = find_id(&out, "retransmit_timeouts");
	assert_non_null(f);
	assert_int_equal(f->severity, SEV_INFO);
	findings_clear(&out);
	net_interval_free(&ni);

	window(&ni, 0, 0, false);
	assert_int_equal(check(&ni, &out), 0);
	assert_int_equal(out.n, 0);
	net_interval_free(&ni);

	window(&ni, 0, 25, false);
	ni.ports[1].requests = 0;           /* no client on this host */
	assert_int_equal(check(&ni, &out), 0);
	f = find_id(&out, "retransmit_timeouts");
	assert_non_null(f);
	assert_string_equal(f->class_name, "3306/server");
	assert_int_equal(f->severity, SEV_WARNING);
	assert_non_null(strstr(f->title, "of replies"));
	findings_free(&out);
	net_interval_free(&ni);

	/* without the loss family nothing is judged */
	window(&ni, 400, 0, true);
	free(ni.port_loss);
	ni.port_loss = NULL;
	assert_int_equal(check(&ni, &out), 0);
	assert_int_equal(out.n, 0);
	net_interval_free(&ni);
}

/* The client's slow tail, known stage by stage: 4% of its staged
 * requests took 200 ms more than the rest, all of it outside the host. */
static void slow_tail(struct net_port_stats *p)
{
	for (int st = 0; st < DBT_NET_STAGES; st++)
		p->tail_extra_by_stage_us[st] = NAN;
	p->tail = 400;
	p->tail_pct = 4;
	p->tail_extra_us = 200000;
	p->tail_stage = DBT_NET_STAGE_OUTSIDE;
	p->tail_extra_by_stage_us[DBT_NET_STAGE_OUTSIDE] = 200000;
	p->tail_stage_pct = 100;
}

/* Both fire for port 3306: bimodal_response gets the waits, beside the
 * stage its slow tail spent its time in (all of its evidence kept: the
 * waits were once dropped past the evidence's room). */
static void test_join_into_bimodal(void **state)
{
	struct finding_list out = { 0 };
	struct bimodal_config b;
	struct net_interval ni;
	const struct finding *f;

	bimodal_config_default(&b);
	window(&ni, 400, 0, true);
	slow_tail(&ni.ports[1]);
	assert_int_equal(bimodal_response_check(&ni, &b, 0, &out), 0);
	assert_int_equal(check(&ni, &out), 0);
	retransmit_timeouts_join(&out);
	f = find_id(&out, "bimodal_response");
	assert_non_null(f);
	assert_true(ev(f, "rto_waits")->num == 400);
	assert_true(ev(f, "rto_ms")->num == 204);
	assert_string_equal(ev(f, "slow_stage")->text, "outside");
	assert_true(ev(f, "slow_stage_pct")->num == 100);
	assert_non_null(strstr(f->hint, "the slow group is retransmissions"));
	assert_non_null(strstr(f->hint, "in the outside stage (the network and the peer"));
	f = find_id(&out, "retransmit_timeouts");
	assert_non_null(f);
	assert_string_equal(ev(f, "slow_stage")->text, "outside");
	findings_free(&out);
	net_interval_free(&ni);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_client_waits),
		cmocka_unit_test(test_severity_and_roles),
		cmocka_unit_test(test_join_into_bimodal),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
