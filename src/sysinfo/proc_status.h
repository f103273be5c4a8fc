/* Fields of /proc/PID/status and /proc/PID/task/TID/status. */
#ifndef DBTRACE_SYSINFO_PROC_STATUS_H
#define DBTRACE_SYSINFO_PROC_STATUS_H

#include "sysinfo/cpuset.h"

/* The CPUs the task may run on (Cpus_allowed_list). tid 0: the process
 * (its main thread). Returns 0 or a negative errno (-ENOENT: gone). */
int proc_cpus_allowed(const char *root, int pid, int tid, struct dbt_cpuset *set);

/* Parses the Cpus_allowed_list line out of a status text. */
int proc_status_cpus_allowed(const char *text, struct dbt_cpuset *set);

#endif
