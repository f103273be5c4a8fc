/* The running totals behind `dbtrace serve`'s metrics, fed one interval
 * at a time: counters summed since the exporter started, so they never go
 * down, and histograms as summed log2 µs slots. Cardinality is bounded:
 * at most top_n thread classes, ports and devices have totals of their
 * own, the rest is summed into one "other" total per kind; the latest
 * interval's findings are kept, the top_n worst. Pure: no output (the
 * text format is render/prom_exposition.h). */
#ifndef DBTRACE_METRICS_PROM_TOTALS_H
#define DBTRACE_METRICS_PROM_TOTALS_H

#include <stdbool.h>
#include <stdint.h>
#include "dbtrace/hist.h"
#include "dbtrace/softirq.h"
#include "findings/finding.h"
#include "metrics/prom_loss.h"
#include "model/class_time.h"
#include "model/net_model.h"
#include "model/thread_class.h"
#include "session/interval.h"

/* The fixed `le` bounds of every histogram dbtrace exports, in seconds:
 * 1-2-5 per decade from 1 µs to 10 s (docs/metrics.md). */
#define PROM_LE_N 22
extern const double prom_le_s[PROM_LE_N];

/* A distribution summed over intervals, folded from the fine buckets
 * (dbtrace/hist.h): slots[i] counts the samples between prom_le_s[i - 1]
 * and prom_le_s[i], slots[PROM_LE_N] those above the last bound. A fine
 * bucket straddling a bound goes where its midpoint lies (bounds are not
 * all fine-bucket edges: 1 µs falls inside [992, 1008) ns), so a
 * cumulative count is off by at most one fine bucket's samples, of width
 * 1/32 of the bound or less. sum_s is estimated from the fine buckets'
 * midpoints. */
struct prom_hist {
	uint64_t slots[PROM_LE_N + 1];
	double sum_s;
};

/* Which slot of a prom_hist the fine bucket b folds into. */
int prom_le_slot(uint32_t b);

/* A thread class of one process (key: pid and class name). */
struct prom_class_total {
	int pid;
	char comm[16];
	char name[TCLASS_NAME_MAX];
	int threads;                   /* a gauge: in the latest interval */
	int procs;                     /* a gauge: processes of its group in the latest interval */
	double oncpu_s;
	uint64_t vol, invol;           /* context switches */
	struct prom_hist runq;
	double state_s[CT_STATES];     /* the wall-time budget (model/class_time.h) */
	/* the oncpu state's user and system parts, summed over the
	 * intervals whose split was known */
	double user_s, sys_s;
};

/* The loss family's counters of a port and role. */
struct prom_port_loss {
	bool seen;                     /* the loss family measured it */
	uint64_t segs[DBT_RETX_KINDS]; /* retransmitted segments by kind */
	uint64_t rto_timer, tlp_probes, stalls, drops;
};

/* A service port in one role (key: port and role). */
struct prom_port_total {
	uint16_t port;
	uint8_t role;                  /* DBT_NET_SERVER, DBT_NET_CLIENT */
	struct prom_hist resp, rxq;
	/* the staged requests (model/net_model.h) and each stage's time */
	uint64_t staged;
	double stage_s[DBT_NET_STAGES];
	struct prom_port_loss loss;
};

/* A network device (key: network namespace and name). */
struct prom_dev_total {
	uint32_t netns;
	char name[16];
	char netns_name[NET_NETNS_NAME_MAX];   /* "" for the exporter's own namespace */
	struct prom_hist txq;
};

/* One CPU. Only CPUs whose softirq time was measured at least once have
 * totals. */
struct prom_cpu_total {
	double softirq_s[DBT_SOFTIRQ_VECS];
	double hardirq_s;
};

/* The run as a whole. */
struct prom_run_totals {
	uint64_t intervals;
	double interval_s;             /* the latest interval's length */
	uint64_t lost_events;          /* as the latest interval counted them */
	uint64_t thread_evictions;
	uint64_t net_skipped_requests; /* summed: requests found from sequence numbers */
	struct bpf_cost bpf;           /* summed: dbtrace's own programs over the meter's windows */
};

struct prom_totals;

/* top_n below 1 is taken as 1. Returns 0 or -ENOMEM. */
int prom_totals_new(struct prom_totals **out, int top_n);
void prom_totals_free(struct prom_totals *t);

/* Adds one interval and keeps its findings. Returns 0 or -ENOMEM. */
int prom_totals_add(struct prom_totals *t, const struct interval *iv, const struct finding_list *found);

/* top_n as applied: keys per kind with totals of their own. */
int prom_totals_limit(const struct prom_totals *t);

/* i in [0, limit): the kept keys, in slot order; i == limit: "other",
 * everything without a slot of its own. NULL when nothing is there yet. */
const struct prom_class_total *prom_totals_class(const struct prom_totals *t, int i);
const struct prom_port_total *prom_totals_port(const struct prom_totals *t, int i);
const struct prom_dev_total *prom_totals_dev(const struct prom_totals *t, int i);

/* CPU numbers are below this. */
int prom_totals_ncpus(const struct prom_totals *t);
/* NULL when the CPU's softirq time was never measured. */
const struct prom_cpu_total *prom_totals_cpu(const struct prom_totals *t, int cpu);

/* The latest interval's findings, worst first, at most limit. */
int prom_totals_n_findings(const struct prom_totals *t);
const struct finding *prom_totals_finding(const struct prom_totals *t, int i);

const struct prom_run_totals *prom_totals_run(const struct prom_totals *t);

/* The loss family's host-wide totals; seen is false until it reported. */
const struct prom_loss *prom_totals_loss(const struct prom_totals *t);

#endif
