// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sysinfo/irq_affinity.h"

static void fmt_eq(const struct dbt_cpuset *s, const char *want)
{
	char buf[128];

	assert_true(dbt_cpuset_format_list(s, buf, sizeof(buf)) >= 0);
	assert_string_equal(buf, want);
}

/* The misbinding case: NIC queues configured on 0-5,12-17 but delivered
 * to CPU 0 or 1, the CPUs SPDK busy-polls. */
static void harvester_effective_on_spdk_cpus(void **state)
{
	static const unsigned int nic[] = { 108, 109, 120, 121 };
	static const unsigned int eff[] = { 0, 1, 0, 1 };
	struct dbt_irq_affinity a;
	struct dbt_cpuset spdk, both;

	dbt_cpuset_parse_list(&spdk, "0-1");
	for (size_t i = 0; i < 4; i++) {
		assert_int_equal(dbt_irq_affinity_read(FIXTURES
				"/harvester-spdk", nic[i], &a), 0);
		fmt_eq(&a.configured, "0-5,12-17");
		assert_int_equal(dbt_cpuset_count(&a.configured), 12);
		assert_false(a.configured_from_mask);
		assert_true(a.has_effective);
		assert_int_equal(dbt_cpuset_count(&a.effective), 1);
		assert_true(dbt_cpuset_test(&a.effective, eff[i]));
		dbt_cpuset_and(&both, &a.effective, &spdk);
		assert_true(dbt_cpuset_equal(&both, &a.effective));
	}
	assert_int_equal(dbt_irq_affinity_read(FIXTURES "/harvester-spdk", 93,
					       &a), 0);
	fmt_eq(&a.configured, "1");
	fmt_eq(&a.effective, "1");
	assert_int_equal(dbt_irq_affinity_read(FIXTURES "/harvester-spdk", 94,
					       &a), -ENOENT);
	assert_true(dbt_cpuset_empty(&a.configured));
}

static void synthetic_hpet_tree(void **state)
{
	struct dbt_irq_affinity a;
	struct dbt_net_queues qs;
	struct dbt_cpuset eff_union;
	unsigned int *irqs;
	size_t n;

	dbt_cpuset_zero(&eff_union);
	for (unsigned int irq = 24; irq <= 28; irq++) {
		assert_int_equal(dbt_irq_affinity_read(FIXTURES
				"/hpet-skewtick-netem", irq, &a), 0);
		fmt_eq(&a.configured, "0-1");
		dbt_cpuset_or(&eff_union, &eff_union, &a.effective);
	}
	fmt_eq(&eff_union, "0-1");

	assert_int_equal(dbt_net_queues_read(FIXTURES "/hpet-skewtick-netem",
					     "eth0", &qs), 0);
	assert_int_equal(qs.n, 8);
	assert_int_equal(qs.n_rx, 4);
	assert_int_equal(qs.n_tx, 4);
	for (unsigned int i = 0; i < 4; i++) {
		const struct dbt_net_queue *q = &qs.q[i];

		assert_int_equal(q->kind, DBT_QUEUE_RX);
		assert_int_equal(q->index, i);
		assert_true(q->has_mask);
		assert_true(dbt_cpuset_empty(&q->cpus)); /* RPS off */
		q = &qs.q[4 + i];
		assert_int_equal(q->kind, DBT_QUEUE_TX);
		assert_int_equal(q->index, i);
		assert_int_equal(dbt_cpuset_count(&q->cpus), 1);
		assert_true(dbt_cpuset_test(&q->cpus, i));
	}
	dbt_net_queues_free(&qs);

	assert_int_equal(dbt_net_msi_irqs(FIXTURES "/hpet-skewtick-netem",
					  "eth0", &irqs, &n), 0);
	assert_int_equal(n, 5);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(irqs[i], 24 + i);
	free(irqs);
}

static void clean_tree_spread(void **state)
{
	struct dbt_irq_affinity a;
	struct dbt_cpuset eff_union;

	dbt_cpuset_zero(&eff_union);
	for (unsigned int q = 0; q < 4; q++) {
		assert_int_equal(dbt_irq_affinity_read(FIXTURES "/clean",
						       25 + q, &a), 0);
		assert_int_equal(dbt_cpuset_count(&a.configured), 1);
		assert_true(dbt_cpuset_test(&a.configured, q));
		assert_true(dbt_cpuset_equal(&a.configured, &a.effective));
		dbt_cpuset_or(&eff_union, &eff_union, &a.effective);
	}
	fmt_eq(&eff_union, "0-3");
}

