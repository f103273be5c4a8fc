/* Two captures side by side: per-CPU softirq shares, thread classes,
 * service ports, devices, the clock family and the findings, each row
 * with both values, the change and its direction. Direction says whether
 * the change is better or worse for the database (lower run-queue delay
 * is better), or only up or down where that is not a verdict (on-CPU
 * time, throughput of a device), and "same" when the change is within
 * the metric's noise (log2-histogram percentiles are coarse). Processes
 * are matched by command name (the second mysqld of a capture by its
 * rank), never by PID. Sections a capture lacks are marked so. Pure. */
#ifndef DBTRACE_CAPTURE_CAPTURE_DIFF_H
#define DBTRACE_CAPTURE_CAPTURE_DIFF_H

#include <stdbool.h>
#include "capture/capture_read.h"
#include "figures/figure.h"

enum cdiff_dir {
	CDIFF_SAME,
	CDIFF_BETTER,
	CDIFF_WORSE,
	CDIFF_UP,                      /* a change that is no verdict */
	CDIFF_DOWN,
	CDIFF_CHANGED,                 /* a text that differs (a qdisc) */
	CDIFF_NEW,                     /* only in the after capture */
	CDIFF_GONE,                    /* only in the before capture */
	CDIFF_DIRS
};

enum cdiff_section_id {
	CDIFF_SOFTIRQ,
	CDIFF_CLASSES,
	CDIFF_PORTS,
	CDIFF_DEVICES,
	CDIFF_CLOCK,
	CDIFF_FINDINGS,
	CDIFF_OVERHEAD,
	CDIFF_JOINED,                  /* ports joined across several hosts' captures */
	CDIFF_SECTIONS
};

struct cdiff_row {
	char key[96];                  /* "cpu1", "mysqld/TNT_L0_1002", "3306/server", "eth0" */
	char metric[32];               /* "net_rx_pct", "runq_p99_us", "severity", "qdisc" */
	double before, after;          /* NAN: not in that capture or not measured */
	double change;                 /* after - before; NAN unless both are numbers */
	double change_pct;             /* of before; NAN when before is 0 or not a number */
	bool is_text;                  /* compares the texts below instead */
	char before_text[96], after_text[96];
	char note[200];                /* a finding's title */
	enum cdiff_dir dir;
};

/* What a section is: its name, its title and the tables of figures
 * whose diff rows (figures/figure.h: struct fig_diff) it compares, in
 * that order; docs/diff.md's table of metrics is made from them. */
struct cdiff_section_def {
	const char *name;              /* "softirq", "classes", ... (JSON keys) */
	const char *title;             /* for a person */
	const struct fig_table *tables[2];   /* NULL: none (findings: severities) */
};

extern const struct cdiff_section_def cdiff_sections[CDIFF_SECTIONS];

struct cdiff_section {
	const char *name;              /* "softirq", "classes", ... (JSON keys) */
	const char *title;             /* for a person */
	bool in_before, in_after;      /* the capture had the section */
	struct cdiff_row *rows;
	int n;
	size_t cap;
};

struct capture_diff {
	struct cdiff_section sec[CDIFF_SECTIONS];
	int count[CDIFF_DIRS];         /* rows per direction */
};

struct cdiff_opts {
	int top_n;                     /* classes, ports, devices, clock rows kept */
	/* other hosts' captures on each side, joined with the first's ports
	 * (model/net_join.h: the "joined" section); NULL: none */
	const struct capture *const *before_others, *const *after_others;
	int n_before_others, n_after_others;
};

/* Returns 0 or -ENOMEM. */
int capture_diff_compute(const struct capture *before, const struct capture *after,
			 const struct cdiff_opts *opts, struct capture_diff *d);
void capture_diff_free(struct capture_diff *d);

const char *cdiff_dir_name(enum cdiff_dir dir);   /* "same", "better", ... */

/* The row of a section with this key and metric, NULL when absent. */
const struct cdiff_row *cdiff_find(const struct capture_diff *d, enum cdiff_section_id sec,
				   const char *key, const char *metric);

#endif
