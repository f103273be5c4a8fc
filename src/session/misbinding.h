/* The misbinding rules inside a measuring session (top, capture): the
 * I/O they need (the NIC layout, read once at start; each target's
 * allowed CPUs, re-read every few intervals) and the choice of targets
 * (-p PIDs, else the busiest processes of the interval). The rules
 * themselves are pure, in src/findings/. */
#ifndef DBTRACE_SESSION_MISBINDING_H
#define DBTRACE_SESSION_MISBINDING_H

#include "findings/finding.h"
#include "findings/nic_traffic.h"
#include "findings/softirq_concentration.h"
#include "findings/softirq_on_db_cores.h"
#include "model/cpu_model.h"
#include "model/net_model.h"
#include "model/sched_interval.h"
#include "session/proc_groups.h"
#include "sysinfo/nic_layout.h"

/* Targets judged per interval without -p: the busiest few. */
#define MISBIND_TARGETS 3
#define MISBIND_CACHE 64

struct misbind_cached {
	int pid;
	int read_at;                   /* interval of the last read */
	struct misbind_target t;
};

struct misbinding {
	struct dbt_nic_layout nics;
	bool have_nics;
	bool irqbalance_running;
	int irqbalance_pid;
	struct sodc_config sodc;
	struct sconc_config sconc;
	struct misbind_cached cache[MISBIND_CACHE];
	int n_cache;
	struct nic_traffic_table traffic;   /* what each NIC carried, this run */
	/* the session's process groups: a target's CPUs are its group's
	 * (PostgreSQL's backends with the postmaster); NULL: the process's */
	const struct proc_groups *groups;
};

/* Reads the live host's NIC layout and irqbalance state. A host whose
 * layout cannot be read is still judged on softirq time. Never fails. */
void misbinding_init(struct misbinding *m);
void misbinding_free(struct misbinding *m);

/* The processes to judge: pids when n_pids > 0, else the busiest few of
 * si (may be NULL) using at least a twentieth of a core, never self (the
 * tracer). Writes at most max pids to out; returns how many. Pure. */
int misbinding_pick(const struct sched_interval *si, const int *pids, int n_pids, int self,
		    int *out, int max);

/* Where pid's group may run (the union of its processes' threads' sets,
 * read at most every few intervals, as for the targets): *cpus, and in
 * *n_differ (may be NULL) how many of its threads have a set of their
 * own (0: every thread may use all of *cpus). -ENOENT when no process of
 * it could be read. */
int misbinding_group_cpus(struct misbinding *m, int pid, int index, struct dbt_cpuset *cpus,
			  unsigned int *n_differ);

/*
 * Runs softirq_on_db_cores and irq_affinity_overlap for each target and
 * softirq_concentration for the host, over one interval's CPU rows.
 * Targets: pids when n_pids > 0, else the busiest processes of si (may be
 * NULL) using at least a twentieth of a core. ni (NULL when the net
 * family is off) says what each NIC carried, which irq_affinity_overlap
 * weighs. Returns 0 or -ENOMEM.
 */
int misbinding_judge(struct misbinding *m, const struct cpu_row *rows, int n_rows,
		     const struct sched_interval *si, const struct net_interval *ni,
		     const int *pids, int n_pids, int index, struct finding_list *out);

#endif
