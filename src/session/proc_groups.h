/* The processes of each tick, grouped (--group-by) and titled, and the
 * ones --cgroup and -p select: read from /proc for the pids the
 * snapshot's threads belong to (sysinfo/proc_identity.h), formed into
 * groups by model/proc_group.h, named by model/proc_title.h. What goes to
 * class_map_build_grouped() through the tick's filters. */
#ifndef DBTRACE_SESSION_PROC_GROUPS_H
#define DBTRACE_SESSION_PROC_GROUPS_H

#include <stdbool.h>
#include <stddef.h>
#include "cli/options.h"
#include "model/class_map.h"
#include "model/proc_group.h"
#include "model/sched_interval.h"
#include "model/world_snapshot.h"
#include "sysinfo/proc_identity.h"
#include "sysinfo/proc_scan.h"

/* One process as last read, kept while its pid is seen. */
struct proc_groups_entry {
	struct dbt_proc_identity id;
	bool known;                        /* its /proc was read */
	unsigned int reads;                /* times read: the first ticks re-read (exec, title) */
	unsigned long read_tick;           /* the update that read it last */
	char title_class[TCLASS_NAME_MAX]; /* "": its title names no class */
	bool load;                         /* one of the recorded command's processes */
};

struct proc_groups {
	enum proc_group_by by;
	const char (*cgroups)[DBT_CGROUP_PATH_MAX];  /* --cgroup, resolved */
	int n_cgroups;
	const int *pids;                   /* -p */
	int n_pids;
	int load_pid;                      /* record: the command, its processes one group; 0: none */
	struct proc_groups_entry *e;       /* by pid */
	size_t n, cap;
	struct class_map_proc *procs;      /* parallel to e: what the class map takes */
	size_t procs_cap;
	int *selected;                     /* -p, then the --cgroup members */
	size_t n_selected, selected_cap;
	unsigned long tick;                /* updates so far */
};

/* Reads the processes of cur's threads and their parents (an idle
 * postmaster leads its backends' group: the key stays the same from tick
 * to tick, as the summary's rows need), keeping the entries of processes
 * seen before (re-read in their first ticks), and forms their groups.
 * Returns 0 or -ENOMEM. */
int proc_groups_update(struct proc_groups *g, const struct world_snapshot *cur);
/* Reads every process of ROOT/proc and forms their groups (check, which
 * has no snapshot). Returns 0 or a negative errno. */
int proc_groups_scan(struct proc_groups *g, const char *root);
/* The key of pid's group (its leader's pid); pid itself when g (may be
 * NULL) does not hold it. */
int proc_groups_key(const struct proc_groups *g, int pid);
/* Folds a process CPU list (sorted by pid) into one row per group, keyed
 * by the leader's pid, ticks summed: the busiest groups, not the busiest
 * of a hundred backends. */
void proc_groups_fold_cpu(const struct proc_groups *g, struct dbt_proc_cpu *procs, size_t *n);
/* Where pid's group may run: the union of its processes' threads' sets
 * (dbt_proc_task_cpus), its leader's comm; a member's threads bound
 * elsewhere than the leader count in n_differ. g may be NULL: pid alone.
 * Returns 0 or -ENOENT when no process of the group could be read. */
int proc_groups_task_cpus(const struct proc_groups *g, const char *root, int pid,
			  struct dbt_task_cpus *out);
void proc_groups_free(struct proc_groups *g);
/* Adds the groups si reports, with their processes of this update, to
 * log. Returns 0 or -ENOMEM. */
int proc_groups_record(const struct proc_groups *g, const struct sched_interval *si,
		       struct proc_group_log *log);

/* Whether the cgroup v2 path cg is sel or below it. Pure. */
bool proc_groups_cgroup_in(const char *cg, const char *sel);

#endif
