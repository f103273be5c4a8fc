/* The attach path of each family on one line, for status lines. */
#ifndef DBTRACE_RENDER_PROBE_STATUS_H
#define DBTRACE_RENDER_PROBE_STATUS_H

#include "core/bpf_plan.h"

/* "softirq=tp_btf sched=tp_btf ..." ("FAILED" for a family that did not
 * attach), cut to len. */
void probe_status_line(const struct probe_report *reps, int n, char *buf, unsigned len);

#endif
