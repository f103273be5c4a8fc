/* lock_contention: a thread class that spends much of its time blocked on
 * futexes while it has work (it runs or waits to run), most of the wait
 * on one futex word: many threads queue on one lock. From the wall-time
 * budget (model/class_time.h). */
#ifndef DBTRACE_FINDINGS_LOCK_CONTENTION_H
#define DBTRACE_FINDINGS_LOCK_CONTENTION_H

#include "findings/finding.h"
#include "model/sched_interval.h"

struct lockc_config {
	double futex_pct;              /* default 30: futex share of the class's thread time */
	double work_pct;               /* default 5: on-CPU + run-queue share, "it has work" */
	double top_addr_pct;           /* default 50: the top word's share of the blocked time */
};

void lockc_config_default(struct lockc_config *cfg);

/* Checks every class of one interval; merges what it finds into out,
 * tagged with interval_index. Returns 0 or -ENOMEM. */
int lock_contention_check(const struct sched_interval *iv, const struct lockc_config *cfg,
			  int interval_index, struct finding_list *out);

#endif
