/* The loss family's running totals behind `dbtrace serve` that are not
 * per service port (those ride on the port totals of prom_totals.h):
 * drops by reason, softnet backlog drops and time squeezes per CPU, the
 * TCP stack's listen and memory counters per network namespace, and the
 * listening ports with their accept queues. Bounded: reasons are the
 * kernel's enum (at most DBT_LOSS_REASON_SLOTS), namespaces and
 * listeners at most top_n each, the rest summed into "other". Pure. */
#ifndef DBTRACE_METRICS_PROM_LOSS_H
#define DBTRACE_METRICS_PROM_LOSS_H

#include <stdbool.h>
#include <stdint.h>
#include "model/loss_model.h"

struct prom_loss_ns {
	char netns[NET_NETNS_NAME_MAX];    /* "" for dbtrace's own; "other" */
	uint64_t listen_overflows, listen_drops, memory_pressures;
	double memory_pressure_s;
};

struct prom_loss_listener {
	char netns[NET_NETNS_NAME_MAX];
	uint16_t port;                     /* 0 with netns "other" */
	uint64_t overflows;                /* counter */
	uint32_t queue, backlog;           /* gauges: the latest interval; 0 when gone */
	bool live;                         /* listening in the latest interval */
};

struct prom_loss_cpu {
	bool seen;
	uint64_t backlog_drops, time_squeezes;
};

struct prom_loss {
	int top_n;
	bool seen;                         /* an interval of the family was added */
	uint64_t reasons[DBT_LOSS_REASON_SLOTS];
	char reason_name[DBT_LOSS_REASON_SLOTS][LOSS_REASON_NAME_MAX];
	struct prom_loss_cpu *cpus;        /* by CPU number */
	size_t n_cpus, cap_cpus;
	struct prom_loss_ns *ns;           /* top_n, then "other" at [top_n] */
	int n_ns;
	struct prom_loss_listener *lis;    /* top_n, then "other" at [top_n] */
	int n_lis;
};

/* top_n below 1 is taken as 1. Returns 0 or -ENOMEM. */
int prom_loss_init(struct prom_loss *p, int top_n);
void prom_loss_free(struct prom_loss *p);
/* Adds one interval. Returns 0 or -ENOMEM. */
int prom_loss_add(struct prom_loss *p, const struct loss_interval *li);

#endif
