/* The rules of `dbtrace check`, each on hand-made readings, and the whole
 * audit on the two fixture trees: exactly the expected findings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "findings/static_checks.h"
#include "finding_asserts.h"
#include "sysinfo/proc_scan.h"
#include "sysinfo/procfile.h"

static void cmdline(struct static_input *in, const char *text)
{
	in->clock.have_cmdline = true;
	dbt_cmdline_parse(text, strlen(text), &in->clock.cmdline);
}

static struct finding_list run(const struct static_input *in)
{
	struct finding_list l = { 0 };

	assert_int_equal(static_checks_run(in, &l), 0);
	return l;
}

static void empty_input_no_findings(void **state)
{
	struct static_input in;
	struct finding_list l;

	memset(&in, 0, sizeof(in));
	l = run(&in);
	assert_int_equal(l.n, 0);
	assert_int_equal(static_checks_worst(&l), -1);
	findings_free(&l);
}

static void clocksource_verdicts(void **state)
{
	static const struct { const char *cs; int sev; } cases[] = {
		{ "hpet", SEV_WARNING }, { "acpi_pm", SEV_WARNING },
		{ "xen", SEV_INFO }, { "tsc", -1 }, { "kvm-clock", -1 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct static_input in;
		struct finding_list l;
		const struct finding *f;

		memset(&in, 0, sizeof(in));
		in.clock.have_cs = true;
		snprintf(in.clock.cs.current, sizeof(in.clock.cs.current), "%s", cases[i].cs);
		l = run(&in);
		f = find_id(&l, "clocksource_no_vdso");
		if (cases[i].sev < 0) {
			assert_null(f);
		} else {
			assert_non_null(f);
			assert_int_equal(f->severity, cases[i].sev);
			assert_int_equal(f->first_interval, -1);
			assert_string_equal(ev(f, "clocksource")->text, cases[i].cs);
		}
		findings_free(&l);
	}
}

static void kernel_command_line(void **state)
{
	struct static_input in;
	struct finding_list l;
	struct misbind_target t = { .pid = 9, .comm = "mysqld" };
	const struct finding *f;

	/* the ansvu worker0 style RT node: everything at once */
	memset(&in, 0, sizeof(in));
	cmdline(&in, "ro skew_tick=1 nohz=on rcu_nocbs=26-51 isolcpus=managed_irq,domain,26-51 "
		     "nohz_full=26-51 idle=poll mitigations=off");
	snprintf(in.clock.tuned.profile, sizeof(in.clock.tuned.profile), "network-latency");
	in.clock.tuned.file_present = true;
	dbt_cpuset_parse_list(&t.cpus, "20-30");
	in.targets = &t;
	in.n_targets = 1;
	l = run(&in);
	assert_int_equal(l.n, 5);
	f = find_id(&l, "skew_tick");
	assert_int_equal(f->severity, SEV_WARNING);
	assert_string_equal(f->title, "skew_tick=1 on the kernel command line (tuned profile network-latency)");
	assert_string_equal(ev(f, "tuned_profile")->text, "network-latency");
	f = find_id(&l, "nohz_full");
	assert_int_equal(f->severity, SEV_INFO);
	assert_string_equal(ev(f, "processes")->text, "mysqld (pid 9) on 26-30");
	/* the process may use several isolated CPUs: no balancing among them */
	f = find_id(&l, "isolcpus");
	assert_int_equal(f->severity, SEV_WARNING);
	assert_string_equal(ev(f, "domain_isolation")->text, "yes");
	assert_int_equal(find_id(&l, "idle_poll")->severity, SEV_INFO);
	assert_int_equal(find_id(&l, "mitigations_off")->severity, SEV_INFO);
	assert_int_equal(static_checks_worst(&l), SEV_WARNING);
	findings_free(&l);

	/* managed_irq alone does not stop balancing; skew_tick=0 is the default */
	memset(&in, 0, sizeof(in));
	cmdline(&in, "skew_tick=0 isolcpus=managed_irq,0-8");
	in.targets = &t;
	in.n_targets = 1;
	dbt_cpuset_parse_list(&t.cpus, "0-8");
	l = run(&in);
	assert_int_equal(l.n, 1);
	assert_int_equal(find_id(&l, "isolcpus")->severity, SEV_INFO);
	findings_free(&l);
}

