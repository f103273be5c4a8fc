#include "model/sched_summary.h"
#include "core/vec.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static struct sched_class_stats *summary_class(struct sched_group_stats *p, const char *name)
{
	struct sched_class_stats *c;

	for (int i = 0; i < p->n_classes; i++)
		if (!strcmp(p->classes[i].name, name))
			return &p->classes[i];
	if (VEC_RESERVE(p->classes, p->classes_cap, (size_t)p->n_classes + 1))
		return NULL;
	c = &p->classes[p->n_classes++];
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->map_class = -1;   /* each interval had its own map */
	return c;
}

static struct sched_group_stats *summary_group(struct sched_summary *s, const struct sched_group_stats *src)
{
	struct sched_group_stats *p;

	for (int i = 0; i < s->n_groups; i++)
		if (s->groups[i].pid == src->pid)
			return &s->groups[i];
	if (VEC_RESERVE(s->groups, s->cap, (size_t)s->n_groups + 1))
		return NULL;
	p = &s->groups[s->n_groups++];
	memset(p, 0, sizeof(*p));
	p->pid = src->pid;
	p->map_group = -1;
	p->total.map_class = -1;
	return p;
}

int sched_summary_add(struct sched_summary *s, const struct sched_interval *iv)
{
	s->seconds += iv->dt_s;
	for (int i = 0; i < iv->n_groups; i++) {
		const struct sched_group_stats *src = &iv->groups[i];
		struct sched_group_stats *p = summary_group(s, src);

		if (!p)
			return -ENOMEM;
		snprintf(p->comm, sizeof(p->comm), "%s", src->comm);
		if (sched_class_add(&p->total, &src->total))
			return -ENOMEM;
		if (src->total.threads > p->total.threads)
			p->total.threads = src->total.threads;
		if (src->n_procs > p->n_procs)
			p->n_procs = src->n_procs;
		if (src->total.allowed_cpus) {
			p->total.allowed_cpus = src->total.allowed_cpus;
			snprintf(p->cpus_allowed, sizeof(p->cpus_allowed), "%s", src->cpus_allowed);
		}
		for (int k = 0; k < src->n_classes; k++) {
			struct sched_class_stats *c = summary_class(p, src->classes[k].name);

			if (!c || sched_class_add(c, &src->classes[k]))
				return -ENOMEM;
			/* a pool's size is the most threads it had at once */
			if (src->classes[k].threads > c->threads)
				c->threads = src->classes[k].threads;
		}
	}
	return 0;
}

void sched_summary_finish(struct sched_summary *s)
{
	for (int i = 0; i < s->n_groups; i++) {
		struct sched_group_stats *p = &s->groups[i];

		snprintf(p->total.name, sizeof(p->total.name), "%s", p->comm);
		sched_class_finish(&p->total, s->seconds);
		for (int k = 0; k < p->n_classes; k++)
			sched_class_finish(&p->classes[k], s->seconds);
		qsort(p->classes, (size_t)p->n_classes, sizeof(*p->classes), sched_class_by_oncpu);
	}
	qsort(s->groups, (size_t)s->n_groups, sizeof(*s->groups), sched_group_by_oncpu);
}

void sched_summary_free(struct sched_summary *s)
{
	for (int i = 0; i < s->n_groups; i++)
		sched_group_free(&s->groups[i]);
	free(s->groups);
	memset(s, 0, sizeof(*s));
}
