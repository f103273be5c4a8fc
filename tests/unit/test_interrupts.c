// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysinfo/interrupts.h"
#include "fixture_util.h"

static void parse_str(const char *s, struct dbt_interrupts *it)
{
	assert_int_equal(dbt_interrupts_parse(s, strlen(s), it), 0);
}

static uint64_t col_sum(const struct dbt_interrupts *it, unsigned int col)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < it->n_rows; i++)
		sum += dbt_irq_row_count(&it->rows[i], col);
	return sum;
}

/* `grep eno49` of a 32-CPU ixgbe host: no header, 33 rows. */
static void moooofly_ixgbe_headerless(void **state)
{
	struct dbt_interrupts it;
	const struct dbt_irq_row *r;

	assert_int_equal(dbt_interrupts_read(FIXTURES "/moooofly-ixgbe-bond",
					     &it), 0);
	assert_false(it.has_header);
	assert_int_equal(it.ncols, 32);
	assert_int_equal(it.col_cpu[31], 31);
	assert_int_equal(it.n_rows, 33);
	assert_int_equal(it.n_skipped, 0);
	assert_false(it.elided);

	r = &it.rows[0];
	assert_string_equal(r->name, "147");
	assert_int_equal(r->irq, 147);
	assert_int_equal(r->n_counts, 32);
	assert_int_equal(r->counts[0], 15);
	assert_int_equal(r->counts[1], 44958);
	assert_int_equal(r->counts[16], 151680);
	assert_int_equal(r->counts[23], 5784399);
	for (unsigned int c = 8; c < 16; c++)
		assert_int_equal(r->counts[c], 0);
	assert_string_equal(r->chip, "IR-PCI-MSI-edge");
	assert_string_equal(r->actions, "eno49-TxRx-0");

	r = dbt_interrupts_find(&it, "178");
	assert_non_null(r);
	assert_string_equal(r->actions, "eno49-TxRx-31");
	assert_int_equal(r->counts[2], 2);
	r = dbt_interrupts_find_irq(&it, 179);
	assert_non_null(r);
	assert_string_equal(r->actions, "eno49");
	assert_int_equal(dbt_irq_row_total(r), 10);
	assert_int_equal(r->counts[23], 8);

	/* Queues land on CPUs 0-7 and 16-23 only: 8-15 see 142 interrupts
	 * in all, 24-31 none. */
	uint64_t low = 0, high = 0, total = 0;

	for (unsigned int c = 0; c < 32; c++) {
		uint64_t s = col_sum(&it, c);

		total += s;
		if (c >= 8 && c < 16)
			low += s;
		if (c >= 24)
			high += s;
	}
	assert_int_equal(total, 193829812);
	assert_int_equal(low, 142);
	assert_int_equal(high, 0);
	assert_int_equal(col_sum(&it, 7), 16671597);
	assert_int_equal(col_sum(&it, 13), 30);

	for (size_t i = 0; i < it.n_rows; i++) {
		assert_true(dbt_irq_row_is_nic_queue(&it.rows[i], "eno49"));
		assert_false(dbt_irq_row_is_nic_queue(&it.rows[i], "eno4"));
		assert_false(dbt_irq_row_is_nic_queue(&it.rows[i], "eno50"));
	}
	assert_null(dbt_interrupts_find(&it, "NMI"));
	assert_null(dbt_interrupts_find_irq(&it, 146));
	assert_int_equal(dbt_irq_row_count(&it.rows[0], 32), 0);
	dbt_interrupts_free(&it);
	assert_int_equal(it.n_rows, 0);
}

/* `egrep "CPU0|eth0"` of a 32-CPU bnx2x host: header, 9 rows, each
 * fast-path queue pinned to its own CPU. */