static void cpufreq_governors(void **state)
{
	struct static_input in;
	struct finding_list l;

	memset(&in, 0, sizeof(in));
	in.have_cpufreq = true;
	dbt_cpufreq_add(&in.cpufreq, 0, "performance", "intel_pstate");
	l = run(&in);
	assert_int_equal(l.n, 0);
	findings_free(&l);
	/* hardware-managed powersave still ramps up: info */
	dbt_cpufreq_add(&in.cpufreq, 1, "powersave", "intel_pstate");
	l = run(&in);
	assert_int_equal(find_id(&l, "cpufreq_governor")->severity, SEV_INFO);
	findings_free(&l);
	/* acpi-cpufreq powersave pins the lowest frequency */
	dbt_cpufreq_add(&in.cpufreq, 2, "powersave", "acpi-cpufreq");
	l = run(&in);
	assert_int_equal(find_id(&l, "cpufreq_governor")->severity, SEV_WARNING);
	assert_non_null(strstr(ev(find_id(&l, "cpufreq_governor"), "governors")->text,
			       "powersave/acpi-cpufreq on 2"));
	findings_free(&l);
}

static void thp_modes(void **state)
{
	struct static_input in;
	struct finding_list l;

	memset(&in, 0, sizeof(in));
	in.have_thp = true;
	in.thp.has_enabled = in.thp.has_defrag = true;
	strcpy(in.thp.enabled, "madvise");
	strcpy(in.thp.defrag, "madvise");
	l = run(&in);
	assert_int_equal(l.n, 0);
	findings_free(&l);
	strcpy(in.thp.enabled, "always");
	strcpy(in.thp.defrag, "always");
	l = run(&in);
	assert_int_equal(l.n, 2);
	assert_int_equal(find_id(&l, "thp_enabled")->severity, SEV_INFO);
	assert_int_equal(find_id(&l, "thp_defrag")->severity, SEV_WARNING);
	findings_free(&l);
}

static void qdiscs_and_links(void **state)
{
	struct qdisc_info q[4] = {
		{ .ifindex = 2, .parent = 0xffffffffu, .kind = "netem", .delay_ns = 1000000 },
		{ .ifindex = 3, .parent = 0xffffffffu, .kind = "tbf", .rate_bps = 844000000,
		  .burst_bytes = 100000, .limit = 150000 },
		{ .ifindex = 4, .parent = 0xffffffffu, .kind = "fq_codel" },
		/* a netem below the root (a class of htb) is the root's matter */
		{ .ifindex = 4, .parent = 0x10001, .kind = "netem", .delay_ns = 5000000 },
	};
	struct qdisc_table t = { .q = q, .n = 4, .cap = 4 };
	struct dbt_nic nics[4] = {
		{ .dev = "bond0", .ifindex = 2 }, { .dev = "eth1", .ifindex = 3 },
		{ .dev = "eno49", .ifindex = 4, .master = "bond0" }, { .dev = "eth9", .ifindex = 9 },
	};
	struct dbt_nic_layout layout = { .n = 4, .nics = nics };
	long mbps[4] = { 2000, 10000, 1000, 1000 };
	struct static_input in;
	struct finding_list l;
	const struct finding *f;

	memset(&in, 0, sizeof(in));
	in.qdiscs = &t;
	in.nics = &layout;
	in.link_mbps = mbps;
	l = run(&in);
	assert_int_equal(l.n, 3);
	f = find_id(&l, "qdisc_netem");
	assert_string_equal(ev(f, "device")->text, "bond0");
	assert_float_equal(ev(f, "delay_ms")->num, 1, 1e-9);
	assert_non_null(strstr(f->hint, "tc qdisc del dev bond0 root"));
	f = find_id(&l, "qdisc_shaper");
	assert_string_equal(ev(f, "device")->text, "eth1");
	assert_float_equal(ev(f, "rate_mbit")->num, 844, 1e-9);
	assert_float_equal(ev(f, "link_mbit")->num, 10000, 1e-9);
	/* eno49 is a bond port: judged through bond0; eth9 is a GbE link */
	f = find_id(&l, "link_speed");
	assert_string_equal(ev(f, "device")->text, "eth9");
	assert_int_equal(f->severity, SEV_INFO);
	findings_free(&l);
}

