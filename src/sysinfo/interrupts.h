/* SPDX-License-Identifier: GPL-2.0 */
#ifndef DBTRACE_SYSINFO_INTERRUPTS_H
#define DBTRACE_SYSINFO_INTERRUPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DBT_IRQ_NAME_MAX 16
#define DBT_IRQ_CHIP_MAX 64
#define DBT_IRQ_ACTIONS_MAX 128

struct dbt_irq_row {
	char name[DBT_IRQ_NAME_MAX];	/* the label before ':': "147", "NMI" */
	int irq;			/* numeric IRQ, -1 for NMI, LOC, ... */
	unsigned int n_counts;		/* count columns on this line */
	uint64_t *counts;		/* n_counts values, in column order */
	bool elided;			/* "..." stood for some columns */
	/*
	 * Device IRQs: chip, hwirq and flow as printed, blanks collapsed
	 * ("IR-PCI-MSI-edge", "IR-PCI-MSIX-0000:04:00.0 3-edge").
	 * Arch rows (NMI, LOC): their description ("Local timer interrupts").
	 */
	char chip[DBT_IRQ_CHIP_MAX];
	/* Device IRQs: handler names, ", "-separated ("eno49-TxRx-3",
	 * "PCIe PME, pciehp"); "" if none. Truncated if longer. */
	char actions[DBT_IRQ_ACTIONS_MAX];
};

struct dbt_interrupts {
	bool has_header;
	/*
	 * CPU columns: from the "CPU0 CPU1 ..." header, else the widest row
	 * (grepped dumps have no header). With elided rows and no header this
	 * is only a lower bound.
	 */
	unsigned int ncols;
	/* CPU number of each column: offline CPUs are missing from the
	 * header, so column i is not always CPU i. Without a header the
	 * identity is assumed. */
	unsigned int *col_cpu;
	bool elided;			/* any row had "..." */
	size_t n_rows;
	struct dbt_irq_row *rows;
	unsigned long n_skipped;	/* lines that are not rows or the header */
	unsigned long n_truncated;	/* overlong lines, skipped */
};

/*
 * Parses /proc/interrupts text, as the kernel prints it on any version
 * since 2.6 (old "IR-PCI-MSI-edge" and new "PCI-MSIX-0000:04:00.0 3-edge"
 * chip columns), with or without header, and with unrelated lines mixed
 * in (skipped). Fails only on allocation (-ENOMEM) or I/O.
 * Free with dbt_interrupts_free() whatever the result.
 */
int dbt_interrupts_parse(const char *buf, size_t len,
			 struct dbt_interrupts *out);
int dbt_interrupts_read_file(const char *path, struct dbt_interrupts *out);
/* ROOT/proc/interrupts. */
int dbt_interrupts_read(const char *root, struct dbt_interrupts *out);
void dbt_interrupts_free(struct dbt_interrupts *it);

const struct dbt_irq_row *dbt_interrupts_find(const struct dbt_interrupts *it,
					      const char *name);
const struct dbt_irq_row *
dbt_interrupts_find_irq(const struct dbt_interrupts *it, int irq);
/* Column of a CPU number, or -1 when it has none (offline, elided). */
int dbt_interrupts_col_of_cpu(const struct dbt_interrupts *it,
			      unsigned int cpu);

/* 0 for a column the row does not have. */
uint64_t dbt_irq_row_count(const struct dbt_irq_row *row, unsigned int col);
uint64_t dbt_irq_row_total(const struct dbt_irq_row *row);

/*
 * Whether one action name belongs to network device dev: equal to dev
 * (the link or misc IRQ, "eno49") or dev followed by '-' ("eno49-TxRx-3",
 * "eth0-fp-0"). Drivers that name vectors after the PCI address instead
 * (i40e, mlx5) do not match: use the device's msi_irqs for those.
 */
bool dbt_irq_action_is_nic_queue(const char *action, const char *dev);
/* The same over every action of a device IRQ row. */
bool dbt_irq_row_is_nic_queue(const struct dbt_irq_row *row, const char *dev);

#endif /* DBTRACE_SYSINFO_INTERRUPTS_H */