static void vc2004_bnx2x_header(void **state)
{
	struct dbt_interrupts it;
	const struct dbt_irq_row *r;
	static const uint64_t peak[8] = {
		1152920, 61465, 32140, 113157, 89395, 75379, 123974, 277624,
	};

	assert_int_equal(dbt_interrupts_read_file(
			FIXTURES "/vc2004-bnx2x/proc/interrupts", &it), 0);
	assert_true(it.has_header);
	assert_int_equal(it.ncols, 32);
	assert_int_equal(it.col_cpu[0], 0);
	assert_int_equal(it.col_cpu[31], 31);
	assert_int_equal(it.n_rows, 9);
	r = dbt_interrupts_find_irq(&it, 148);
	assert_non_null(r);
	assert_string_equal(r->actions, "eth0");
	assert_string_equal(r->chip, "IR-PCI-MSI-edge");
	assert_int_equal(r->counts[0], 347358);
	assert_int_equal(dbt_irq_row_total(r), 347358);
	for (int q = 0; q < 8; q++) {
		char name[32];

		r = dbt_interrupts_find_irq(&it, 150 + q);
		assert_non_null(r);
		snprintf(name, sizeof(name), "eth0-fp-%d", q);
		assert_string_equal(r->actions, name);
		assert_int_equal(r->counts[q + 1], peak[q]);
		/* The rest is a few stray interrupts on CPU0. */
		assert_true(dbt_irq_row_total(r) - peak[q] <= 37);
		assert_true(dbt_irq_row_is_nic_queue(r, "eth0"));
		assert_false(dbt_irq_row_is_nic_queue(r, "eth1"));
	}
	assert_int_equal(col_sum(&it, 9), 0);
	dbt_interrupts_free(&it);
}

/* Two header-less comment lines with 20 columns, one of them NMI. */
static void irq_heatmap_nmi(void **state)
{
	struct dbt_interrupts it;
	const struct dbt_irq_row *r;

	assert_int_equal(dbt_interrupts_read(FIXTURES "/irq-heatmap", &it), 0);
	assert_false(it.has_header);
	assert_int_equal(it.ncols, 20);
	assert_int_equal(it.n_rows, 2);
	r = dbt_interrupts_find_irq(&it, 77);
	assert_non_null(r);
	assert_int_equal(r->counts[0], 81913889);
	assert_int_equal(dbt_irq_row_total(r), 81913889);
	assert_string_equal(r->chip, "PCI-MSI-edge");
	assert_string_equal(r->actions, "eth0");
	r = dbt_interrupts_find(&it, "NMI");
	assert_non_null(r);
	assert_int_equal(r->irq, -1);
	assert_int_equal(r->n_counts, 20);
	assert_int_equal(r->counts[0], 137218);
	assert_int_equal(r->counts[19], 69879);
	assert_string_equal(r->chip, "Non-maskable interrupts");
	assert_string_equal(r->actions, "");
	assert_false(dbt_irq_row_is_nic_queue(r, "eth0"));
	dbt_interrupts_free(&it);
}

/* The harvester loop output, verbatim: "IRQ=..." lines mixed in and the
 * CPU columns after CPU1 elided with "...". */
static void harvester_elided_mixed(void **state)
{
	struct dbt_interrupts it;
	const struct dbt_irq_row *r;

	assert_int_equal(dbt_interrupts_read_file(
			FIXTURES "/harvester-spdk/irq_loop_output", &it), 0);
	assert_false(it.has_header);
	assert_int_equal(it.n_rows, 6);
	assert_int_equal(it.n_skipped, 6);
	assert_true(it.elided);
	assert_int_equal(it.ncols, 2); /* a lower bound: the host has 24 */
	r = dbt_interrupts_find_irq(&it, 108);
	assert_non_null(r);
	assert_true(r->elided);
	assert_int_equal(r->n_counts, 2);
	assert_int_equal(r->counts[0], 25762242);
	assert_int_equal(r->counts[1], 0);
	assert_string_equal(r->chip, "IR-PCI-MSIX-0000:04:00.0 3-edge");
	assert_string_equal(r->actions, "netboot-TxRx-3");
	r = dbt_interrupts_find_irq(&it, 121);
	assert_int_equal(r->counts[1], 8135324);
	assert_string_equal(r->chip, "IR-PCI-MSIX-0000:04:00.0 16-edge");
	assert_true(dbt_irq_row_is_nic_queue(r, "netboot"));
	r = dbt_interrupts_find_irq(&it, 93);
	assert_string_equal(r->actions, "nvme0q14");
	assert_int_equal(r->counts[1], 448454);
	assert_false(dbt_irq_row_is_nic_queue(r, "netboot"));
	dbt_interrupts_free(&it);

	/* The derived tree holds only the /proc/interrupts lines. */
	assert_int_equal(dbt_interrupts_read(FIXTURES "/harvester-spdk", &it),
			 0);
	assert_int_equal(it.n_rows, 6);
	assert_int_equal(it.n_skipped, 0);
	dbt_interrupts_free(&it);
}