static void old_kernel_fallbacks(void **state)
{
	struct dbt_irq_affinity a;
	struct dbt_net_queues qs;
	const struct dbt_net_queue *q;
	unsigned int *irqs = (unsigned int *)1;
	size_t n = 99;

	assert_int_equal(dbt_irq_affinity_read(FIXTURES "/old-kernel-4cpu", 30,
					       &a), 0);
	fmt_eq(&a.configured, "0-3");
	assert_false(a.has_effective);
	assert_true(dbt_cpuset_empty(&a.effective));
	/* Only the hex smp_affinity ("a"): CPUs 1 and 3. */
	assert_int_equal(dbt_irq_affinity_read(FIXTURES "/old-kernel-4cpu", 31,
					       &a), 0);
	assert_true(a.configured_from_mask);
	fmt_eq(&a.configured, "1,3");

	assert_int_equal(dbt_net_queues_read(FIXTURES "/old-kernel-4cpu",
					     "eth0", &qs), 0);
	assert_int_equal(qs.n, 4);
	assert_int_equal(qs.n_rx, 3);
	/* Numeric order, not "rx-0, rx-10, rx-2". */
	assert_int_equal(qs.q[0].index, 0);
	assert_int_equal(qs.q[1].index, 2);
	assert_int_equal(qs.q[2].index, 10);
	fmt_eq(&qs.q[1].cpus, "0-3");
	fmt_eq(&qs.q[2].cpus, "0-1");
	q = dbt_net_queues_find(&qs, DBT_QUEUE_TX, 0);
	assert_non_null(q);
	assert_false(q->has_mask);
	assert_int_equal(q->mask_err, -ENOENT);
	assert_null(dbt_net_queues_find(&qs, DBT_QUEUE_RX, 1));
	dbt_net_queues_free(&qs);
	assert_int_equal(qs.n, 0);

	/* A PCI device with no MSI, and not virtio: no guessing upward. */
	assert_int_equal(dbt_net_msi_irqs(FIXTURES "/old-kernel-4cpu", "eth0",
					  &irqs, &n), -ENOENT);
	assert_null(irqs);
	assert_int_equal(n, 0);
}

/* Captured on the build host: virtio-net, whose IRQs are named
 * "virtio2-*" and hang off the PCI parent of the virtio device. */
static void build_host_virtio(void **state)
{
	struct dbt_irq_affinity a;
	struct dbt_net_queues qs;
	unsigned int *irqs;
	size_t n;

	assert_int_equal(dbt_net_msi_irqs(FIXTURES "/build-host-virtio", "eth0",
					  &irqs, &n), 0);
	assert_int_equal(n, 3);
	assert_int_equal(irqs[0], 37);
	assert_int_equal(irqs[1], 38);
	assert_int_equal(irqs[2], 39);
	free(irqs);
	assert_int_equal(dbt_irq_affinity_read(FIXTURES "/build-host-virtio",
					       38, &a), 0);
	fmt_eq(&a.configured, "0-1");
	fmt_eq(&a.effective, "1");
	assert_int_equal(dbt_net_queues_read(FIXTURES "/build-host-virtio",
					     "eth0", &qs), 0);
	assert_int_equal(qs.n, 2);
	assert_true(qs.q[0].has_mask);
	assert_true(dbt_cpuset_empty(&qs.q[0].cpus));
	assert_false(qs.q[1].has_mask); /* no xps_cpus on this kernel */
	dbt_net_queues_free(&qs);
}

static void vc2004_rps_16_words(void **state)
{
	struct dbt_net_queues qs;

	assert_int_equal(dbt_net_queues_read(FIXTURES "/vc2004-bnx2x", "eth1",
					     &qs), 0);
	assert_int_equal(qs.n, 1);
	assert_int_equal(qs.q[0].kind, DBT_QUEUE_RX);
	fmt_eq(&qs.q[0].cpus, "0-7");
	dbt_net_queues_free(&qs);
}

static void bad_names(void **state)
{
	static const char *const bad[] = {
		"", ".", "..", "../../etc", "a/b", "eth0:1", "eth 0",
		"0123456789abcdef",
	};
	struct dbt_net_queues qs;
	unsigned int *irqs;
	size_t n;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(dbt_net_queues_read(FIXTURES "/clean", bad[i],
						     &qs), -EINVAL);
		assert_int_equal(dbt_net_msi_irqs(FIXTURES "/clean", bad[i],
						  &irqs, &n), -EINVAL);
	}
	assert_int_equal(dbt_net_queues_read(FIXTURES "/clean", NULL, &qs),
			 -EINVAL);
	assert_int_equal(dbt_net_queues_read(FIXTURES "/clean", "eth9", &qs),
			 -ENOENT);
	dbt_net_queues_free(&qs);
	assert_int_equal(dbt_net_msi_irqs(FIXTURES "/clean", "bond0", &irqs,
					  &n), -ENOENT);
	assert_int_equal(dbt_net_queues_read(FIXTURES "/clean",
					     "0123456789abcde", &qs), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(harvester_effective_on_spdk_cpus),
		cmocka_unit_test(synthetic_hpet_tree),
		cmocka_unit_test(clean_tree_spread),
		cmocka_unit_test(old_kernel_fallbacks),
		cmocka_unit_test(build_host_virtio),
		cmocka_unit_test(vc2004_rps_16_words),
		cmocka_unit_test(bad_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
