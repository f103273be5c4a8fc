#include "session/judge_reads.h"
#include "session/class_cpus.h"
#include "session/class_port.h"

#include <stdio.h>
#include <string.h>

int judge_reads_serves(const struct sched_group_stats *p, const struct sched_class_stats *c, uint16_t port,
		       void *arg)
{
	const struct serves_question *q = arg;
	struct serves_cache *cache = q->cache;
	struct serves_answer *s = NULL;

	for (int i = 0; i < cache->n; i++)
		if (cache->e[i].pid == p->pid && cache->e[i].port == port && !strcmp(cache->e[i].cls, c->name))
			s = &cache->e[i];
	if (!s && cache->n < JUDGE_SERVES_CACHE)
		s = &cache->e[cache->n++];
	if (!s)   /* full: the oldest answer makes room */
		for (int i = 0; i < JUDGE_SERVES_CACHE; i++)
			if (!s || cache->e[i].read_at < s->read_at)
				s = &cache->e[i];
	if (s->pid != p->pid || s->port != port || strcmp(s->cls, c->name) ||
	    q->index - s->read_at >= JUDGE_SERVES_KEEP) {
		s->pid = p->pid;
		s->port = port;
		snprintf(s->cls, sizeof(s->cls), "%s", c->name);
		s->answer = class_serves_port("", q->classes, p, c, port);
		s->read_at = q->index;
	}
	return s->answer;
}

static int group_cpus(void *ctx, int pid, int index, struct dbt_cpuset *cpus, unsigned int *n_differ)
{
	const struct judge_cpus *j = ctx;

	return misbinding_group_cpus(j->mis, pid, index, cpus, n_differ);
}

static bool wants_class(void *ctx, const struct sched_class_stats *c)
{
	const struct judge_cpus *j = ctx;

	return oversubscription_candidate(c, j->oversub);
}

static int class_cpus(void *ctx, const struct class_map *map, int cls, struct dbt_cpuset *cpus)
{
	(void)ctx;
	return class_cpus_allowed("", map, cls, cpus);
}

void judge_reads_cpus(struct judge_cpus *ctx, struct tick_cpus *cpus)
{
	*cpus = (struct tick_cpus){ ctx, group_cpus, wants_class, class_cpus };
}
