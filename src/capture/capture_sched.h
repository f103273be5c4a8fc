/* The sched section of a capture (docs/capture-schema.md): "processes",
 * each group with its classes, of an interval or the whole capture, and
 * "groups", how the summary's rows were formed. Written and read back
 * here as a pair; a class's figures are the table's
 * (figures/figures_classes.c), walked by capture_figures.c. */
#ifndef DBTRACE_CAPTURE_CAPTURE_SCHED_H
#define DBTRACE_CAPTURE_CAPTURE_SCHED_H

#include "model/proc_group.h"
#include "model/sched_summary.h"

struct json_object;
struct capture_interval;

/* At most this many groups (by on-CPU time) per interval and in the
 * summary, so a busy host does not make a capture of gigabytes; the number
 * left out is recorded. */
#define CAPTURE_MAX_PROCS 64

/* Adds "processes" (the busiest CAPTURE_MAX_PROCS of groups, and the
 * recorded command's, load_pid, wherever it ranks, marked "load"; 0:
 * none) and "processes_omitted" to o. */
void capture_sched_write(struct json_object *o, const struct sched_group_stats *groups, int n, int load_pid);
/* "groups": how each of the summary's processes rows was formed (the
 * recorded command's "command", marked "load"). */
struct json_object *capture_sched_groups(const struct proc_group_log *log, const struct sched_summary *s,
					 int load_pid);

/* A "processes" array back into s (rates over seconds). 0 or -ENOMEM. */
int capture_sched_read(struct json_object *a, struct sched_summary *s, double seconds);
/* The classes of an interval's "processes" that carry a wall-time
 * budget, as the report draws them over time. 0 or -ENOMEM. */
int capture_sched_read_interval(struct json_object *procs, struct capture_interval *iv);

#endif
