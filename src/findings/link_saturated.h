/* link_saturated: a device carries more than 90% of its link speed for
 * several seconds in a row, so throughput cannot grow past it (field
 * case: a gigabit port at 117 MB/s). Devices without a known speed
 * (virtual ones) are never judged. */
#ifndef DBTRACE_FINDINGS_LINK_SATURATED_H
#define DBTRACE_FINDINGS_LINK_SATURATED_H

#include <stdbool.h>
#include <stdint.h>
#include "findings/finding.h"
#include "model/net_model.h"

struct linksat_config {
	double util_pct;               /* default 90 (% of the link speed, busier direction) */
	double min_s;                  /* default 3: seconds in a row above it */
};

void linksat_config_default(struct linksat_config *cfg);

/* How long each device has been above the threshold, across intervals. */
struct linksat_state {
	struct linksat_dev {
		uint32_t netns;
		char name[16];
		double above_s;
		int since;                 /* first interval of the run */
		bool seen;                 /* in the latest interval */
	} *dev;
	int n;
	size_t cap;
};

void linksat_state_free(struct linksat_state *st);

/* Adds the window to each device's run above the threshold (a window
 * below it, or a device absent from it, ends the run) and raises a
 * finding for every run of at least min_s seconds, tagged with the run's
 * first interval and interval_index. Returns 0 or -ENOMEM. */
int link_saturated_check(const struct net_interval *iv, const struct linksat_config *cfg,
			 struct linksat_state *st, int interval_index, struct finding_list *out);

#endif
