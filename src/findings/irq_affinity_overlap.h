/* irq_affinity_overlap: a NIC's queue IRQs are delivered to (or its RPS
 * masks steer packets to) CPUs a database process is bound to, so the
 * network's interrupt and softirq work will run on the database's cores
 * (field case: OceanBase workers on cores 0-1, the NIC's IRQs on the same
 * two cores, 25-30% si there and 0% elsewhere). Weighed by what those NICs
 * carry: a warning once they have carried traffic, info while they have
 * been idle all run (a management NIC, a spare port); `check`, which
 * measures nothing, warns and says traffic was not measured.
 *
 * Also the helpers the other misbinding rules (softirq_on_db_cores,
 * softirq_concentration) share: which IRQs and queues land on a CPU set,
 * and the dry-run commands that would move them. Pure. */
#ifndef DBTRACE_FINDINGS_IRQ_AFFINITY_OVERLAP_H
#define DBTRACE_FINDINGS_IRQ_AFFINITY_OVERLAP_H

#include <stdbool.h>
#include <stddef.h>
#include "findings/finding.h"
#include "findings/nic_traffic.h"
#include "sysinfo/cpuset.h"
#include "sysinfo/nic_layout.h"

/* A process the misbinding rules judge. */
struct misbind_target {
	int pid;
	char comm[16];
	struct dbt_cpuset cpus;        /* where it may run: union over its threads */
	unsigned int n_threads;        /* threads read; 0: unknown */
	unsigned int n_differ;         /* threads bound differently from the main one */
	double oncpu_pct;              /* this interval, 100 = one core; NAN: unknown */
};

/* What the host looks like besides the process. */
struct misbind_host {
	struct dbt_cpuset online;      /* CPUs that count (online, measured) */
	const struct dbt_nic_layout *nics;   /* may be NULL: no layout */
	bool irqbalance_running;       /* it would undo manual IRQ affinity */
	int irqbalance_pid;
	/* packets/s per NIC over the run; NULL: a static check (`check`),
	 * not measured: the net family is off */
	const struct nic_traffic_table *traffic;
};

/* Below this many packets/s (rx + tx, the busiest interval) the NICs a
 * process's CPUs share have carried no traffic to speak of: ARP, NTP and
 * monitoring make a few per second on an otherwise idle port, a database
 * under load thousands. */
#define IRQ_OVERLAP_IDLE_PPS 10.0

/* "0-3,8", or a prefix ending in "..." when it does not fit in len. */
void misbind_cpulist(const struct dbt_cpuset *set, char *buf, size_t len);

/* "IRQ numbers and names delivered to set", e.g.
 * "25 eth0-TxRx-0 (cpu 0), 26 eth0-TxRx-1 (cpu 1)"; IRQs that never fired
 * are left out. Returns how many IRQs matched. buf always terminated. */
int misbind_irqs_on(const struct dbt_nic_layout *nics, const struct dbt_cpuset *set,
		    char *buf, size_t len);
/* The same for rx queues whose rps_cpus intersect set: "eth0 rx-0 (cpus 1)". */
int misbind_rps_on(const struct dbt_nic_layout *nics, const struct dbt_cpuset *set,
		   char *buf, size_t len);

/*
 * Appends to buf the dry-run commands that move the IRQs and RPS masks
 * found on `from` to `to`, e.g.
 * "for i in 25 26; do echo 2-3 > /proc/irq/$i/smp_affinity_list; done" and
 * "echo c > /sys/class/net/eth0/queues/rx-0/rps_cpus", joined by "; ".
 * dbtrace never runs them. Returns how many commands were written.
 */
int misbind_fix_commands(const struct misbind_host *host, const struct dbt_cpuset *from,
			 const struct dbt_cpuset *to, char *buf, size_t len);

/* Hex mask as the kernel prints it in rps_cpus ("ff,ffffffff"; "0" when
 * empty). Returns the length or -ENOSPC. */
int misbind_format_mask(const struct dbt_cpuset *set, char *buf, size_t len);

/*
 * Judges one process: when it is bound to part of the online CPUs and a
 * NIC IRQ that fired is delivered there (effective affinity, else the
 * configured one) or an rx queue's RPS mask includes one of its CPUs.
 * Severity: warning, or info when every such NIC was measured and their
 * busiest interval stayed under IRQ_OVERLAP_IDLE_PPS. Evidence says the
 * packets/s of those NICs (per device), or that traffic was not measured.
 * Merges into out, tagged with interval_index (-1: a static check).
 * Returns 0 or -ENOMEM.
 */
int irq_affinity_overlap_check(const struct misbind_target *t, const struct misbind_host *host,
			       int interval_index, struct finding_list *out);

#endif
