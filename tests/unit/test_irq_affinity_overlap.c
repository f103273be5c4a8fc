/* irq_affinity_overlap and the helpers the misbinding rules share: which
 * IRQs and RPS queues land on a CPU set, the dry-run commands, the hex
 * mask format of rps_cpus. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "findings/irq_affinity_overlap.h"
#include "finding_asserts.h"

static struct dbt_cpuset cpus(const char *list)
{
	struct dbt_cpuset s;

	assert_int_equal(dbt_cpuset_parse_list(&s, list), 0);
	return s;
}

static struct misbind_target target(int pid, const char *list)
{
	struct misbind_target t = { .pid = pid, .oncpu_pct = NAN };

	snprintf(t.comm, sizeof(t.comm), "observer");
	t.cpus = cpus(list);
	return t;
}

static void mask_format(void **state)
{
	struct dbt_cpuset s = cpus("1");
	char buf[64];

	assert_int_equal(misbind_format_mask(&s, buf, sizeof(buf)), 1);
	assert_string_equal(buf, "2");
	s = cpus("2-3");
	misbind_format_mask(&s, buf, sizeof(buf));
	assert_string_equal(buf, "c");
	s = cpus("0,33");
	misbind_format_mask(&s, buf, sizeof(buf));
	assert_string_equal(buf, "2,00000001");
	s = cpus("64-95");
	misbind_format_mask(&s, buf, sizeof(buf));
	assert_string_equal(buf, "ffffffff,00000000,00000000");
	dbt_cpuset_zero(&s);
	misbind_format_mask(&s, buf, sizeof(buf));
	assert_string_equal(buf, "0");
	s = cpus("64");
	assert_int_equal(misbind_format_mask(&s, buf, 8), -ENOSPC);
}

/* The hpet tree: eth0's five IRQs effective on CPUs 0-1, the pinned
 * observer on 0-1 of 4 CPUs: the field case. */
static void fires_on_field_case(void **state)
{
	struct dbt_nic_layout l;
	struct misbind_host h = { .irqbalance_running = true, .irqbalance_pid = 1187 };
	struct misbind_target t = target(4242, "0-1");
	struct finding_list out = { 0 };
	const struct finding *f;

	assert_int_equal(dbt_nic_layout_read(FIXTURES "/hpet-skewtick-netem", &l), 0);
	h.nics = &l;
	h.online = cpus("0-3");
	assert_int_equal(irq_affinity_overlap_check(&t, &h, 5, &out), 0);
	assert_int_equal(out.n, 1);
	f = &out.items[0];
	assert_string_equal(f->id, "irq_affinity_overlap");
	assert_int_equal(f->severity, SEV_WARNING);
	assert_int_equal(f->pid, 4242);
	assert_int_equal(f->first_interval, 5);
	assert_string_equal(ev(f, "process_cpus")->text, "0-1");
	assert_string_equal(ev(f, "overlap_cpus")->text, "0-1");
	assert_string_equal(ev(f, "outside_cpus")->text, "2-3");
	assert_string_equal(ev(f, "irqs")->text, "24 eth0 (cpu 0), 25 eth0-TxRx-0 (cpu 0), "
			    "26 eth0-TxRx-1 (cpu 1), 27 eth0-TxRx-2 (cpu 0), 28 eth0-TxRx-3 (cpu 1)");
	assert_string_equal(ev(f, "rps_queues")->text, "none");
	assert_string_equal(ev(f, "irqbalance")->text, "running (pid 1187)");
	assert_non_null(strstr(f->hint, "for i in 24 25 26 27 28; do echo 2-3 > "
				 "/proc/irq/$i/smp_affinity_list; done"));
	assert_non_null(strstr(f->hint, "IRQBALANCE_BANNED_CPULIST=0-1"));
	assert_non_null(strstr(f->hint, "taskset -apc 2-3 4242"));
	findings_free(&out);
	dbt_nic_layout_free(&l);
}