/* Builds the input the way `dbtrace check --root` does. */
static void read_tree(const char *root, struct static_input *in, struct dbt_nic_layout *nics,
		      struct qdisc_table *qd, long *mbps, struct misbind_target *t)
{
	struct dbt_task_cpus tc;
	char *buf;
	size_t len;

	memset(in, 0, sizeof(*in));
	clock_env_read(root, &in->clock);
	in->have_online = !dbt_cpuset_read_list(root, "sys/devices/system/cpu/online", &in->online);
	assert_int_equal(dbt_nic_layout_read(root, nics), 0);
	in->nics = nics;
	for (size_t i = 0; i < nics->n; i++)
		mbps[i] = 10000;
	in->link_mbps = mbps;
	assert_int_equal(procfile_slurp(root, "netlink/qdisc.bin", 1 << 20, &buf, &len), 0);
	assert_int_equal(qdisc_parse_reply(buf, len, qd), 1);
	free(buf);
	in->qdiscs = qd;
	in->have_irqbalance = !dbt_irqbalance_read(root, &in->irqbalance);
	in->have_cpufreq = !dbt_cpufreq_read(root, &in->cpufreq);
	in->have_thp = !dbt_thp_read(root, &in->thp);
	assert_int_equal(dbt_proc_task_cpus(root, 4242, &tc), 0);
	memset(t, 0, sizeof(*t));
	t->pid = 4242;
	t->cpus = tc.allowed;
	t->oncpu_pct = NAN;
	snprintf(t->comm, sizeof(t->comm), "%s", tc.comm);
	in->targets = t;
	in->n_targets = 1;
}

static void fixture_trees_exact(void **state)
{
	static const char *const want[] = { "clocksource_no_vdso", "skew_tick", "qdisc_netem",
					    "irq_affinity_overlap" };
	struct static_input in;
	struct dbt_nic_layout nics;
	struct qdisc_table qd = { 0 };
	struct misbind_target t;
	struct finding_list l;
	long mbps[4];

	read_tree(FIXTURES "/hpet-skewtick-netem", &in, &nics, &qd, mbps, &t);
	l = run(&in);
	assert_int_equal(l.n, 4);
	for (int i = 0; i < 4; i++) {
		assert_string_equal(l.items[i].id, want[i]);
		assert_int_equal(l.items[i].severity, SEV_WARNING);
	}
	assert_string_equal(ev(find_id(&l, "qdisc_netem"), "qdisc")->text, "netem delay 1ms");
	assert_string_equal(ev(find_id(&l, "irq_affinity_overlap"), "irqbalance")->text,
			    "running (pid 1187)");
	findings_free(&l);
	qdisc_table_free(&qd);
	dbt_nic_layout_free(&nics);

	read_tree(FIXTURES "/clean", &in, &nics, &qd, mbps, &t);
	l = run(&in);
	assert_int_equal(l.n, 0);
	findings_free(&l);
	qdisc_table_free(&qd);
	dbt_nic_layout_free(&nics);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(empty_input_no_findings),
		cmocka_unit_test(clocksource_verdicts),
		cmocka_unit_test(kernel_command_line),
		cmocka_unit_test(cpufreq_governors),
		cmocka_unit_test(thp_modes),
		cmocka_unit_test(qdiscs_and_links),
		cmocka_unit_test(fixture_trees_exact),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
