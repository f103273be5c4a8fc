/* The capture's overhead.bpf: dbtrace's own BPF programs' cost, all
 * families together (members of the object itself) and each family (in
 * its "families" list), over the run-time statistics' windows; and each
 * interval's overhead.bpf_cpu_pct. Figures: figures_overhead.c. */
#ifndef DBTRACE_CAPTURE_CAPTURE_OVERHEAD_H
#define DBTRACE_CAPTURE_CAPTURE_OVERHEAD_H

#include <stdbool.h>
#include "core/family.h"
#include "model/bpf_cost.h"

struct json_object;

/* overhead.bpf as read back. */
struct capture_bpf {
	bool have;                     /* the capture has the object (older ones do not) */
	double measured_s;             /* how long the statistics were on; 0: not measured */
	char error[160];               /* why it was not measured, "" when it was */
	struct bpf_cost_row total;
	struct bpf_cost_row fams[FAM_COUNT];   /* in capture order, n of them */
	int n;
};

/* The object for cost c (why: the reason it was not measured, or NULL). */
struct json_object *capture_bpf_object(const struct bpf_cost *c, const char *why);
void capture_bpf_read(struct json_object *o, struct capture_bpf *out);

/* An interval's "overhead" object: its share of a CPU in dbtrace's
 * programs, null when its window measured nothing. */
struct json_object *capture_interval_overhead(const struct bpf_cost *c);

#endif
