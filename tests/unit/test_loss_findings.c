/* packet_drops, accept_queue_overflow and softnet_backlog_drops on loss
 * windows made by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "findings/accept_queue_overflow.h"
#include "findings/packet_drops.h"
#include "findings/softnet_backlog_drops.h"
#include "finding_asserts.h"

static void drops_window(struct loss_interval *li, uint64_t qdisc, uint64_t other)
{
	memset(li, 0, sizeof(*li));
	li->dt_s = 1;
	li->n_reasons = 2;
	li->reasons = calloc(2, sizeof(*li->reasons));
	li->reasons[0] = (struct loss_reason_stats){ .slot = 64, .name = "qdisc_drop", .count = qdisc };
	li->reasons[1] = (struct loss_reason_stats){ .slot = 2, .name = "not_specified", .count = other };
	li->n_drops = 2;
	li->drops = calloc(2, sizeof(*li->drops));
	li->drops[0] = (struct loss_drop_stats){ .reason_name = "qdisc_drop", .netns = 7, .netns_name = "router",
						 .foreign = true, .dev = "rb", .count = qdisc };
	li->drops[1] = (struct loss_drop_stats){ .reason_name = "not_specified", .port = 3306, .count = other };
	li->drops_total = qdisc + other;
	li->drops_per_s = (double)li->drops_total;
}

static void test_packet_drops(void **state)
{
	struct finding_list out = { 0 };
	struct drops_config c;
	struct loss_interval li;
	const struct finding *f;

	drops_config_default(&c);
	drops_window(&li, 950, 50);
	assert_int_equal(packet_drops_check(&li, &c, 1, &out), 0);
	f = find_id(&out, "packet_drops");
	assert_non_null(f);
	assert_int_equal(f->severity, SEV_CRITICAL);
	assert_string_equal(ev(f, "top_reason")->text, "qdisc_drop");
	assert_string_equal(ev(f, "top_place")->text, "rb@router");
	assert_true(fabs(ev(f, "top_reason_pct")->num - 95) < 1e-9);
	assert_string_equal(ev(f, "reasons")->text, "qdisc_drop 950, not_specified 50");
	assert_non_null(strstr(ev(f, "places")->text, "port 3306 (server): not_specified 50"));
	assert_non_null(strstr(f->title, "1000 packets/s dropped, most for qdisc_drop (95%) at rb@router"));
	assert_non_null(strstr(f->hint, "queue was full"));
	findings_free(&out);
	loss_interval_free(&li);
	/* below 50/s: a host's background of drops raises nothing */
	drops_window(&li, 20, 9);
	assert_int_equal(packet_drops_check(&li, &c, 1, &out), 0);
	assert_int_equal(out.n, 0);
	loss_interval_free(&li);
	assert_string_equal(packet_drops_advice("no_such_reason"), "");
}

static void listeners_window(struct loss_interval *li, uint64_t overflows)
{
	memset(li, 0, sizeof(*li));
	li->dt_s = 1;
	li->n_listeners = 2;
	li->listeners = calloc(2, sizeof(*li->listeners));
	li->listeners[0] = (struct loss_listener_stats){ .netns = 9, .netns_name = "nsb", .foreign = true,
							 .port = 8080, .sockets = 1, .queue = 2, .backlog = 1,
							 .max_backlog = 1, .have_drops = true,
							 .overflows = overflows, .somaxconn = 4096 };
	li->listeners[1] = (struct loss_listener_stats){ .port = 22, .sockets = 1, .backlog = 128,
							 .max_backlog = 128, .have_drops = true, .somaxconn = 4096 };
	li->n_ns = 1;
	li->ns = calloc(1, sizeof(*li->ns));
	li->ns[0] = (struct loss_ns_stats){ .netns = 9, .have = true, .listen_overflows = overflows,
					    .listen_drops = overflows };
}

static void test_accept_queue_overflow(void **state)
{
	struct finding_list out = { 0 };
	struct acceptq_config c;
	struct loss_interval li;
	const struct finding *f;

	acceptq_config_default(&c);
	listeners_window(&li, 12);
	assert_int_equal(accept_queue_overflow_check(&li, &c, 0, &out), 0);
	assert_int_equal(out.n, 1);
	f = find_id(&out, "accept_queue_overflow");
	assert_string_equal(f->class_name, "8080/server@nsb");
	assert_true(ev(f, "port")->num == 8080);
	assert_true(ev(f, "overflows")->num == 12);
	assert_true(ev(f, "backlog")->num == 1);
	assert_true(ev(f, "somaxconn")->num == 4096);
	assert_true(ev(f, "listen_overflows")->num == 12);
	assert_string_equal(ev(f, "netns")->text, "nsb");
	assert_non_null(strstr(f->title, "port 8080@nsb: 12 connection attempts dropped"));
	assert_non_null(strstr(f->title, "backlog 1, somaxconn 4096"));
	assert_non_null(strstr(f->hint, "somaxconn (4096 here"));
	findings_free(&out);
	loss_interval_free(&li);
	/* full but nothing dropped: no finding */
	listeners_window(&li, 0);
	assert_int_equal(accept_queue_overflow_check(&li, &c, 0, &out), 0);
	assert_int_equal(out.n, 0);
	loss_interval_free(&li);
}

static void test_softnet_backlog_drops(void **state)
{
	struct finding_list out = { 0 };
	struct softnet_config c;
	struct loss_interval li;
	const struct finding *f;

	softnet_config_default(&c);
	memset(&li, 0, sizeof(li));
	li.dt_s = 2;
	li.n_cpus = 3;
	li.cpus = calloc(3, sizeof(*li.cpus));
	li.cpus[0] = (struct loss_cpu_stats){ .cpu = 0, .time_squeezes = 4 };
	li.cpus[1] = (struct loss_cpu_stats){ .cpu = 1, .backlog_drops = 31, .time_squeezes = 3 };
	li.cpus[2] = (struct loss_cpu_stats){ .cpu = 5, .backlog_drops = 9 };
	li.backlog_drops = 40;
	li.time_squeezes = 7;
	li.netdev_max_backlog = 1000;
	assert_int_equal(softnet_backlog_drops_check(&li, &c, 2, &out), 0);
	f = find_id(&out, "softnet_backlog_drops");
	assert_non_null(f);
	assert_string_equal(ev(f, "cpus")->text, "1,5");
	assert_string_equal(ev(f, "per_cpu_backlog_drops")->text, "1:31 5:9");
	assert_string_equal(ev(f, "per_cpu_time_squeezes")->text, "0:4 1:3");
	assert_true(ev(f, "netdev_max_backlog")->num == 1000);
	assert_true(ev(f, "backlog_drops_per_s")->num == 20);
	assert_non_null(strstr(f->title, "40 packets dropped by full receive backlogs on CPU 1,5 (netdev_max_backlog 1000)"));
	findings_free(&out);
	/* time squeezes alone are not drops */
	li.cpus[1].backlog_drops = li.cpus[2].backlog_drops = 0;
	li.backlog_drops = 0;
	assert_int_equal(softnet_backlog_drops_check(&li, &c, 2, &out), 0);
	assert_int_equal(out.n, 0);
	loss_interval_free(&li);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_packet_drops),
		cmocka_unit_test(test_accept_queue_overflow),
		cmocka_unit_test(test_softnet_backlog_drops),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
