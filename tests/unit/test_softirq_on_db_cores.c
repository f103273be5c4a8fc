/* softirq_on_db_cores: network softirq above a tenth of a CPU the process
 * may use, while the other CPUs carry little of it; severity from how idle
 * the other CPUs are. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "findings/softirq_on_db_cores.h"
#include "finding_asserts.h"

#define NCPU 16

static struct cpu_row rows[NCPU];

/* The field case: 16 cores, NET_RX on the DB's cores 0-1, rest idle. */
static void field_rows(double rx0, double rx1, double idle_rest)
{
	memset(rows, 0, sizeof(rows));
	for (int i = 0; i < NCPU; i++) {
		rows[i].cpu = i;
		rows[i].valid = true;
		rows[i].idle_pct = idle_rest;
	}
	rows[0].softirq_pct[DBT_SOFTIRQ_NET_RX] = rx0;
	rows[1].softirq_pct[DBT_SOFTIRQ_NET_RX] = rx1;
	rows[1].softirq_pct[DBT_SOFTIRQ_NET_TX] = 1.5;
	rows[0].idle_pct = rows[1].idle_pct = 5;
}

static struct misbind_host host(void)
{
	struct misbind_host h = { 0 };

	for (int i = 0; i < NCPU; i++)
		dbt_cpuset_set(&h.online, (unsigned int)i);
	return h;
}

static struct misbind_target observer(const char *list)
{
	struct misbind_target t = { .pid = 4242, .oncpu_pct = 190 };

	snprintf(t.comm, sizeof(t.comm), "observer");
	assert_int_equal(dbt_cpuset_parse_list(&t.cpus, list), 0);
	return t;
}

static int check(const struct misbind_target *t, const struct misbind_host *h,
		 struct finding_list *out)
{
	struct sodc_config cfg;

	sodc_config_default(&cfg);
	return softirq_on_db_cores_check(rows, NCPU, t, h, &cfg, 2, out);
}

/* Without the softirq family every share is NAN: no finding, rather than
 * one with NAN evidence (seen in the 6.1 VM when the family failed). */
static void unmeasured_is_quiet(void **state)
{
	struct misbind_host h = host();
	struct misbind_target t = observer("0-1");
	struct finding_list out = { 0 };

	(void)state;
	field_rows(28, 24, 97);
	for (int i = 0; i < NCPU; i++)
		rows[i].softirq_pct[DBT_SOFTIRQ_NET_RX] = rows[i].softirq_pct[DBT_SOFTIRQ_NET_TX] = NAN;
	assert_int_equal(check(&t, &h, &out), 0);
	assert_int_equal(out.n, 0);
	findings_free(&out);
}

static void fires_on_field_case(void **state)
{
	struct misbind_host h = host();
	struct misbind_target t = observer("0-1");
	struct finding_list out = { 0 };
	const struct finding *f;

	field_rows(28, 24, 97);
	assert_int_equal(check(&t, &h, &out), 0);
	assert_int_equal(out.n, 1);
	f = &out.items[0];
	assert_string_equal(f->id, "softirq_on_db_cores");
	assert_int_equal(f->severity, SEV_CRITICAL);	/* >= 25% and others idle */
	assert_int_equal(f->pid, 4242);
	assert_int_equal(f->first_interval, 2);
	assert_string_equal(ev(f, "cpus")->text, "0-1");
	assert_float_equal(ev(f, "net_rx_pct")->num, 28, 1e-9);
	assert_string_equal(ev(f, "per_cpu_net_pct")->text, "0:28.0 1:25.5");
	assert_string_equal(ev(f, "process_cpus")->text, "0-1");
	assert_string_equal(ev(f, "outside_cpus")->text, "2-15");
	assert_float_equal(ev(f, "outside_net_pct")->num, 0, 1e-9);
	assert_float_equal(ev(f, "outside_idle_pct")->num, 97, 1e-9);
	assert_float_equal(ev(f, "process_oncpu_pct")->num, 190, 1e-9);
	assert_string_equal(ev(f, "irqs")->text, "unknown");
	assert_non_null(strstr(f->title, "28.0% of CPU 0"));
	assert_non_null(strstr(f->hint, "taskset -apc 2-15 4242"));
	findings_free(&out);
}

