/* io_bound: a thread class that spends much of its time in the kernel's
 * I/O wait (task in_iowait: reads, writes, fsync waiting on a device).
 * From the wall-time budget (model/class_time.h). */
#ifndef DBTRACE_FINDINGS_IO_BOUND_H
#define DBTRACE_FINDINGS_IO_BOUND_H

#include "findings/finding.h"
#include "model/sched_interval.h"

struct iobound_config {
	double disk_pct;               /* default 30: disk share of the class's thread time */
};

void iobound_config_default(struct iobound_config *cfg);

int io_bound_check(const struct sched_interval *iv, const struct iobound_config *cfg,
		   int interval_index, struct finding_list *out);

#endif
