#include "model/load_group.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

int proc_group_join_load(struct proc_group_proc *p, size_t n, uint32_t load_pid)
{
	size_t *order;
	uint32_t lead = 0;

	if (!load_pid)
		return 0;
	order = malloc(sizeof(*order) * (n ? n : 1));
	if (!order)
		return -ENOMEM;
	proc_group_sort_by_pid(p, n, order);
	for (size_t i = 0; i < n; i++) {
		size_t r = i;

		/* n steps at most: a table read while pids were reused may loop */
		for (size_t step = 0; step <= n && r < n && !p[i].load; step++) {
			p[i].load = p[r].pid == load_pid || p[r].load;
			r = p[r].ppid != p[r].pid ? proc_group_lookup(p, order, n, p[r].ppid) : SIZE_MAX;
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
