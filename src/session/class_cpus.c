#include "session/class_cpus.h"
#include "sysinfo/proc_status.h"

#include <errno.h>

int class_cpus_allowed(const char *root, const struct class_map *map, int cls,
		       struct dbt_cpuset *out)
{
	int n = 0;

	if (!map || cls < 0 || (size_t)cls >= map->n_classes)
		return -EINVAL;
	dbt_cpuset_zero(out);
	/* members are sorted by thread, not class: one pass, asked only of
	 * the few classes a rule needs it for */
	for (size_t i = 0; i < map->n_members; i++) {
		const struct class_map_member *m = &map->members[i];
		struct dbt_cpuset set;

		if (m->cls != (uint32_t)cls || proc_cpus_allowed(root, (int)m->pid, (int)m->tid, &set))
			continue;   /* another class's, or gone */
		dbt_cpuset_or(out, out, &set);
		n++;
	}
	return n ? n : -ENOENT;
}
