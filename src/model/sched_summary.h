/* The sched family over a whole run: the intervals summed per group and
 * class (a class's size is the most threads it had at once), rates over
 * the summed time. Pure. */
#ifndef DBTRACE_MODEL_SCHED_SUMMARY_H
#define DBTRACE_MODEL_SCHED_SUMMARY_H

#include "model/sched_interval.h"

/* Whole-capture summary: the sum of the intervals per (pid, class). */
struct sched_summary {
	struct sched_group_stats *groups;
	int n_groups;
	size_t cap;
	double seconds;
};

int sched_summary_add(struct sched_summary *s, const struct sched_interval *iv);
/* Rates over the summed time, processes sorted by on-CPU time. */
void sched_summary_finish(struct sched_summary *s);
void sched_summary_free(struct sched_summary *s);

#endif
