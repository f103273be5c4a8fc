/* The walk every per-class rule makes (oversubscription, lock_contention,
 * io_bound): each class of each process of a sched interval that the rule
 * fires on becomes one finding, merged into out. */
#ifndef DBTRACE_FINDINGS_CLASS_RULE_H
#define DBTRACE_FINDINGS_CLASS_RULE_H

#include <stdbool.h>
#include "findings/finding.h"
#include "model/sched_interval.h"

struct class_rule {
	/* whether class c of process p fires, under the rule's config */
	bool (*fires)(const struct sched_group_stats *p, const struct sched_class_stats *c,
		      const void *cfg);
	/* fills f (zeroed) with its id, title, evidence and hint */
	void (*describe)(struct finding *f, const struct sched_group_stats *p,
			 const struct sched_class_stats *c, double dt_s);
};

/* Returns 0 or the error of findings_merge(). */
int class_rule_check(const struct class_rule *rule, const void *cfg,
		     const struct sched_interval *iv, int interval_index, struct finding_list *out);

#endif
