/* SPDX-License-Identifier: GPL-2.0 */
/* CPU frequency scaling: the governor (and driver) of each CPU, grouped.
 * A database benchmark on "powersave" under acpi-cpufreq runs at the
 * lowest clock; virtual machines usually have no cpufreq at all. */
#ifndef DBTRACE_SYSINFO_CPUFREQ_H
#define DBTRACE_SYSINFO_CPUFREQ_H

#include <stdbool.h>
#include <stddef.h>

#include "sysinfo/cpuset.h"

/* The kernel's CPUFREQ_NAME_LEN is 16 including the NUL. */
#define DBT_CPUFREQ_NAME_MAX 16
/* Distinct (governor, driver) pairs kept; more land in n_other_cpus. */
#define DBT_CPUFREQ_GROUPS_MAX 8

struct dbt_cpufreq_group {
	char governor[DBT_CPUFREQ_NAME_MAX];
	char driver[DBT_CPUFREQ_NAME_MAX];	/* "" when unreadable */
	struct dbt_cpuset cpus;
};

struct dbt_cpufreq {
	unsigned int n_cpus;		/* cpuN directories seen */
	unsigned int n_with_governor;	/* of those, with a readable governor */
	size_t n_groups;
	struct dbt_cpufreq_group groups[DBT_CPUFREQ_GROUPS_MAX];
	unsigned int n_other_cpus;	/* CPUs past the group limit */
};

/*
 * Reads ROOT/sys/devices/system/cpu/cpuN/cpufreq/{scaling_governor,
 * scaling_driver} for every cpuN. No cpufreq (n_with_governor 0) is not an
 * error; -ENOENT only when the cpu directory itself is missing.
 */
int dbt_cpufreq_read(const char *root, struct dbt_cpufreq *out);

/* Adds one CPU's reading to the groups (pure; the reader uses it). */
void dbt_cpufreq_add(struct dbt_cpufreq *cf, unsigned int cpu,
		     const char *governor, const char *driver);

#endif /* DBTRACE_SYSINFO_CPUFREQ_H */