static void synthetic_trees(void **state)
{
	struct dbt_interrupts it;
	const struct dbt_irq_row *r;

	assert_int_equal(dbt_interrupts_read(FIXTURES "/hpet-skewtick-netem",
					     &it), 0);
	assert_true(it.has_header);
	assert_int_equal(it.ncols, 4);
	assert_int_equal(it.n_rows, 18);
	r = dbt_interrupts_find_irq(&it, 25);
	assert_string_equal(r->chip, "PCI-MSIX-0000:00:03.0 1-edge");
	assert_string_equal(r->actions, "eth0-TxRx-0");
	assert_int_equal(r->counts[0], 8812345);
	r = dbt_interrupts_find_irq(&it, 9);
	assert_string_equal(r->chip, "IO-APIC 9-fasteoi");
	assert_string_equal(r->actions, "acpi");
	r = dbt_interrupts_find(&it, "ERR");
	assert_non_null(r);
	assert_int_equal(r->n_counts, 1);
	assert_string_equal(r->chip, "");
	r = dbt_interrupts_find(&it, "LOC");
	assert_string_equal(r->chip, "Local timer interrupts");
	/* eth0's queues never interrupt CPUs 2-3 in this tree. */
	uint64_t q23 = 0;

	for (size_t i = 0; i < it.n_rows; i++)
		if (dbt_irq_row_is_nic_queue(&it.rows[i], "eth0"))
			q23 += it.rows[i].counts[2] + it.rows[i].counts[3];
	assert_int_equal(q23, 0);
	dbt_interrupts_free(&it);

	/* 3.10 layout, CPU2 offline: columns are CPUs 0, 1, 3. */
	assert_int_equal(dbt_interrupts_read(FIXTURES "/old-kernel-4cpu", &it),
			 0);
	assert_int_equal(it.ncols, 3);
	assert_int_equal(it.col_cpu[2], 3);
	assert_int_equal(dbt_interrupts_col_of_cpu(&it, 3), 2);
	assert_int_equal(dbt_interrupts_col_of_cpu(&it, 2), -1);
	assert_int_equal(it.n_rows, 16);
	r = dbt_interrupts_find_irq(&it, 16);
	assert_string_equal(r->chip, "IO-APIC-fasteoi");
	assert_string_equal(r->actions, "ehci_hcd:usb1, uhci_hcd:usb2");
	assert_int_equal(r->counts[2], 12);
	r = dbt_interrupts_find_irq(&it, 24);
	assert_string_equal(r->actions, "PCIe PME, pciehp");
	r = dbt_interrupts_find_irq(&it, 33);
	assert_string_equal(r->actions, "eth00-TxRx-0");
	assert_false(dbt_irq_row_is_nic_queue(r, "eth0"));
	r = dbt_interrupts_find_irq(&it, 34);
	assert_string_equal(r->chip, "IR-PCI-MSI-edge");
	assert_string_equal(r->actions, "");
	dbt_interrupts_free(&it);
}

/* Captured on the build host (virtio-net): queue IRQs are named after
 * the virtio device, so the name rule cannot find eth0's. */
static void build_host_virtio(void **state)
{
	struct dbt_interrupts it;
	const struct dbt_irq_row *r;

	assert_int_equal(dbt_interrupts_read(FIXTURES "/build-host-virtio",
					     &it), 0);
	assert_true(it.has_header);
	assert_int_equal(it.ncols, 2);
	assert_int_equal(it.n_rows, 35);
	assert_int_equal(it.n_skipped, 0);
	r = dbt_interrupts_find_irq(&it, 38);
	assert_string_equal(r->chip, "PCI-MSIX-0000:00:03.0 1-edge");
	assert_string_equal(r->actions, "virtio2-input.0");
	assert_int_equal(r->counts[1], 2587);
	assert_false(dbt_irq_row_is_nic_queue(r, "eth0"));
	assert_true(dbt_irq_row_is_nic_queue(r, "virtio2"));
	r = dbt_interrupts_find_irq(&it, 24);
	assert_string_equal(r->actions, "ACPI:Ged");
	r = dbt_interrupts_find(&it, "PIW");
	assert_string_equal(r->chip, "Posted-interrupt wakeup event");
	assert_int_equal(dbt_irq_row_total(dbt_interrupts_find(&it, "HYP")),
			 117);
	dbt_interrupts_free(&it);
}

