/* oversubscription: a thread pool larger than the CPUs it may use, seen
 * as threads waiting in the run queue rather than as a busy CPU. */
#ifndef DBTRACE_FINDINGS_OVERSUBSCRIPTION_H
#define DBTRACE_FINDINGS_OVERSUBSCRIPTION_H

#include "findings/finding.h"
#include "model/sched_interval.h"

struct oversub_config {
	double runq_p99_us;            /* default 1000: 1 ms */
	double runnable_per_cpu;       /* default 1.0: more runnable threads than CPUs */
};

void oversub_config_default(struct oversub_config *cfg);

/* Whether class c passes the rule's tests that are not about its CPUs
 * (more than one thread, a run-queue p99 over the line): the caller reads
 * a class's own allowed CPUs only for those. */
bool oversubscription_candidate(const struct sched_class_stats *c, const struct oversub_config *cfg);

/* Checks every class of every process of one interval (classes need
 * allowed_cpus filled; 0 means unknown and is not judged). Merges what it
 * finds into out, tagged with interval_index. Returns 0 or -ENOMEM. */
int oversubscription_check(const struct sched_interval *iv, const struct oversub_config *cfg,
			   int interval_index, struct finding_list *out);

#endif