static void quiet_when_unbound_or_clear(void **state)
{
	struct dbt_nic_layout l;
	struct misbind_host h = { 0 };
	struct finding_list out = { 0 };
	struct misbind_target all = target(1, "0-3"), beyond = target(2, "0-7"),
		away = target(3, "2-3"), none = target(4, "");

	assert_int_equal(dbt_nic_layout_read(FIXTURES "/hpet-skewtick-netem", &l), 0);
	h.nics = &l;
	h.online = cpus("0-3");
	/* may run anywhere: nothing to move it from */
	assert_int_equal(irq_affinity_overlap_check(&all, &h, 0, &out), 0);
	assert_int_equal(irq_affinity_overlap_check(&beyond, &h, 0, &out), 0);
	/* bound away from the NIC: the fix already applied */
	assert_int_equal(irq_affinity_overlap_check(&away, &h, 0, &out), 0);
	assert_int_equal(irq_affinity_overlap_check(&none, &h, 0, &out), 0);
	/* no layout */
	h.nics = NULL;
	assert_int_equal(irq_affinity_overlap_check(&away, &h, 0, &out), 0);
	assert_int_equal(out.n, 0);
	findings_free(&out);
	dbt_nic_layout_free(&l);
}

/* The clean tree spreads one queue per CPU: a process bound to CPU 3
 * shares it with eth0-TxRx-3, and IRQs that never fired do not count. */
static void one_queue_and_rps(void **state)
{
	struct dbt_nic_layout l;
	struct misbind_host h = { 0 };
	struct finding_list out = { 0 };
	struct misbind_target t = target(4242, "3");
	char buf[160];

	assert_int_equal(dbt_nic_layout_read(FIXTURES "/clean", &l), 0);
	h.nics = &l;
	h.online = cpus("0-3");
	assert_int_equal(irq_affinity_overlap_check(&t, &h, 0, &out), 0);
	assert_int_equal(out.n, 1);
	assert_string_equal(ev(&out.items[0], "irqs")->text, "28 eth0-TxRx-3 (cpu 3)");
	assert_non_null(strstr(out.items[0].hint, "echo 0-2 > /proc/irq/28/smp_affinity_list"));
	assert_string_equal(ev(&out.items[0], "irqbalance")->text, "not running");

	/* RPS: rx-1 steering to CPUs 2-3 is listed and gets a mask command */
	l.nics[0].queues.q[1].cpus = cpus("2-3");
	l.nics[0].irqs[4].count = 0;
	findings_free(&out);
	assert_int_equal(irq_affinity_overlap_check(&t, &h, 0, &out), 0);
	assert_int_equal(out.n, 1);
	assert_string_equal(ev(&out.items[0], "irqs")->text, "none");
	assert_string_equal(ev(&out.items[0], "rps_queues")->text, "eth0 rx-1 (cpu 3)");
	assert_int_equal(misbind_rps_on(&l, &t.cpus, buf, sizeof(buf)), 1);
	assert_non_null(strstr(out.items[0].hint,
			       "echo 7 > /sys/class/net/eth0/queues/rx-1/rps_cpus"));
	findings_free(&out);
	dbt_nic_layout_free(&l);
}

/* A net interval holding one own-namespace device. */
static struct net_interval one_dev(struct net_dev_stats *d, const char *name, double rx, double tx)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->rx_pps = rx;
	d->tx_pps = tx;
	return (struct net_interval){ .dt_s = 1, .devs = d, .n_devs = 1 };
}

/* Weighed by the NIC's packets: info while eth0 has been idle all run,
 * a warning once it carried traffic, and it stays one when the load
 * stops (the run's peak counts); the evidence says the packets/s. */
