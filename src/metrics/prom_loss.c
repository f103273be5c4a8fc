#include "metrics/prom_loss.h"
#include "core/vec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int prom_loss_init(struct prom_loss *p, int top_n)
{
	memset(p, 0, sizeof(*p));
	p->top_n = top_n > 0 ? top_n : 1;
	p->ns = calloc((size_t)p->top_n + 1, sizeof(*p->ns));
	p->lis = calloc((size_t)p->top_n + 1, sizeof(*p->lis));
	if (!p->ns || !p->lis) {
		prom_loss_free(p);
		return -ENOMEM;
	}
	snprintf(p->ns[p->top_n].netns, sizeof(p->ns[0].netns), "other");
	snprintf(p->lis[p->top_n].netns, sizeof(p->lis[0].netns), "other");
	return 0;
}

void prom_loss_free(struct prom_loss *p)
{
	free(p->cpus);
	free(p->ns);
	free(p->lis);
	memset(p, 0, sizeof(*p));
}

/* A namespace's totals: its own (first come, first kept), or "other". */
static struct prom_loss_ns *ns_slot(struct prom_loss *p, const char *name)
{
	for (int i = 0; i < p->n_ns; i++)
		if (!strcmp(p->ns[i].netns, name))
			return &p->ns[i];
	if (p->n_ns < p->top_n) {
		snprintf(p->ns[p->n_ns].netns, sizeof(p->ns[0].netns), "%s", name);
		return &p->ns[p->n_ns++];
	}
	return &p->ns[p->top_n];
}

static struct prom_loss_listener *lis_slot(struct prom_loss *p, const char *netns, uint16_t port)
{
	for (int i = 0; i < p->n_lis; i++)
		if (p->lis[i].port == port && !strcmp(p->lis[i].netns, netns))
			return &p->lis[i];
	if (p->n_lis < p->top_n) {
		snprintf(p->lis[p->n_lis].netns, sizeof(p->lis[0].netns), "%s", netns);
		p->lis[p->n_lis].port = port;
		return &p->lis[p->n_lis++];
	}
	return &p->lis[p->top_n];
}

static int add_cpus(struct prom_loss *p, const struct loss_interval *li)
{
	for (int i = 0; i < li->n_cpus; i++) {
		const struct loss_cpu_stats *c = &li->cpus[i];
		size_t need = (size_t)c->cpu + 1;

		if (c->cpu < 0)
			continue;
		if (need > p->n_cpus) {
			if (VEC_RESERVE(p->cpus, p->cap_cpus, need))
				return -ENOMEM;
			memset(&p->cpus[p->n_cpus], 0, (need - p->n_cpus) * sizeof(*p->cpus));
			p->n_cpus = need;
		}
		p->cpus[c->cpu].seen = true;
		p->cpus[c->cpu].backlog_drops += c->backlog_drops;
		p->cpus[c->cpu].time_squeezes += c->time_squeezes;
	}
	return 0;
}

int prom_loss_add(struct prom_loss *p, const struct loss_interval *li)
{
	p->seen = true;
	for (int i = 0; i < li->n_reasons; i++) {
		const struct loss_reason_stats *r = &li->reasons[i];

		if (r->slot >= DBT_LOSS_REASON_SLOTS)
			continue;
		p->reasons[r->slot] += r->count;
		snprintf(p->reason_name[r->slot], sizeof(p->reason_name[0]), "%s", r->name);
	}
	for (int i = 0; i < li->n_ns; i++) {
		const struct loss_ns_stats *n = &li->ns[i];
		struct prom_loss_ns *s = ns_slot(p, n->foreign ? n->name : "");

		if (!n->have)
			continue;
		s->listen_overflows += n->listen_overflows;
		s->listen_drops += n->listen_drops;
		s->memory_pressures += n->memory_pressures;
		s->memory_pressure_s += (double)n->memory_pressure_ms / 1000;
	}
	for (int i = 0; i <= p->top_n; i++) {
		p->lis[i].live = false;
		p->lis[i].queue = p->lis[i].backlog = 0;
	}
	/* listeners come with the most overflows, then the fullest, first */
	for (int i = 0; i < li->n_listeners; i++) {
		const struct loss_listener_stats *l = &li->listeners[i];
		struct prom_loss_listener *s = lis_slot(p, l->foreign ? l->netns_name : "", l->port);

		s->live = true;
		s->overflows += l->overflows;
		s->queue += l->queue;
		s->backlog += l->backlog;
	}
	return add_cpus(p, li);
}
