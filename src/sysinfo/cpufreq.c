// SPDX-License-Identifier: GPL-2.0
#include "sysinfo/cpufreq.h"
#include "sysinfo/procfile.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME_FILE_MAX 256
/* Bounds the walk on a corrupt tree; DBT_CPUSET_MAX CPUs plus the other
 * entries of the directory (cpufreq, cpuidle, online, ...). */
#define DIR_ENTRIES_MAX (DBT_CPUSET_MAX + 1024)

/* First word of a one-word sysfs file into out ("" when unreadable). */
static void read_word(const char *root, const char *rel, char *out, size_t len)
{
	char *buf;
	size_t n, i = 0, w = 0;

	out[0] = '\0';
	if (procfile_slurp(root, rel, NAME_FILE_MAX, &buf, &n))
		return;
	while (i < n && (buf[i] == ' ' || buf[i] == '\t'))
		i++;
	while (i + w < n && buf[i + w] && buf[i + w] != '\n' && buf[i + w] != ' ')
		w++;
	if (w >= len)
		w = len - 1;
	memcpy(out, buf + i, w);
	out[w] = '\0';
	free(buf);
}

void dbt_cpufreq_add(struct dbt_cpufreq *cf, unsigned int cpu,
		     const char *governor, const char *driver)
{
	struct dbt_cpufreq_group *g = NULL;

	cf->n_cpus++;
	if (!governor[0])
		return;
	cf->n_with_governor++;
	for (size_t i = 0; i < cf->n_groups && !g; i++)
		if (!strcmp(cf->groups[i].governor, governor) &&
		    !strcmp(cf->groups[i].driver, driver))
			g = &cf->groups[i];
	if (!g) {
		if (cf->n_groups == DBT_CPUFREQ_GROUPS_MAX) {
			cf->n_other_cpus++;
			return;
		}
		g = &cf->groups[cf->n_groups++];
		snprintf(g->governor, sizeof(g->governor), "%s", governor);
		snprintf(g->driver, sizeof(g->driver), "%s", driver);
		dbt_cpuset_zero(&g->cpus);
	}
	if (dbt_cpuset_set(&g->cpus, cpu))
		cf->n_other_cpus++;
}

/* "cpu12" -> 12; false for "cpufreq", "cpuidle", "cpu". */
static bool cpu_dir(const char *name, unsigned int *cpu)
{
	unsigned long v = 0;
	const char *p = name + 3;

	if (strncmp(name, "cpu", 3) || !*p)
		return false;
	for (; *p; p++) {
		if (*p < '0' || *p > '9' || v >= DBT_CPUSET_MAX)
			return false;
		v = v * 10 + (unsigned long)(*p - '0');
	}
	*cpu = (unsigned int)v;
	return true;
}

int dbt_cpufreq_read(const char *root, struct dbt_cpufreq *out)
{
	char rel[96], gov[DBT_CPUFREQ_NAME_MAX], drv[DBT_CPUFREQ_NAME_MAX];
	struct dirent *e;
	DIR *d;
	int err;

	memset(out, 0, sizeof(*out));
	err = procfile_opendir(root, "sys/devices/system/cpu", &d);
	if (err)
		return err;
	for (unsigned int seen = 0; seen < DIR_ENTRIES_MAX && (e = readdir(d)); seen++) {
		unsigned int cpu;

		if (!cpu_dir(e->d_name, &cpu))
			continue;
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/cpufreq/scaling_governor", cpu);
		read_word(root, rel, gov, sizeof(gov));
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/cpufreq/scaling_driver", cpu);
		read_word(root, rel, drv, sizeof(drv));
		dbt_cpufreq_add(out, cpu, gov, drv);
	}
	closedir(d);
	return 0;
}