static void other_layouts(void **state)
{
	struct dbt_interrupts it;
	const struct dbt_irq_row *r;

	/* arm64 GIC with GENERIC_IRQ_SHOW_LEVEL, and IPI rows. */
	parse_str("           CPU0       CPU1\n"
		  " 11:      12345      23456     GICv3  27 Level     arch_timer\n"
		  "IPI0:       100        200       Rescheduling interrupts\n",
		  &it);
	r = dbt_interrupts_find_irq(&it, 11);
	assert_string_equal(r->chip, "GICv3 27 Level");
	assert_string_equal(r->actions, "arch_timer");
	r = dbt_interrupts_find(&it, "IPI0");
	assert_int_equal(r->irq, -1);
	assert_int_equal(r->counts[1], 200);
	dbt_interrupts_free(&it);

	/* Xen event channels have no hwirq; no flow name at all; shared. */
	parse_str(" 75:  1 2  xen-percpu    -virq      timer0\n"
		  " 80:  3 4  xen-dyn     -event     xenbus\n"
		  "  5:  0 0  None  foo\n"
		  "  6:  0 0  orphan\n"
		  " 24:  9 9  PCI-MSI 49152-edge  eth0, eth0-TxRx-0\n", &it);
	assert_int_equal(it.n_rows, 5);
	assert_string_equal(dbt_interrupts_find_irq(&it, 75)->chip,
			    "xen-percpu -virq");
	assert_string_equal(dbt_interrupts_find_irq(&it, 75)->actions,
			    "timer0");
	assert_string_equal(dbt_interrupts_find_irq(&it, 80)->chip,
			    "xen-dyn -event");
	assert_string_equal(dbt_interrupts_find_irq(&it, 5)->chip, "None");
	assert_string_equal(dbt_interrupts_find_irq(&it, 5)->actions, "foo");
	assert_string_equal(dbt_interrupts_find_irq(&it, 6)->chip, "orphan");
	assert_string_equal(dbt_interrupts_find_irq(&it, 6)->actions, "");
	assert_true(dbt_irq_row_is_nic_queue(dbt_interrupts_find_irq(&it, 24),
					     "eth0"));
	dbt_interrupts_free(&it);
}

static void nic_queue_names(void **state)
{
	assert_true(dbt_irq_action_is_nic_queue("eno49-TxRx-3", "eno49"));
	assert_true(dbt_irq_action_is_nic_queue("eth0-fp-0", "eth0"));
	assert_true(dbt_irq_action_is_nic_queue("eth0", "eth0"));
	assert_false(dbt_irq_action_is_nic_queue("eth01-TxRx-0", "eth0"));
	assert_false(dbt_irq_action_is_nic_queue("eth", "eth0"));
	assert_false(dbt_irq_action_is_nic_queue("i40e-eth0-TxRx-0", "eth0"));
	assert_false(dbt_irq_action_is_nic_queue("eth0", ""));
	assert_false(dbt_irq_action_is_nic_queue(NULL, "eth0"));
	assert_false(dbt_irq_action_is_nic_queue("eth0", NULL));
}