static void severity_follows_outside_idle(void **state)
{
	struct misbind_host h = host();
	struct misbind_target t = observer("0-1");
	struct finding_list out = { 0 };

	field_rows(15, 3, 80);
	assert_int_equal(check(&t, &h, &out), 0);
	assert_int_equal(out.items[0].severity, SEV_WARNING);
	assert_string_equal(ev(&out.items[0], "cpus")->text, "0");
	findings_clear(&out);
	/* the other CPUs are busy themselves: still reported, as info */
	field_rows(15, 3, 20);
	assert_int_equal(check(&t, &h, &out), 0);
	assert_int_equal(out.n, 1);
	assert_int_equal(out.items[0].severity, SEV_INFO);
	findings_free(&out);
}

static void quiet_cases(void **state)
{
	struct misbind_host h = host();
	struct misbind_target pinned = observer("0-1"), all = observer("0-15"),
		away = observer("4-5");
	struct finding_list out = { 0 };

	/* at the threshold, not above */
	field_rows(10, 8.5, 97);
	assert_int_equal(check(&pinned, &h, &out), 0);
	/* unbound: no CPU outside to steer to (softirq_concentration's case) */
	field_rows(28, 24, 97);
	assert_int_equal(check(&all, &h, &out), 0);
	/* bound elsewhere */
	assert_int_equal(check(&away, &h, &out), 0);
	/* heavy traffic spread everywhere: not a misbinding */
	field_rows(28, 24, 50);
	for (int i = 2; i < NCPU; i++)
		rows[i].softirq_pct[DBT_SOFTIRQ_NET_RX] = 20;
	assert_int_equal(check(&pinned, &h, &out), 0);
	/* the outside carries more than half of the hottest */
	field_rows(16, 0, 90);
	for (int i = 2; i < NCPU; i++)
		rows[i].softirq_pct[DBT_SOFTIRQ_NET_RX] = 9;
	assert_int_equal(check(&pinned, &h, &out), 0);
	assert_int_equal(out.n, 0);
	findings_free(&out);
}

static void invalid_and_offline_rows_skipped(void **state)
{
	struct misbind_host h = host();
	struct misbind_target t = observer("0-1");
	struct finding_list out = { 0 };

	field_rows(40, 0, 97);
	rows[0].valid = false;			/* offline at one end */
	assert_int_equal(check(&t, &h, &out), 0);
	assert_int_equal(out.n, 0);
	field_rows(40, 0, 97);
	dbt_cpuset_clear(&h.online, 0);		/* not counted by the caller */
	assert_int_equal(check(&t, &h, &out), 0);
	assert_int_equal(out.n, 0);
	findings_free(&out);
}

/* With the layout, the IRQs and queues on the hot CPUs are named and the
 * hint carries the commands that move them. */
static void names_irqs_from_layout(void **state)
{
	struct dbt_nic_layout l;
	struct misbind_host h = host();
	struct misbind_target t = observer("0-1");
	struct finding_list out = { 0 };

	assert_int_equal(dbt_nic_layout_read(FIXTURES "/hpet-skewtick-netem", &l), 0);
	h.nics = &l;
	field_rows(28, 0, 97);
	assert_int_equal(check(&t, &h, &out), 0);
	assert_int_equal(out.n, 1);
	assert_string_equal(ev(&out.items[0], "irqs")->text,
			    "24 eth0 (cpu 0), 25 eth0-TxRx-0 (cpu 0), 27 eth0-TxRx-2 (cpu 0)");
	assert_string_equal(ev(&out.items[0], "rps_queues")->text, "none");
	assert_non_null(strstr(out.items[0].hint,
			       "for i in 24 25 27; do echo 2-15 > /proc/irq/$i/smp_affinity_list; done"));
	findings_free(&out);
	dbt_nic_layout_free(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fires_on_field_case),
		cmocka_unit_test(severity_follows_outside_idle),
		cmocka_unit_test(quiet_cases),
		cmocka_unit_test(invalid_and_offline_rows_skipped),
		cmocka_unit_test(names_irqs_from_layout),
		cmocka_unit_test(unmeasured_is_quiet),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
