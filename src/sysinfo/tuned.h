/* SPDX-License-Identifier: GPL-2.0 */
#ifndef DBTRACE_SYSINFO_TUNED_H
#define DBTRACE_SYSINFO_TUNED_H

#include <stdbool.h>
#include <stddef.h>

#define DBT_TUNED_PROFILE_MAX 256

struct dbt_tuned {
	/* active_profile exists: tuned is (or was) installed. */
	bool file_present;
	/*
	 * Its content, trimmed: "" when absent or empty ("tuned-adm off"),
	 * else one profile or several merged ones separated by spaces
	 * ("throughput-performance virtual-guest"). Truncated if longer.
	 */
	char profile[DBT_TUNED_PROFILE_MAX];
};

/*
 * Reads ROOT/etc/tuned/active_profile. A missing file is not an error
 * (returns 0, file_present false): most hosts have no tuned.
 */
int dbt_tuned_read(const char *root, struct dbt_tuned *t);
/* True when name is one of the space-separated active profiles. */
bool dbt_tuned_has(const struct dbt_tuned *t, const char *name);

#endif /* DBTRACE_SYSINFO_TUNED_H */
