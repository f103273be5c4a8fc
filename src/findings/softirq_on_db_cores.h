/* softirq_on_db_cores: network softirq (NET_RX + NET_TX) takes more than
 * a tenth of a CPU a database process may run on, while the CPUs outside
 * its set carry little of it: the NIC's work is steered onto the
 * database's cores (field case: OceanBase workers bound to cores 0-1 of
 * 16, 25-30% si there, 0% elsewhere). Pure. */
#ifndef DBTRACE_FINDINGS_SOFTIRQ_ON_DB_CORES_H
#define DBTRACE_FINDINGS_SOFTIRQ_ON_DB_CORES_H

#include "findings/finding.h"
#include "findings/irq_affinity_overlap.h"
#include "model/cpu_model.h"

struct sodc_config {
	double cpu_net_pct;            /* default 10: NET_RX+NET_TX % of one CPU */
	double outside_idle_pct;       /* default 50: the other CPUs are "mostly idle" */
};

void sodc_config_default(struct sodc_config *cfg);

/*
 * Judges one process over one interval of per-CPU rows (rows[i].cpu is
 * the CPU number; invalid rows are skipped, and host->online is further
 * limited to the valid rows). Fires when a CPU of the process has network
 * softirq above cfg->cpu_net_pct and the CPUs outside the process's set
 * carry, on average, less than half of the hottest one and less than the
 * threshold: there is somewhere less loaded to steer it to. Severity:
 * warning when the outside CPUs are mostly idle (mean idle >=
 * cfg->outside_idle_pct), critical when in addition the hottest CPU
 * loses a quarter or more to it, info when the outside CPUs are busy
 * themselves (moving the work would cost someone else). Merges into out,
 * tagged with interval_index. Returns 0 or -ENOMEM.
 */
int softirq_on_db_cores_check(const struct cpu_row *rows, int n_rows,
			      const struct misbind_target *t, const struct misbind_host *host,
			      const struct sodc_config *cfg, int interval_index,
			      struct finding_list *out);

#endif
