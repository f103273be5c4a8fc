#define _GNU_SOURCE
#include "model/proc_group.h"

#include "core/vec.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

static const char *const names[] = {
	[PROC_GROUP_PARENT] = "parent",
	[PROC_GROUP_PID] = "pid",
	[PROC_GROUP_CGROUP] = "cgroup",
};

const char *proc_group_by_name(enum proc_group_by by)
{
	return (unsigned int)by < sizeof(names) / sizeof(names[0]) ? names[by] : "?";
}

int proc_group_by_parse(const char *s, enum proc_group_by *out)
{
	for (size_t i = 0; s && i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i])) {
			*out = (enum proc_group_by)i;
			return 0;
		}
	return -EINVAL;
}

static const char *or_empty(const char *s)
{
	return s ? s : "";
}

/* What makes two processes one program: the executable, else the comm. */
static const char *exe_of(const struct proc_group_proc *p)
{
	return p->exe && p->exe[0] ? p->exe : or_empty(p->comm);
}

static bool same_program(const struct proc_group_proc *a, const struct proc_group_proc *b)
{
	return !strcmp(exe_of(a), exe_of(b)) && !strcmp(or_empty(a->comm), or_empty(b->comm));
}

static int by_pid(const void *a, const void *b, void *arg)
{
	const struct proc_group_proc *p = arg;
	uint32_t x = p[*(const size_t *)a].pid, y = p[*(const size_t *)b].pid;

	return x < y ? -1 : x > y;
}

void proc_group_sort_by_pid(struct proc_group_proc *p, size_t n, size_t *order)
{
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	qsort_r(order, n, sizeof(*order), by_pid, p);
}

