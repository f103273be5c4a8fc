/* The CPUs a thread class may run on: the union of its own threads'
 * Cpus_allowed_list. A group's union (every thread of every process)
 * hides a pool bound to fewer CPUs than its siblings: a server that pins
 * its workers and leaves its helpers free, or backends bound apart from
 * their postmaster. A pool is oversubscribed against the CPUs it may use,
 * not the ones its group may. */
#ifndef DBTRACE_SESSION_CLASS_CPUS_H
#define DBTRACE_SESSION_CLASS_CPUS_H

#include "model/class_map.h"
#include "sysinfo/cpuset.h"

/* Class cls of map (a tick's), its threads' sets read under root ("" for
 * the live /proc) into *out. Returns how many threads were read (> 0),
 * -EINVAL for a class the map does not hold, or -ENOENT when none of its
 * threads could be read (all gone). */
int class_cpus_allowed(const char *root, const struct class_map *map, int cls,
		       struct dbt_cpuset *out);

#endif
