/* The rules of `dbtrace check`: a static audit of the host's settings
 * that cost a database benchmark throughput or latency, judged from the
 * sysinfo readings alone (no eBPF, nothing measured over time). Pure: the
 * command reads, these functions judge, the report prints. */
#ifndef DBTRACE_FINDINGS_STATIC_CHECKS_H
#define DBTRACE_FINDINGS_STATIC_CHECKS_H

#include <stdbool.h>
#include "findings/finding.h"
#include "findings/irq_affinity_overlap.h"
#include "sysinfo/clock_env.h"
#include "sysinfo/cpufreq.h"
#include "sysinfo/irqbalance.h"
#include "sysinfo/nic_layout.h"
#include "sysinfo/qdisc.h"
#include "sysinfo/thp.h"

/* Everything `check` read. A reading that failed has its have_ flag false
 * (or its pointer NULL) and is not judged. */
struct static_input {
	struct clock_env clock;        /* clocksource, kernel log, cmdline, tuned */
	bool have_online;
	struct dbt_cpuset online;
	const struct dbt_nic_layout *nics;
	const long *link_mbps;         /* parallel to nics->nics; -1 unknown */
	const struct qdisc_table *qdiscs;  /* NULL: not read */
	bool have_irqbalance;
	struct dbt_irqbalance irqbalance;
	bool have_cpufreq;
	struct dbt_cpufreq cpufreq;
	bool have_thp;
	struct dbt_thp thp;
	const struct misbind_target *targets;  /* -p PIDs or the busiest processes */
	int n_targets;
};

/*
 * Runs every rule and adds its findings to out (interval -1), in a fixed
 * order: clock, kernel command line, CPU frequency, THP, qdiscs, links,
 * IRQ layout against the targets. Finding ids: clocksource_no_vdso,
 * skew_tick, nohz_full, isolcpus, idle_poll, mitigations_off,
 * cpufreq_governor, thp_enabled, thp_defrag, qdisc_netem, qdisc_shaper,
 * link_speed, irq_affinity_overlap. Returns 0 or -ENOMEM.
 */
int static_checks_run(const struct static_input *in, struct finding_list *out);

/* The worst severity in l: the exit status of `check` follows it.
 * -1 when l is empty. */
int static_checks_worst(const struct finding_list *l);

#endif
