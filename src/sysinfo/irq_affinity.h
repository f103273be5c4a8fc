/* SPDX-License-Identifier: GPL-2.0 */
#ifndef DBTRACE_SYSINFO_IRQ_AFFINITY_H
#define DBTRACE_SYSINFO_IRQ_AFFINITY_H

#include <stdbool.h>
#include <stddef.h>

#include "sysinfo/cpuset.h"

struct dbt_irq_affinity {
	/* What was asked for: smp_affinity_list, or the hex smp_affinity on
	 * kernels too old to have the list. */
	struct dbt_cpuset configured;
	bool configured_from_mask;
	/*
	 * Where the interrupt is really delivered (4.15+ with
	 * GENERIC_IRQ_EFFECTIVE_AFF_MASK; x86 delivers to a single CPU of the
	 * configured set). Missing on older kernels: has_effective false.
	 */
	struct dbt_cpuset effective;
	bool has_effective;
};

/*
 * Reads ROOT/proc/irq/IRQ/{smp_affinity_list,effective_affinity_list}.
 * -ENOENT when the IRQ has no directory or no affinity file at all.
 */
int dbt_irq_affinity_read(const char *root, unsigned int irq,
			  struct dbt_irq_affinity *out);

enum dbt_queue_kind {
	DBT_QUEUE_RX,
	DBT_QUEUE_TX,
};

struct dbt_net_queue {
	enum dbt_queue_kind kind;
	unsigned int index;		/* N of rx-N / tx-N */
	/* rx: rps_cpus, tx: xps_cpus. An empty set means the feature is
	 * off for the queue (the kernel writes "0"). */
	struct dbt_cpuset cpus;
	bool has_mask;
	/* Why there is no mask: -ENOENT without CONFIG_RPS/CONFIG_XPS or on
	 * devices that hide xps_cpus, other -errno when unreadable. */
	int mask_err;
};

struct dbt_net_queues {
	size_t n;
	size_t n_rx, n_tx;
	struct dbt_net_queue *q;	/* rx then tx, each by index */
};

/*
 * Lists ROOT/sys/class/net/DEV/queues/{rx,tx}-N with their masks.
 * -EINVAL for a name that is not a plain interface name, -ENOENT when the
 * device or its queues directory is missing. Free with
 * dbt_net_queues_free() whatever the result.
 */
int dbt_net_queues_read(const char *root, const char *dev,
			struct dbt_net_queues *out);
void dbt_net_queues_free(struct dbt_net_queues *qs);
const struct dbt_net_queue *dbt_net_queues_find(const struct dbt_net_queues *qs,
						enum dbt_queue_kind kind,
						unsigned int index);

/*
 * The IRQ numbers of DEV's MSI/MSI-X vectors, ascending, from
 * ROOT/sys/class/net/DEV/device/msi_irqs/. For virtio-net the vectors
 * belong to the PCI parent of the virtio device, so that is read instead.
 * This is the reliable way to find a NIC's IRQs: virtio names them
 * "virtio2-input.0", i40e and mlx5 after the PCI address, none after DEV.
 * *irqs is malloc'd (NULL when *n is 0). -ENOENT when DEV has no MSI
 * vectors (legacy INTx, or a virtual device such as bond0).
 */
int dbt_net_msi_irqs(const char *root, const char *dev, unsigned int **irqs,
		     size_t *n);

#endif /* DBTRACE_SYSINFO_IRQ_AFFINITY_H */
