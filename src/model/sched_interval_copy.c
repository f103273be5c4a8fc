/* A deep copy of an interval: the top view keeps the last one for its
 * redraws, histograms and all. */
#include "model/sched_interval.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int sched_interval_copy(struct sched_interval *dst, const struct sched_interval *src)
{
	memset(dst, 0, sizeof(*dst));
	dst->dt_s = src->dt_s;
	dst->groups = calloc(src->n_groups ? (size_t)src->n_groups : 1, sizeof(*dst->groups));
	if (!dst->groups)
		return -ENOMEM;
	for (int i = 0; i < src->n_groups; i++) {
		struct sched_group_stats *p = &dst->groups[i];

		int err = 0;

		*p = src->groups[i];
		p->total.runq_hist = p->total.futex_hist = NULL;
		p->classes = malloc(sizeof(*p->classes) * (size_t)(p->n_classes ? p->n_classes : 1));
		p->classes_cap = 0;   /* sized once */
		if (!p->classes) {
			sched_interval_free(dst);
			return -ENOMEM;
		}
		memcpy(p->classes, src->groups[i].classes, sizeof(*p->classes) * (size_t)p->n_classes);
		for (int k = 0; k < p->n_classes; k++)
			p->classes[k].runq_hist = p->classes[k].futex_hist = NULL;
		dst->n_groups++;
		err = sched_hist_merge(&p->total.runq_hist, src->groups[i].total.runq_hist) ?:
		      sched_hist_merge(&p->total.futex_hist, src->groups[i].total.futex_hist);
		for (int k = 0; k < p->n_classes && !err; k++)
			err = sched_hist_merge(&p->classes[k].runq_hist, src->groups[i].classes[k].runq_hist) ?:
			      sched_hist_merge(&p->classes[k].futex_hist, src->groups[i].classes[k].futex_hist);
		if (err) {
			sched_interval_free(dst);
			return err;
		}
	}
	return 0;
}
