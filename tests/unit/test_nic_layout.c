// SPDX-License-Identifier: GPL-2.0
/* NIC layout: queue IRQs (through msi_irqs, else by name) with their
 * affinity, RPS/XPS masks per queue, bond membership; on trees copied
 * from real hosts (a 32-CPU bonded ixgbe port, a bnx2x host with RPS, a
 * virtio guest) and synthetic ones. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sysinfo/nic_layout.h"

static void fmt_eq(const struct dbt_cpuset *s, const char *want)
{
	char buf[256];

	assert_true(dbt_cpuset_format_list(s, buf, sizeof(buf)) >= 0);
	assert_string_equal(buf, want);
}

static void synthetic_hpet_layout(void **state)
{
	struct dbt_nic_layout l;
	const struct dbt_nic *n;

	assert_int_equal(dbt_nic_layout_read(FIXTURES "/hpet-skewtick-netem", &l), 0);
	assert_int_equal(l.interrupts_err, 0);
	assert_int_equal(l.n, 1);
	n = &l.nics[0];
	assert_string_equal(n->dev, "eth0");
	assert_int_equal(n->ifindex, 2);
	assert_string_equal(n->master, "");
	assert_true(n->irqs_from_msi);
	assert_int_equal(n->n_irqs, 5);
	assert_int_equal(n->irqs[0].irq, 24);
	assert_string_equal(n->irqs[0].name, "eth0");
	assert_int_equal(n->irqs[1].count, 8812345 + 130567);
	assert_string_equal(n->irqs[4].name, "eth0-TxRx-3");
	assert_true(n->irqs[4].has_affinity);
	fmt_eq(&n->irqs[4].aff.configured, "0-1");
	fmt_eq(dbt_nic_irq_cpus(&n->irqs[4]), "1");	/* effective wins */
	assert_int_equal(n->queues.n_rx, 4);
	assert_int_equal(n->queues.n_tx, 4);
	assert_true(dbt_cpuset_empty(&n->queues.q[0].cpus));	/* RPS off */
	fmt_eq(&n->queues.q[7].cpus, "3");			/* xps 8 */
	dbt_nic_layout_free(&l);
	assert_int_equal(l.n, 0);
}

/* Real: `grep eno49 /proc/interrupts` of a 32-CPU host whose ixgbe ports
 * are bond0's slaves; no header, no sysfs: IRQs come by name only. */
static void moooofly_bonded_ixgbe_by_name(void **state)
{
	struct dbt_interrupts it = { 0 };
	struct dbt_nic n;
	uint64_t total = 0;

	assert_int_equal(dbt_interrupts_read(FIXTURES "/moooofly-ixgbe-bond", &it), 0);
	assert_int_equal(dbt_nic_read(FIXTURES "/moooofly-ixgbe-bond", &it, "eno49", &n), 0);
	assert_false(n.irqs_from_msi);
	assert_int_equal(n.n_irqs, 33);
	assert_int_equal(n.queues_err, -ENOENT);
	for (size_t i = 0; i < n.n_irqs; i++) {
		assert_false(n.irqs[i].has_affinity);
		assert_null(dbt_nic_irq_cpus(&n.irqs[i]));
		if (i)
			assert_true(n.irqs[i].irq > n.irqs[i - 1].irq);
		total += n.irqs[i].count;
	}
	assert_true(total > 0);
	assert_string_equal(n.irqs[0].name, "eno49-TxRx-0");
	dbt_nic_free(&n);
	/* the bond itself has no IRQ of its own */
	assert_int_equal(dbt_nic_read(FIXTURES "/moooofly-ixgbe-bond", &it, "bond0", &n), 0);
	assert_int_equal(n.n_irqs, 0);
	dbt_nic_free(&n);
	dbt_interrupts_free(&it);
}

