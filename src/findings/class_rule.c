#include "findings/class_rule.h"

#include <string.h>

int class_rule_check(const struct class_rule *rule, const void *cfg,
		     const struct sched_interval *iv, int interval_index, struct finding_list *out)
{
	for (int i = 0; i < iv->n_groups; i++) {
		const struct sched_group_stats *p = &iv->groups[i];

		for (int k = 0; k < p->n_classes; k++) {
			const struct sched_class_stats *c = &p->classes[k];
			struct finding f;
			int err;

			if (!rule->fires(p, c, cfg))
				continue;
			memset(&f, 0, sizeof(f));
			rule->describe(&f, p, c, iv->dt_s);
			f.first_interval = f.last_interval = interval_index;
			err = findings_merge(out, &f);
			if (err)
				return err;
		}
	}
	return 0;
}
