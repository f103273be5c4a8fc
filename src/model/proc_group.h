/* Groups of processes: which processes dbtrace reports as one server.
 * Pure: the process table goes in (read by sysinfo/proc_identity.c), a
 * group key per process comes out.
 *
 * PostgreSQL, php-fpm, nginx and Oracle fork one process per connection
 * or role, all of one executable; reported per process they are a
 * hundred one-thread rows and no class holds "the backends". The ways of
 * forming groups (--group-by):
 *
 *  - PROC_GROUP_PID: every process its own group (dbtrace before groups).
 *  - PROC_GROUP_PARENT (default): a process whose parent runs the same
 *    executable under the same comm joins its parent's group (the
 *    postmaster and its backends, php-fpm's master and workers, nginx's);
 *    processes of the same executable and comm that share a parent of
 *    another executable form one group among themselves (a shell's
 *    workers), unless they have children of their own program: each such
 *    one leads its own group (two PostgreSQL clusters under systemd).
 *    The executable is /proc/PID/exe's target, or the comm when it
 *    cannot be read (kernel threads, a process gone).
 *  - PROC_GROUP_CGROUP: the processes of one cgroup v2 path (a systemd
 *    service, a container) form one group, led by the process that heads
 *    it (its parent outside the cgroup: the service's main process).
 *
 * A group's key is its leader's pid: the topmost process of the parent
 * chain, else the lowest pid. A group of one process is keyed by its
 * own pid, so `pid` grouping and a lone process look as before. */
#ifndef DBTRACE_MODEL_PROC_GROUP_H
#define DBTRACE_MODEL_PROC_GROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum proc_group_by {
	PROC_GROUP_PARENT = 0,   /* the default */
	PROC_GROUP_PID,
	PROC_GROUP_CGROUP,
};

/* One process as /proc showed it. The strings are read during
 * proc_group_form() only; NULL or "": unknown. */
struct proc_group_proc {
	uint32_t pid, ppid;
	const char *exe, *comm, *cgroup;
	uint32_t key;            /* out: its group's leader pid */
	uint32_t n_members;      /* out: processes in its group */
	bool load;               /* proc_group_join_load(): one of the recorded command's */
};

/* "pid", "parent", "cgroup" (the capture's groups' formed_by). */
const char *proc_group_by_name(enum proc_group_by by);
/* Parses a --group-by value. Returns 0 or -EINVAL. */
int proc_group_by_parse(const char *s, enum proc_group_by *out);

/* Sets key and n_members of each of the n processes (any order; pids
 * unique). Returns 0, -EINVAL (NULL p with n > 0, a bad by) or -ENOMEM. */
int proc_group_form(struct proc_group_proc *p, size_t n, enum proc_group_by by);
/* order[0..n): the indices of p by ascending pid, for proc_group_lookup(). */
void proc_group_sort_by_pid(struct proc_group_proc *p, size_t n, size_t *order);
/* The index of pid in p, order as proc_group_sort_by_pid() made it, or
 * SIZE_MAX. */
size_t proc_group_lookup(const struct proc_group_proc *p, const size_t *order, size_t n, uint32_t pid);
/* Sets n_members of each process from the keys. Returns 0 or -ENOMEM. */
int proc_group_count(struct proc_group_proc *p, size_t n);

/* The groups a run reported and every process seen in each: what the
 * capture's `groups` says of how its processes rows were formed. */
struct proc_group_seen {
	int pid;                 /* the leader's: the processes row's pid */
	char comm[16];
	uint32_t *pids;          /* ascending, once each; at most PROC_GROUP_SEEN_MAX */
	size_t n_pids, cap;
};

struct proc_group_log {
	enum proc_group_by by;
	struct proc_group_seen *g;   /* in order of first report */
	size_t n, cap;
};

/* Pids kept per group: a server forking per connection for hours sees
 * more; the capture's count says how many were kept. */
#define PROC_GROUP_SEEN_MAX 4096

/* Adds the n member pids (any order) of the group led by pid. Returns 0
 * or -ENOMEM. */
int proc_group_log_add(struct proc_group_log *log, int pid, const char *comm,
		       const uint32_t *pids, size_t n);
const struct proc_group_seen *proc_group_log_find(const struct proc_group_log *log, int pid);
void proc_group_log_free(struct proc_group_log *log);

#endif