/* Real: bnx2x with eth0-fp-N pinned one per CPU and RPS on rx-0. */
static void vc2004_bnx2x_rps(void **state)
{
	struct dbt_interrupts it = { 0 };
	struct dbt_nic n;

	assert_int_equal(dbt_interrupts_read(FIXTURES "/vc2004-bnx2x", &it), 0);
	assert_int_equal(dbt_nic_read(FIXTURES "/vc2004-bnx2x", &it, "eth0", &n), 0);
	assert_int_equal(n.n_irqs, 9);
	assert_int_equal(n.irqs[0].irq, 148);
	assert_string_equal(n.irqs[1].name, "eth0-fp-0");
	assert_int_equal(n.queues_err, 0);
	assert_int_equal(n.queues.n_rx, 1);
	fmt_eq(&n.queues.q[0].cpus, "0-7");
	dbt_nic_free(&n);
	dbt_interrupts_free(&it);
}

/* Captured: virtio names its vectors virtio2-*, found through the PCI
 * parent's msi_irqs. */
static void build_host_virtio(void **state)
{
	struct dbt_nic_layout l;
	const struct dbt_nic *n;

	assert_int_equal(dbt_nic_layout_read(FIXTURES "/build-host-virtio", &l), 0);
	assert_int_equal(l.n, 1);
	n = &l.nics[0];
	assert_true(n->irqs_from_msi);
	assert_int_equal(n->n_irqs, 3);
	assert_string_equal(n->irqs[1].name, "virtio2-input.0");
	assert_true(n->irqs[1].has_affinity);
	assert_int_equal(n->queues.n_rx, 1);
	assert_false(n->queues.q[1].has_mask);	/* no xps_cpus on this kernel */
	dbt_nic_layout_free(&l);
}

static void put(const char *root, const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* A bond with two ports, lo, and sysfs entries that are not interfaces. */
static void bond_ports_and_skips(void **state)
{
	char root[] = "/tmp/dbt-nic-XXXXXX", path[512], cmd[600];
	struct dbt_nic_layout l;

	assert_non_null(mkdtemp(root));
	put(root, "proc/interrupts", "           CPU0       CPU1\n"
	    " 40:        100          5   PCI-MSI 524288-edge      eno1-TxRx-0\n"
	    " 41:          0          7   PCI-MSI 524289-edge      eno2-TxRx-0\n");
	put(root, "sys/class/net/bond0/queues/rx-0/rps_cpus", "2\n");
	put(root, "sys/class/net/bond0/ifindex", "5\n");
	put(root, "sys/class/net/eno1/queues/rx-0/rps_cpus", "0\n");
	put(root, "sys/class/net/eno2/queues/rx-0/rps_cpus", "0\n");
	put(root, "sys/class/net/lo/queues/rx-0/rps_cpus", "0\n");
	put(root, "sys/class/net/bonding_masters", "bond0\n");
	snprintf(path, sizeof(path), "%s/sys/class/net/eno1/master", root);
	assert_int_equal(symlink("../bond0", path), 0);
	snprintf(path, sizeof(path), "%s/sys/class/net/eno2/master", root);
	assert_int_equal(symlink("../bond0", path), 0);

	assert_int_equal(dbt_nic_layout_read(root, &l), 0);
	/* bonding_masters is listed too: no queues, no IRQs, harmless */
	assert_int_equal(l.n, 4);
	assert_string_equal(l.nics[0].dev, "bond0");
	assert_int_equal(l.nics[0].ifindex, 5);
	fmt_eq(&l.nics[0].queues.q[0].cpus, "1");
	assert_string_equal(l.nics[2].dev, "eno1");
	assert_string_equal(l.nics[2].master, "bond0");
	assert_false(l.nics[2].irqs_from_msi);
	assert_int_equal(l.nics[2].n_irqs, 1);
	assert_int_equal(l.nics[2].irqs[0].irq, 40);
	assert_int_equal(l.nics[2].irqs[0].count, 105);
	assert_string_equal(l.nics[3].master, "bond0");
	dbt_nic_layout_free(&l);

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

static void missing_class_dir(void **state)
{
	struct dbt_nic_layout l;

	assert_int_equal(dbt_nic_layout_read(FIXTURES "/irq-heatmap", &l), -ENOENT);
	assert_int_equal(l.n, 0);
	dbt_nic_layout_free(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(synthetic_hpet_layout),
		cmocka_unit_test(moooofly_bonded_ixgbe_by_name),
		cmocka_unit_test(vc2004_bnx2x_rps),
		cmocka_unit_test(build_host_virtio),
		cmocka_unit_test(bond_ports_and_skips),
		cmocka_unit_test(missing_class_dir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
