/* The clock section of a capture (docs/capture-schema.md): "clock", its
 * groups and their classes, written and read back here as a pair; a
 * group's and a class's figures are the table's
 * (figures/figures_clock.c), walked by capture_figures.c. */
#ifndef DBTRACE_CAPTURE_CAPTURE_CLOCK_H
#define DBTRACE_CAPTURE_CAPTURE_CLOCK_H

#include "model/clock_model.h"

struct json_object;

/* The "clock" object of an interval or the whole capture (the busiest
 * CAPTURE_MAX_PROCS groups); fns names the vDSO function slots, hz the
 * sample rate. */
struct json_object *capture_clock_object(const struct clock_interval *iv, const struct clock_fn_table *fns,
					 unsigned int hz);

/* It back into ci (rates over seconds); fns gets the names the capture
 * uses, *hz and *omitted the rate and the groups left out. 0 or -ENOMEM. */
int capture_clock_read(struct json_object *o, double seconds, struct clock_interval *ci,
		       struct clock_fn_table *fns, unsigned int *hz, int *omitted);

#endif
