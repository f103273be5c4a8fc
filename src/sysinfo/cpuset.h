/* SPDX-License-Identifier: GPL-2.0 */
#ifndef DBTRACE_SYSINFO_CPUSET_H
#define DBTRACE_SYSINFO_CPUSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A fixed-size CPU set. 8192 bits is the x86 NR_CPUS maximum and covers the
 * largest hosts we have data from (1920 threads on a 16-socket Eviden box);
 * a fixed size keeps the type copyable and allocation-free at 1 KiB.
 */
#define DBT_CPUSET_MAX 8192
#define DBT_CPUSET_WORDS (DBT_CPUSET_MAX / 64)

struct dbt_cpuset {
	uint64_t bits[DBT_CPUSET_WORDS];
};

void dbt_cpuset_zero(struct dbt_cpuset *set);
/* -ERANGE when cpu >= DBT_CPUSET_MAX. */
int dbt_cpuset_set(struct dbt_cpuset *set, unsigned int cpu);
void dbt_cpuset_clear(struct dbt_cpuset *set, unsigned int cpu);
bool dbt_cpuset_test(const struct dbt_cpuset *set, unsigned int cpu);
unsigned int dbt_cpuset_count(const struct dbt_cpuset *set);
bool dbt_cpuset_empty(const struct dbt_cpuset *set);
bool dbt_cpuset_equal(const struct dbt_cpuset *a, const struct dbt_cpuset *b);
/* dst may alias a or b. */
void dbt_cpuset_and(struct dbt_cpuset *dst, const struct dbt_cpuset *a,
		    const struct dbt_cpuset *b);
void dbt_cpuset_or(struct dbt_cpuset *dst, const struct dbt_cpuset *a,
		   const struct dbt_cpuset *b);
/* Next CPU > prev (pass -1 to start), or -1 when there is none. */
int dbt_cpuset_next(const struct dbt_cpuset *set, int prev);

/*
 * Cpulist as in /proc/irq/N/smp_affinity_list and the kernel command line:
 * "0-3,8,10-11", also the kernel's stride form "0-31:2/8" (use 2 of every
 * 8). Empty input and surrounding whitespace (the trailing newline of a
 * sysfs file) give an empty set. -EINVAL on syntax errors, -ERANGE on a CPU
 * >= DBT_CPUSET_MAX; *set is left empty on error.
 */
int dbt_cpuset_parse_list(struct dbt_cpuset *set, const char *str);
int dbt_cpuset_parse_list_n(struct dbt_cpuset *set, const char *buf,
			    size_t len);

/*
 * Hex mask as in /sys (rps_cpus, local_cpus, smp_affinity): 32-bit words of
 * at most 8 hex digits, comma-separated, most significant first
 * ("ffffffff,000000ff"). Same errors as the list parsers.
 */
int dbt_cpuset_parse_mask(struct dbt_cpuset *set, const char *str);
int dbt_cpuset_parse_mask_n(struct dbt_cpuset *set, const char *buf,
			    size_t len);

/*
 * Writes the canonical cpulist ("0-3,8") NUL-terminated into buf and returns
 * its length, or -ENOSPC when it does not fit (buf then holds a truncated
 * but terminated prefix when size > 0). An empty set gives "".
 */
int dbt_cpuset_format_list(const struct dbt_cpuset *set, char *buf,
			   size_t size);

/* Read a cpulist or hex-mask file under root into *set. */
int dbt_cpuset_read_list(const char *root, const char *rel,
			 struct dbt_cpuset *set);
int dbt_cpuset_read_mask(const char *root, const char *rel,
			 struct dbt_cpuset *set);

#endif /* DBTRACE_SYSINFO_CPUSET_H */
