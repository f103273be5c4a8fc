/* The few lines `dbtrace record` prints on stderr when its command ends:
 * how long it ran and how, the findings (most severe first), the busiest
 * thread classes and the ports with their response times. The capture
 * and the report hold the rest. Pure: the run's summary in, text out. */
#ifndef DBTRACE_RENDER_RECORD_SUMMARY_H
#define DBTRACE_RENDER_RECORD_SUMMARY_H

#include <stdio.h>
#include "findings/finding.h"
#include "model/net_model.h"
#include "model/sched_summary.h"

/* Rows per section. */
#define RECORD_SUMMARY_ROWS 5

struct record_summary {
	const char *program;                 /* the command's argv[0] */
	const char *ended;                   /* "exit 0", "killed by SIGKILL", ... */
	double duration_s;                   /* the window */
	const struct finding_list *findings;
	const struct sched_summary *sched;   /* NULL: the family was off */
	const struct net_interval *net;      /* NULL: the net family was off */
	int load_pid;                        /* the command's group: marked "(load)" */
};

/* Writes the summary to f. Returns 0 or -EIO. */
int record_summary_print(FILE *f, const struct record_summary *s);

#endif
