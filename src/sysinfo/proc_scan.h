/* SPDX-License-Identifier: GPL-2.0 */
/* Walks ROOT/proc: the processes and their CPU time (to pick default
 * targets without eBPF), and the CPUs each thread of a process may run on
 * (databases bind their own worker threads, so the main thread's
 * Cpus_allowed_list is not the whole story). */
#ifndef DBTRACE_SYSINFO_PROC_SCAN_H
#define DBTRACE_SYSINFO_PROC_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sysinfo/cpuset.h"

/*
 * Calls fn for every numeric entry of ROOT/proc (or ROOT/proc/PID/task
 * with dbt_proc_for_each_task), in directory order. A nonzero return from
 * fn stops the walk and is returned. -errno when the directory cannot be
 * opened.
 */
typedef int (*dbt_pid_fn)(void *ctx, int pid);
int dbt_proc_for_each_pid(const char *root, dbt_pid_fn fn, void *ctx);
int dbt_proc_for_each_task(const char *root, int pid, dbt_pid_fn fn, void *ctx);

struct dbt_proc_cpu {
	int pid;
	int ppid;
	char comm[16];
	uint64_t ticks;		/* utime + stime, clock ticks */
};

/*
 * Parses one /proc/PID/stat line: comm is the text between the first '('
 * and the last ')' (comm may hold both), utime and stime are fields 14
 * and 15. -EINVAL on anything else.
 */
int dbt_proc_stat_parse(const char *buf, size_t len, struct dbt_proc_cpu *out);

/*
 * Every process of ROOT/proc with its CPU time, kernel threads (kthreadd
 * and its children) left out. *procs is malloc'd, sorted by pid; free it.
 * Processes that vanish during the walk are skipped.
 */
int dbt_proc_cpu_list(const char *root, struct dbt_proc_cpu **procs, size_t *n);

/*
 * Picks up to max pids by CPU time (pure): the growth from prev to cur
 * when prev is given, else the total since start; ties by lower pid.
 * Processes below min_ticks are not picked. prev and cur sorted by pid.
 * Returns how many were written to pids.
 */
size_t dbt_proc_top_cpu(const struct dbt_proc_cpu *prev, size_t n_prev,
			const struct dbt_proc_cpu *cur, size_t n_cur,
			uint64_t min_ticks, int *pids, size_t max);

struct dbt_task_cpus {
	char comm[16];
	unsigned int n_threads;	/* threads whose status was read */
	/* Union of the threads' Cpus_allowed_list: where the process may run. */
	struct dbt_cpuset allowed;
	/* Threads whose set differs from the main thread's (self-bound
	 * workers): the union alone hides that. */
	unsigned int n_differ;
};

/* Reads ROOT/proc/PID/comm and every ROOT/proc/PID/task/TID/status.
 * -ENOENT when the process is gone. */
int dbt_proc_task_cpus(const char *root, int pid, struct dbt_task_cpus *out);

#endif /* DBTRACE_SYSINFO_PROC_SCAN_H */
