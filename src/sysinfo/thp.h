/* SPDX-License-Identifier: GPL-2.0 */
/* Transparent huge pages: the mode the kernel runs them in. Databases
 * care because "always" lets khugepaged and page faults compact memory
 * behind the buffer pool's back (latency spikes, RSS bloat). */
#ifndef DBTRACE_SYSINFO_THP_H
#define DBTRACE_SYSINFO_THP_H

#include <stdbool.h>
#include <stddef.h>

#define DBT_THP_VALUE_MAX 32

struct dbt_thp {
	/* sys/kernel/mm/transparent_hugepage/enabled was readable and had a
	 * bracketed choice ("always [madvise] never" -> "madvise"). A kernel
	 * without CONFIG_TRANSPARENT_HUGEPAGE has no directory. */
	bool has_enabled;
	char enabled[DBT_THP_VALUE_MAX];
	bool has_defrag;		/* same for .../defrag */
	char defrag[DBT_THP_VALUE_MAX];
};

/*
 * The bracketed word of a sysfs choice list ("always defer [madvise]
 * never" -> "madvise"). -EINVAL when there is none (not a choice file),
 * -ENAMETOOLONG when the word does not fit in len.
 */
int dbt_thp_parse_choice(const char *buf, size_t n, char *out, size_t len);

/* Reads both files under root. A missing directory is not an error: the
 * has_ flags stay false. Other read errors are returned. */
int dbt_thp_read(const char *root, struct dbt_thp *out);

#endif /* DBTRACE_SYSINFO_THP_H */
