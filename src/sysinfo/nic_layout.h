/* SPDX-License-Identifier: GPL-2.0 */
/* Where each network device's work lands: its queue IRQs with their
 * configured and effective affinity, and the RPS/XPS mask of each queue.
 * This is what people otherwise assemble by hand from /proc/interrupts,
 * /proc/irq/N/smp_affinity_list and rps_cpus when a database's cores
 * show softirq time. */
#ifndef DBTRACE_SYSINFO_NIC_LAYOUT_H
#define DBTRACE_SYSINFO_NIC_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sysinfo/interrupts.h"
#include "sysinfo/irq_affinity.h"

struct dbt_nic_irq {
	int irq;
	/* Handler names from /proc/interrupts ("eth0-TxRx-3",
	 * "virtio2-input.0"); "" when the IRQ is not listed there. */
	char name[DBT_IRQ_ACTIONS_MAX];
	uint64_t count;			/* since boot, all CPUs */
	bool has_affinity;		/* /proc/irq/N was readable */
	struct dbt_irq_affinity aff;
};

struct dbt_nic {
	char dev[16];
	int ifindex;			/* sys/class/net/DEV/ifindex, 0 unknown */
	/* bond/team/bridge this port belongs to (the "master" link), "" */
	char master[16];
	/* IRQs came from the device's msi_irqs; else they were matched by
	 * name in /proc/interrupts (legacy INTx, or a tree without sysfs) */
	bool irqs_from_msi;
	size_t n_irqs;
	struct dbt_nic_irq *irqs;	/* ascending IRQ number */
	/* rx-N (rps_cpus) and tx-N (xps_cpus); queues_err -ENOENT when the
	 * device has no queues directory in the tree */
	struct dbt_net_queues queues;
	int queues_err;
};

struct dbt_nic_layout {
	size_t n;
	struct dbt_nic *nics;		/* by name */
	int interrupts_err;		/* reading /proc/interrupts, 0 if fine */
};

/*
 * One device: IRQs through msi_irqs, else every /proc/interrupts row with
 * a handler named DEV or DEV-... (it may be NULL: then only msi_irqs).
 * The device need not exist in sysfs (a grepped /proc/interrupts is
 * enough). Free with dbt_nic_free() whatever the result.
 */
int dbt_nic_read(const char *root, const struct dbt_interrupts *it,
		 const char *dev, struct dbt_nic *out);
void dbt_nic_free(struct dbt_nic *nic);

/*
 * Every device of ROOT/sys/class/net except lo, with ROOT/proc/interrupts
 * read once. Virtual devices (veth, bond) have no IRQs but may have RPS
 * masks, so they are kept. -errno when the class directory cannot be
 * listed. Free with dbt_nic_layout_free() whatever the result.
 */
int dbt_nic_layout_read(const char *root, struct dbt_nic_layout *out);
void dbt_nic_layout_free(struct dbt_nic_layout *l);

/* Where an IRQ is delivered: its effective affinity when the kernel
 * reports one, else the configured set. NULL without affinity. */
const struct dbt_cpuset *dbt_nic_irq_cpus(const struct dbt_nic_irq *irq);

#endif /* DBTRACE_SYSINFO_NIC_LAYOUT_H */
