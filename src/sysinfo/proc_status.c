#include "sysinfo/proc_status.h"
#include "sysinfo/procfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int proc_status_cpus_allowed(const char *text, struct dbt_cpuset *set)
{
	static const char key[] = "Cpus_allowed_list:";
	const char *p = text, *eol;

	while (p && *p) {
		if (!strncmp(p, key, sizeof(key) - 1)) {
			p += sizeof(key) - 1;
			eol = strchr(p, '\n');
			return dbt_cpuset_parse_list_n(set, p, eol ? (size_t)(eol - p) : strlen(p));
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	dbt_cpuset_zero(set);
	return -ENODATA;
}

int proc_cpus_allowed(const char *root, int pid, int tid, struct dbt_cpuset *set)
{
	char rel[96], *text;
	int err;

	if (tid)
		snprintf(rel, sizeof(rel), "/proc/%d/task/%d/status", pid, tid);
	else
		snprintf(rel, sizeof(rel), "/proc/%d/status", pid);
	err = procfile_slurp(root, rel, 1 << 16, &text, NULL);
	if (err)
		return err;
	err = proc_status_cpus_allowed(text, set);
	free(text);
	return err;
}
