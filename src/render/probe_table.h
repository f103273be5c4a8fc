/* The probe records as text: `dbtrace probes`'s table and the one-line
 * status of top and serve. */
#ifndef DBTRACE_RENDER_PROBE_TABLE_H
#define DBTRACE_RENDER_PROBE_TABLE_H

#include <stdio.h>
#include "core/probe_report.h"

/* FAMILY ATTACH REJECTED, one row per family; then every hook attached
 * with what it costs, the syscall tracepoints' slow-path warning first.
 * Returns 0 or -EIO. */
int probe_table_print(FILE *f, const struct probe_report *reps, int n);

/* "softirq=tp_btf sched=tp_btf ..." ("FAILED" for a family that did not
 * attach), cut to len. */
void probe_status_line(const struct probe_report *reps, int n, char *buf, unsigned len);

#endif
