/* softirq_concentration: most of the host's NET_RX time lands on a few
 * CPUs (more than 70% on fewer than a quarter of them), so those CPUs
 * saturate while the rest have none: too few NIC queues, IRQs all on one
 * node, or RPS off (field data: NET_RX 81.9M on CPU0 against <0.2M on the
 * others). Host-wide; the target processes that may run on the hot CPUs
 * are named. Pure. */
#ifndef DBTRACE_FINDINGS_SOFTIRQ_CONCENTRATION_H
#define DBTRACE_FINDINGS_SOFTIRQ_CONCENTRATION_H

#include "findings/finding.h"
#include "findings/irq_affinity_overlap.h"
#include "model/cpu_model.h"

struct sconc_config {
	double share_pct;              /* default 70: of all NET_RX time */
	double cpu_fraction;           /* default 0.25: "fewer than a quarter" of the CPUs */
	double min_cpu_pct;            /* default 10: the busiest CPU's NET_RX, below
	                                * which concentration costs nothing */
};

void sconc_config_default(struct sconc_config *cfg);

/*
 * Sorts the valid rows' NET_RX shares, takes the fewest CPUs that hold
 * cfg->share_pct of the total, and fires when they are fewer than
 * cfg->cpu_fraction of the valid CPUs and the busiest spends more than
 * cfg->min_cpu_pct in NET_RX. targets (may be NULL, n_targets 0) are
 * named in the evidence when they may run on the hot CPUs. Merges into
 * out, tagged with interval_index. Returns 0 or -ENOMEM.
 */
int softirq_concentration_check(const struct cpu_row *rows, int n_rows,
				const struct misbind_target *targets, int n_targets,
				const struct misbind_host *host, const struct sconc_config *cfg,
				int interval_index, struct finding_list *out);

#endif