static void garbage_and_truncation(void **state)
{
	struct dbt_interrupts it;
	const struct dbt_irq_row *r;
	static const char g[] =
		"::::\n:\n  \n\x01\x02\xff\n"
		"abcdefghijklmnopqrstuvwxyz: 1 2\n"	/* label too long */
		"NMI: 99999999999999999999999 x\n"	/* count overflows */
		"  25:    8812345     1305"		/* cut mid-row */
		"\n CPU0 CPU1\n"			/* header after rows */
		" 26: 1 2 3 \xe2\x80\xa6 4 PCI-MSI-edge e\0th1\n"
		" 27:";

	assert_int_equal(dbt_interrupts_parse(g, sizeof(g) - 1, &it), 0);
	assert_false(it.has_header);
	assert_int_equal(it.n_rows, 4);
	assert_int_equal(it.n_skipped, 5);
	r = dbt_interrupts_find(&it, "NMI");
	assert_int_equal(r->n_counts, 0);
	assert_string_equal(r->chip, "99999999999999999999999 x");
	r = dbt_interrupts_find_irq(&it, 25);
	assert_int_equal(r->n_counts, 2);
	assert_int_equal(r->counts[1], 1305);
	assert_string_equal(r->chip, "");
	r = dbt_interrupts_find_irq(&it, 26);
	assert_true(r->elided);
	assert_int_equal(r->n_counts, 3);
	assert_string_equal(r->chip, "PCI-MSI-edge");
	assert_string_equal(r->actions, "e th1");
	r = dbt_interrupts_find_irq(&it, 27);
	assert_int_equal(r->n_counts, 0);
	assert_int_equal(it.ncols, 2); /* widest non-elided row */
	dbt_interrupts_free(&it);

	/* An overlong line is skipped, its neighbours are not. */
	size_t n = 300 * 1024;
	char *big = malloc(n);

	assert_non_null(big);
	memset(big, '7', n);
	memcpy(big, " 1: 5 PCI-MSI-edge a\n 2:", 24);
	big[n - 40] = '\n';
	memcpy(big + n - 39, " 3: 1 2 3 4 PCI-MSI-edge eth0-TxRx-0\n", 38);
	assert_int_equal(dbt_interrupts_parse(big, n - 1, &it), 0);
	assert_int_equal(it.n_truncated, 1);
	assert_int_equal(it.n_rows, 2);
	assert_int_equal(it.ncols, 4);
	assert_string_equal(dbt_interrupts_find_irq(&it, 3)->actions,
			    "eth0-TxRx-0");
	dbt_interrupts_free(&it);
	free(big);

	parse_str("", &it);
	assert_int_equal(it.n_rows, 0);
	assert_int_equal(it.ncols, 0);
	assert_null(it.col_cpu);
	dbt_interrupts_free(&it);
	assert_int_equal(dbt_interrupts_read(FIXTURES "/nonexistent", &it),
			 -ENOENT);
	dbt_interrupts_free(&it);
}

/* Token soup (fixed seed): no crash, no overrun (valgrind), sane rows. */
static void random_soup(void **state)
{
	static const char *const parts[] = {
		" ", "   ", "\n", ":", "0", "12", "4294967295", "CPU", "CPU1",
		"...", "\xe2\x80\xa6", "NMI", "-edge", "IR-PCI-MSI", "3-edge",
		"eth0-TxRx-1", ",", "Level", "-virq", "\t", "99999999999999999999",
	};
	static char buf[8192];
	unsigned int seed = 42;
	struct dbt_interrupts it;

	for (int iter = 0; iter < 3000; iter++) {
		size_t len = 0;
		int n = rand_r(&seed) % 400;

		for (int i = 0; i < n; i++) {
			const char *p = parts[(size_t)rand_r(&seed) %
					      (sizeof(parts) / sizeof(parts[0]))];
			size_t l = strlen(p);

			if (len + l > sizeof(buf))
				break;
			memcpy(buf + len, p, l);
			len += l;
		}
		assert_int_equal(dbt_interrupts_parse(buf, len, &it), 0);
		for (size_t i = 0; i < it.n_rows; i++) {
			assert_true(strlen(it.rows[i].chip) <
				    DBT_IRQ_CHIP_MAX);
			assert_true(it.rows[i].n_counts <= 8192);
		}
		dbt_interrupts_free(&it);
	}
}

/* The live system, when it has /proc (not asserted beyond sanity). */
static void live_smoke(void **state)
{
	struct dbt_interrupts it;

	if (dbt_interrupts_read("", &it) == 0) {
		assert_true(it.has_header);
		assert_true(it.ncols >= 1);
		assert_true(it.n_rows >= 1);
	}
	dbt_interrupts_free(&it);
}

static void verbatim_copies(void **state)
{
	static const char *const copies[] = {
		"moooofly-ixgbe-bond/proc/interrupts",
		"vc2004-bnx2x/proc/interrupts",
		"irq-heatmap/proc/interrupts",
		"harvester-spdk/irq_loop_output",
	};

	assert_verbatim_copies(copies);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(moooofly_ixgbe_headerless),
		cmocka_unit_test(vc2004_bnx2x_header),
		cmocka_unit_test(irq_heatmap_nmi),
		cmocka_unit_test(harvester_elided_mixed),
		cmocka_unit_test(synthetic_trees),
		cmocka_unit_test(build_host_virtio),
		cmocka_unit_test(other_layouts),
		cmocka_unit_test(nic_queue_names),
		cmocka_unit_test(garbage_and_truncation),
		cmocka_unit_test(random_soup),
		cmocka_unit_test(live_smoke),
		cmocka_unit_test(verbatim_copies),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
