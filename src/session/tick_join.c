#include "session/tick_join.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

/* The clock family's vDSO share beside each sched row of the same map
 * index: both were computed over the tick's one class map. */
static int join_vdso(struct sched_interval *si, const struct clock_interval *ci, const struct class_map *map)
{
	const struct clock_stats **row = calloc(map->n_classes ? map->n_classes : 1, sizeof(*row));
	const struct clock_group_stats **group = calloc(map->n_groups ? map->n_groups : 1, sizeof(*group));

	if (!row || !group) {
		free(row);
		free(group);
		return -ENOMEM;
	}
	for (int i = 0; ci && i < ci->n_groups; i++) {
		const struct clock_group_stats *cg = &ci->groups[i];

		if (cg->map_group >= 0 && (size_t)cg->map_group < map->n_groups)
			group[cg->map_group] = cg;
		for (int k = 0; k < cg->n_classes; k++)
			if (cg->classes[k].map_class >= 0 &&
			    (size_t)cg->classes[k].map_class < map->n_classes)
				row[cg->classes[k].map_class] = &cg->classes[k];
	}
	for (int i = 0; i < si->n_groups; i++) {
		struct sched_group_stats *g = &si->groups[i];
		bool in_map = g->map_group >= 0 && (size_t)g->map_group < map->n_groups;

		g->total.vdso_pct = in_map && group[g->map_group] ? group[g->map_group]->total.vdso_pct : NAN;
		for (int k = 0; k < g->n_classes; k++) {
			int c = g->classes[k].map_class;

			g->classes[k].vdso_pct = c >= 0 && (size_t)c < map->n_classes && row[c] ? row[c]->vdso_pct : NAN;
		}
	}
	free(row);
	free(group);
	return 0;
}

/* The CPUs each listed group may use (the union over its processes: a
 * PostgreSQL's backends, not its postmaster alone), and each class's:
 * its group's, or, where the group's threads do not all share one set
 * and the class is worth it, the union over its own threads. */
static void join_cpus(struct sched_interval *si, const struct class_map *map, const struct tick_cpus *cpus,
		      int index)
{
	/* groups come busiest first: the rest are neither listed nor judged */
	for (int i = 0; i < si->n_groups && i < TICK_CPUS_GROUPS; i++) {
		struct sched_group_stats *g = &si->groups[i];
		struct dbt_cpuset set;
		unsigned int differ = 0;
		int n = 0;

		if (!cpus->group(cpus->ctx, g->pid, index, &set, &differ)) {
			n = (int)dbt_cpuset_count(&set);
			if (dbt_cpuset_format_list(&set, g->cpus_allowed, sizeof(g->cpus_allowed)) < 0)
				g->cpus_allowed[0] = 0;
		}
		g->total.allowed_cpus = n;
		for (int k = 0; k < g->n_classes; k++) {
			struct sched_class_stats *c = &g->classes[k];

			c->allowed_cpus = n;
			/* every thread of the group on one set: the class's is it,
			 * without reading its threads again */
			if (n && differ && cpus->wants_class(cpus->ctx, c) &&
			    cpus->cls(cpus->ctx, map, c->map_class, &set) > 0)
				c->allowed_cpus = (int)dbt_cpuset_count(&set);
		}
	}
}

int tick_join(struct sched_interval *si, const struct clock_interval *ci, const struct class_map *map,
	      const struct tick_cpus *cpus, int index)
{
	int err = join_vdso(si, ci, map);

	if (!err && cpus)
		join_cpus(si, map, cpus, index);
	return err;
}
