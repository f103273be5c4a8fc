/* What makes a process one of a server's: its parent, executable, comm,
 * title (argv[0] as it rewrote it) and cgroup v2 path, read from
 * ROOT/proc/PID, for grouping processes (model/proc_group.h) and naming
 * them by title (model/proc_title.h). */
#ifndef DBTRACE_SYSINFO_PROC_IDENTITY_H
#define DBTRACE_SYSINFO_PROC_IDENTITY_H

#include <stddef.h>

#define DBT_PROC_TITLE_MAX 128
#define DBT_PROC_PATH_MAX 256

struct dbt_proc_identity {
	int pid, ppid;
	char comm[16];
	char exe[DBT_PROC_PATH_MAX];      /* /proc/PID/exe's target; "": unreadable */
	char title[DBT_PROC_TITLE_MAX];   /* /proc/PID/cmdline up to its first NUL, cut */
	char cgroup[DBT_PROC_PATH_MAX];   /* the "0::" line's path; "": none (cgroup v1) */
};

/* The cgroup v2 path in the text of /proc/PID/cgroup (its "0::PATH" line)
 * into buf. Returns 0, -ENOENT (no such line), -ENAMETOOLONG. Pure. */
int dbt_proc_cgroup_parse(const char *text, size_t len, char *buf, size_t buflen);

/* Reads pid's identity. stat must be readable (the process exists: else
 * its negative errno); exe, title and cgroup are "" when they are not. */
int dbt_proc_identity_read(const char *root, int pid, struct dbt_proc_identity *out);

#endif
