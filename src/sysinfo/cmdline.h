/* SPDX-License-Identifier: GPL-2.0 */
#ifndef DBTRACE_SYSINFO_CMDLINE_H
#define DBTRACE_SYSINFO_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>

#include "sysinfo/cpuset.h"

#define DBT_CMDLINE_VALUE_MAX 64

/* A kernel parameter whose value is a cpulist (nohz_full, rcu_nocbs, ...). */
struct dbt_cmdline_cpus {
	bool present;
	bool has_value;		/* "rcu_nocbs" alone is valid and has none */
	int parse_err;		/* 0, or why the cpulist did not parse
				 * ("all", "N" need nr_cpus we do not know) */
	struct dbt_cpuset cpus;
	char raw[DBT_CMDLINE_VALUE_MAX]; /* as written, truncated */
};

/* A parameter kept as text (idle=poll, mitigations=auto,nosmt). */
struct dbt_cmdline_str {
	bool present;
	char value[DBT_CMDLINE_VALUE_MAX]; /* "" for a bare "nohz" */
};

/* isolcpus= flags, as housekeeping_isolcpus_setup() knows them. */
#define DBT_ISOL_DOMAIN		(1u << 0)
#define DBT_ISOL_NOHZ		(1u << 1)
#define DBT_ISOL_MANAGED_IRQ	(1u << 2)
#define DBT_ISOL_UNKNOWN	(1u << 3) /* a flag this parser does not know */

/* tsc= values; several tsc= options accumulate, as in tsc_setup(). */
#define DBT_TSC_RELIABLE	(1u << 0)
#define DBT_TSC_UNSTABLE	(1u << 1)
#define DBT_TSC_NOWATCHDOG	(1u << 2)
#define DBT_TSC_NOIRQTIME	(1u << 3)
#define DBT_TSC_RECALIBRATE	(1u << 4)
#define DBT_TSC_WATCHDOG	(1u << 5)
#define DBT_TSC_OTHER		(1u << 6)

struct dbt_cmdline {
	/* skew_tick=N; skew_tick_present false means the default (0). */
	bool skew_tick_present;
	long skew_tick;
	struct dbt_cmdline_str nohz;	   /* "on"/"off" */
	struct dbt_cmdline_cpus nohz_full;
	struct dbt_cmdline_cpus isolcpus;
	unsigned int isolcpus_flags;	   /* DBT_ISOL_*; DOMAIN when none */
	struct dbt_cmdline_cpus rcu_nocbs;
	struct dbt_cmdline_str idle;	   /* poll, halt, nomwait */
	struct dbt_cmdline_str mitigations; /* off, auto, auto,nosmt */
	struct dbt_cmdline_str tsc;	   /* last tsc= value */
	unsigned int tsc_flags;		   /* DBT_TSC_*, all tsc= values */
	struct dbt_cmdline_str clocksource; /* clocksource= override */
	unsigned int n_params;		   /* tokens seen before "--" */
};

/*
 * Parses a kernel command line as the kernel splits it: whitespace
 * separated, double quotes group, "--" ends the kernel's part, '-' and '_'
 * are the same in parameter names, the last occurrence wins (except tsc=,
 * whose flags accumulate). Never fails on content; unknown parameters are
 * ignored.
 */
void dbt_cmdline_parse(const char *buf, size_t len, struct dbt_cmdline *out);
/* ROOT/proc/cmdline; -errno when it cannot be read. */
int dbt_cmdline_read(const char *root, struct dbt_cmdline *out);

#endif /* DBTRACE_SYSINFO_CMDLINE_H */