static void weighed_by_traffic(void **state)
{
	struct dbt_nic_layout l;
	struct nic_traffic_table tt = { 0 };
	struct misbind_host h = { .traffic = &tt };
	struct misbind_target t = target(4242, "0-1");
	struct finding_list out = { 0 };
	struct net_dev_stats d;
	struct net_interval ni;
	const struct finding *f;

	assert_int_equal(dbt_nic_layout_read(FIXTURES "/hpet-skewtick-netem", &l), 0);
	h.nics = &l;
	h.online = cpus("0-3");

	/* the net family off: not measured, a warning as before */
	assert_int_equal(nic_traffic_update(&tt, &l, NULL), 0);
	assert_int_equal(irq_affinity_overlap_check(&t, &h, 0, &out), 0);
	f = &out.items[0];
	assert_int_equal(f->severity, SEV_WARNING);
	assert_string_equal(ev(f, "traffic")->text, "not measured (the net family is off)");
	for (int i = 0; i < f->n_ev; i++)
		assert_string_not_equal(f->ev[i].key, "overlap_pps");
	findings_free(&out);

	/* idle: 2 ARP-ish packets a second */
	ni = one_dev(&d, "eth0", 1.5, 0.5);
	assert_int_equal(nic_traffic_update(&tt, &l, &ni), 0);
	assert_int_equal(irq_affinity_overlap_check(&t, &h, 1, &out), 0);
	f = &out.items[0];
	assert_int_equal(f->severity, SEV_INFO);
	assert_string_equal(ev(f, "traffic")->text, "eth0 2 pkt/s (rx 2, tx 0; peak 2)");
	assert_true(ev(f, "overlap_pps")->num == 2);
	assert_true(ev(f, "overlap_peak_pps")->num == 2);
	assert_non_null(strstr(ev(f, "traffic_scope")->text, "per device"));
	assert_non_null(strstr(f->title, "; idle so far (peak 2 pkt/s)"));
	assert_non_null(strstr(f->hint, "carried no traffic yet"));
	findings_free(&out);

	/* just under and at the threshold */
	ni = one_dev(&d, "eth0", IRQ_OVERLAP_IDLE_PPS - 0.5, 0);
	assert_int_equal(nic_traffic_update(&tt, &l, &ni), 0);
	assert_int_equal(irq_affinity_overlap_check(&t, &h, 2, &out), 0);
	assert_int_equal(out.items[0].severity, SEV_INFO);
	findings_free(&out);
	ni = one_dev(&d, "eth0", IRQ_OVERLAP_IDLE_PPS / 2, IRQ_OVERLAP_IDLE_PPS / 2);
	assert_int_equal(nic_traffic_update(&tt, &l, &ni), 0);
	assert_int_equal(irq_affinity_overlap_check(&t, &h, 3, &out), 0);
	assert_int_equal(out.items[0].severity, SEV_WARNING);
	findings_free(&out);

	/* a database's load, then silence: still a warning, with both numbers */
	ni = one_dev(&d, "eth0", 40000, 38000);
	assert_int_equal(nic_traffic_update(&tt, &l, &ni), 0);
	ni = one_dev(&d, "eth0", 0, 0);
	assert_int_equal(nic_traffic_update(&tt, &l, &ni), 0);
	assert_int_equal(irq_affinity_overlap_check(&t, &h, 5, &out), 0);
	f = &out.items[0];
	assert_int_equal(f->severity, SEV_WARNING);
	assert_string_equal(ev(f, "traffic")->text, "eth0 0 pkt/s (rx 0, tx 0; peak 78000)");
	assert_null(strstr(f->title, "idle"));
	findings_free(&out);
	nic_traffic_free(&tt);

	/* measured, but not this NIC (no counters at both ends): not idle */
	ni = one_dev(&d, "eth1", 0, 0);
	assert_int_equal(nic_traffic_update(&tt, &l, &ni), 0);
	assert_int_equal(irq_affinity_overlap_check(&t, &h, 6, &out), 0);
	f = &out.items[0];
	assert_int_equal(f->severity, SEV_WARNING);
	assert_string_equal(ev(f, "traffic")->text, "eth0 not measured");
	findings_free(&out);
	nic_traffic_free(&tt);

	/* check: static, the same warning, and it says so */
	h.traffic = NULL;
	assert_int_equal(irq_affinity_overlap_check(&t, &h, -1, &out), 0);
	assert_int_equal(out.items[0].severity, SEV_WARNING);
	assert_string_equal(ev(&out.items[0], "traffic")->text,
			    "not measured (a static check reads no counters over time)");
	findings_free(&out);
	dbt_nic_layout_free(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mask_format),
		cmocka_unit_test(fires_on_field_case),
		cmocka_unit_test(quiet_when_unbound_or_clear),
		cmocka_unit_test(one_queue_and_rps),
		cmocka_unit_test(weighed_by_traffic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