/* Siblings first by parent, then program, then pid: the lowest leads. */
static int by_parent_program(const void *a, const void *b, void *arg)
{
	const struct proc_group_proc *p = arg, *x = &p[*(const size_t *)a], *y = &p[*(const size_t *)b];
	int r;

	if (x->ppid != y->ppid)
		return x->ppid < y->ppid ? -1 : 1;
	if ((r = strcmp(exe_of(x), exe_of(y))) || (r = strcmp(or_empty(x->comm), or_empty(y->comm))))
		return r;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static int by_cgroup(const void *a, const void *b, void *arg)
{
	const struct proc_group_proc *p = arg, *x = &p[*(const size_t *)a], *y = &p[*(const size_t *)b];
	int r = strcmp(or_empty(x->cgroup), or_empty(y->cgroup));

	if (r)
		return r;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static int by_key(const void *a, const void *b, void *arg)
{
	const struct proc_group_proc *p = arg;
	uint32_t x = p[*(const size_t *)a].key, y = p[*(const size_t *)b].key;

	return x < y ? -1 : x > y;
}

size_t proc_group_lookup(const struct proc_group_proc *p, const size_t *order, size_t n, uint32_t pid)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p[order[mid]].pid == pid)
			return order[mid];
		if (p[order[mid]].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return SIZE_MAX;
}

/* Parent grouping: up the chain of same-program parents to a root, then
 * roots of one program under one parent together. */
static void form_by_parent(struct proc_group_proc *p, size_t n, size_t *order, size_t *root)
{
	size_t n_roots = 0;

	proc_group_sort_by_pid(p, n, order);
	for (size_t i = 0; i < n; i++) {
		size_t r = i;

		/* n steps at most: a table read while pids were reused may loop */
		for (size_t step = 0; step < n; step++) {
			size_t up = p[r].ppid != p[r].pid ? proc_group_lookup(p, order, n, p[r].ppid) : SIZE_MAX;

			if (up == SIZE_MAX || !same_program(&p[up], &p[r]))
				break;
			r = up;
		}
		root[i] = r;
	}
	/* a root with children of its program is a server of its own (two
	 * PostgreSQL clusters under systemd stay two); the other roots of a
	 * program under one parent are one group */
	for (size_t i = 0; i < n; i++)
		p[i].n_members = 0;
	for (size_t i = 0; i < n; i++)
		if (root[i] != i)
			p[root[i]].n_members = 1;
	for (size_t i = 0; i < n; i++)
		if (root[i] == i && !p[i].n_members)
			order[n_roots++] = i;
	qsort_r(order, n_roots, sizeof(*order), by_parent_program, p);
	for (size_t i = 0, lead = 0; i < n_roots; i++) {
		const struct proc_group_proc *a = &p[order[lead]], *b = &p[order[i]];

		if (a->ppid != b->ppid || !same_program(a, b))
			lead = i;
		p[order[i]].key = p[order[lead]].pid;
	}
	for (size_t i = 0; i < n; i++)
		p[i].key = p[root[i]].key;
}

/* Whether p[i] heads its cgroup cg: its parent is not in the table, or in
 * another cgroup (a service's main process, a container's init). */
static bool heads_cgroup(const struct proc_group_proc *p, const size_t *by_pid, size_t n, size_t i,
			 const char *cg)
{
	size_t up = p[i].ppid != p[i].pid ? proc_group_lookup(p, by_pid, n, p[i].ppid) : SIZE_MAX;

	return up == SIZE_MAX || strcmp(or_empty(p[up].cgroup), cg);
}

/* Cgroup grouping: one group per path, led by the lowest pid of the
 * processes that head it, else its lowest pid. Not simply the lowest pid:
 * pids wrap, and a postmaster started at 32700 forks its backends at 600. */
static void form_by_cgroup(struct proc_group_proc *p, size_t n, size_t *order, size_t *by_pid)
{
	proc_group_sort_by_pid(p, n, by_pid);
	qsort_r(order, n, sizeof(*order), by_cgroup, p);
	for (size_t lo = 0, hi; lo < n; lo = hi) {
		const char *cg = or_empty(p[order[lo]].cgroup);
		size_t lead = lo;

		for (hi = lo + 1; hi < n && !strcmp(or_empty(p[order[hi]].cgroup), cg); hi++)
			;
		if (!cg[0])
			continue;   /* gone or unknown: each alone (its key is its pid) */
		for (size_t i = lo; i < hi; i++)
			if (heads_cgroup(p, by_pid, n, order[i], cg)) {
				lead = i;
				break;
			}
		for (size_t i = lo; i < hi; i++)
			p[order[i]].key = p[order[lead]].pid;
	}
}

int proc_group_form(struct proc_group_proc *p, size_t n, enum proc_group_by by)
{
	size_t *order, *root;

	if ((n && !p) || (unsigned int)by > PROC_GROUP_CGROUP)
		return -EINVAL;
	order = malloc(sizeof(*order) * (n ? n : 1));
	root = malloc(sizeof(*root) * (n ? n : 1));
	if (!order || !root) {
		free(order);
		free(root);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		order[i] = i;
		p[i].key = p[i].pid;
	}
	if (by == PROC_GROUP_PARENT)
		form_by_parent(p, n, order, root);
	else if (by == PROC_GROUP_CGROUP)
		form_by_cgroup(p, n, order, root);
	free(order);
	free(root);
	return proc_group_count(p, n);
}

int proc_group_count(struct proc_group_proc *p, size_t n)
{
	size_t *order = malloc(sizeof(*order) * (n ? n : 1));

	if (!order)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	qsort_r(order, n, sizeof(*order), by_key, p);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i; j < n && p[order[j]].key == p[order[i]].key; j++)
			;
		for (size_t k = i; k < j; k++)
			p[order[k]].n_members = (uint32_t)(j - i);
	}
	free(order);
	return 0;
}

static int u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

const struct proc_group_seen *proc_group_log_find(const struct proc_group_log *log, int pid)
{
	for (size_t i = 0; i < log->n; i++)
		if (log->g[i].pid == pid)
			return &log->g[i];
	return NULL;
}

int proc_group_log_add(struct proc_group_log *log, int pid, const char *comm,
		       const uint32_t *pids, size_t n)
{
	struct proc_group_seen *g = (struct proc_group_seen *)proc_group_log_find(log, pid);
	size_t k;

	if (!g) {
		if (VEC_RESERVE(log->g, log->cap, log->n + 1))
			return -ENOMEM;
		g = &log->g[log->n++];
		memset(g, 0, sizeof(*g));
		g->pid = pid;
		snprintf(g->comm, sizeof(g->comm), "%s", comm ? comm : "");
	}
	for (size_t i = 0; i < n && g->n_pids < PROC_GROUP_SEEN_MAX; i++) {
		if (bsearch(&pids[i], g->pids, g->n_pids, sizeof(*g->pids), u32_cmp))
			continue;
		if (VEC_RESERVE(g->pids, g->cap, g->n_pids + 1))
			return -ENOMEM;
		for (k = g->n_pids; k > 0 && g->pids[k - 1] > pids[i]; k--)
			g->pids[k] = g->pids[k - 1];
		g->pids[k] = pids[i];
		g->n_pids++;
	}
	return 0;
}

void proc_group_log_free(struct proc_group_log *log)
{
	for (size_t i = 0; i < log->n; i++)
		free(log->g[i].pids);
	free(log->g);
	memset(log, 0, sizeof(*log));
}
