/* The CPUs section of a capture (docs/capture-schema.md): "cpus", one
 * object per CPU online at both ends of the window, of an interval or
 * the whole capture, written and read back here as a pair; a CPU's
 * figures are the table's (figures/figures_cpus.c), walked by
 * capture_figures.c. */
#ifndef DBTRACE_CAPTURE_CAPTURE_CPUS_H
#define DBTRACE_CAPTURE_CAPTURE_CPUS_H

#include "model/cpu_model.h"

struct json_object;
struct capture_interval;

/* The valid rows of rows[0..n) as a "cpus" array. */
struct json_object *capture_cpus_array(const struct cpu_row *rows, int n);
/* One CPU object back into r. */
void capture_cpus_read_row(struct json_object *o, struct cpu_row *r);
/* An interval's "cpus" (a) as the report's heatmap keeps them: their
 * softirq shares. 0 or -ENOMEM. */
int capture_cpus_read_interval(struct json_object *a, struct capture_interval *iv);

#endif
