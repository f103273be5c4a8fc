#define _GNU_SOURCE
#include "model/load_group.h"

#include <errno.h>
#include <stdlib.h>

static int by_pid(const void *a, const void *b, void *arg)
{
	const struct proc_group_proc *p = arg;
	uint32_t x = p[*(const size_t *)a].pid, y = p[*(const size_t *)b].pid;

	return x < y ? -1 : x > y;
}

/* The index of pid in p (order: indices by pid), or n. */
static size_t find(const struct proc_group_proc *p, const size_t *order, size_t n, uint32_t pid)
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
	return n;
}

int proc_group_join_load(struct proc_group_proc *p, size_t n, uint32_t load_pid)
{
	size_t *order;
	uint32_t lead = 0;

	if (!load_pid)
		return 0;
	order = malloc(sizeof(*order) * (n ? n : 1));
	if (!order)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	qsort_r(order, n, sizeof(*order), by_pid, p);
	for (size_t i = 0; i < n; i++) {
		size_t r = i;

		/* n steps at most: a table read while pids were reused may loop */
		for (size_t step = 0; step <= n && r < n && !p[i].load; step++) {
			p[i].load = p[r].pid == load_pid || p[r].load;
			r = p[r].ppid != p[r].pid ? find(p, order, n, p[r].ppid) : n;
		}
	}
	/* others the load's pid led (--group-by cgroup: the shell's session
	 * scope the command runs in) stay a group, led by their lowest pid */
	for (size_t i = 0; i < n; i++)
		if (!p[i].load && p[i].key == load_pid && (!lead || p[i].pid < lead))
			lead = p[i].pid;
	for (size_t i = 0; i < n; i++) {
		if (p[i].load)
			p[i].key = load_pid;
		else if (p[i].key == load_pid)
			p[i].key = lead;
	}
	free(order);
	return proc_group_count(p, n);
}
