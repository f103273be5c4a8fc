/* --cgroup's argument as a cgroup v2 path ("/system.slice/x.service", as
 * /proc/PID/cgroup's "0::" line shows it). */
#ifndef DBTRACE_SYSINFO_CGROUP_PATH_H
#define DBTRACE_SYSINFO_CGROUP_PATH_H

#include <stddef.h>

/* Resolves arg below the cgroup v2 mount, ROOT/sys/fs/cgroup (or its
 * unified/ on a hybrid systemd host): "/sys/fs/cgroup/A/B" (with
 * unified/ there or not), "/A/B" and "A/B" name the directory A/B there; a name without '/' that is not a
 * directory of the top (a systemd unit, "postgresql@15-main.service", a
 * container's scope) is searched for, breadth first, the shallowest
 * directory of that name winning. Writes "/A/B" ("/" for the top) into
 * out. Returns 0, -ENOENT (no such cgroup), -ENAMETOOLONG. */
int dbt_cgroup_resolve(const char *root, const char *arg, char *out, size_t outlen);

#endif
