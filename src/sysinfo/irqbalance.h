/* SPDX-License-Identifier: GPL-2.0 */
/* Whether irqbalance runs, and which CPUs it was told to leave alone.
 * It rewrites /proc/irq/N/smp_affinity every 10 s, so any manual IRQ
 * placement that does not account for it is undone. */
#ifndef DBTRACE_SYSINFO_IRQBALANCE_H
#define DBTRACE_SYSINFO_IRQBALANCE_H

#include <stdbool.h>
#include <stddef.h>

#include "sysinfo/cpuset.h"

struct dbt_irqbalance {
	bool running;
	int pid;			/* the first one found, 0 when none */
	/*
	 * From its configuration file (ROOT/etc/sysconfig/irqbalance on
	 * RHEL, ROOT/etc/default/irqbalance on Debian):
	 * IRQBALANCE_BANNED_CPULIST (1.8+) or the older hex
	 * IRQBALANCE_BANNED_CPUS. Empty when neither is set.
	 */
	bool has_config;
	struct dbt_cpuset banned;
	char config_path[64];		/* root-relative, "" without config */
};

/*
 * Scans ROOT/proc/PID/comm for "irqbalance" and reads its configuration.
 * Returns -errno only when ROOT/proc cannot be listed.
 */
int dbt_irqbalance_read(const char *root, struct dbt_irqbalance *out);

/*
 * Parses the shell-style configuration text (KEY=VALUE lines, optional
 * quotes, '#' comments). Unparsable values leave banned empty. Pure.
 */
void dbt_irqbalance_parse_config(const char *buf, size_t len,
				 struct dbt_cpuset *banned);

#endif /* DBTRACE_SYSINFO_IRQBALANCE_H */
