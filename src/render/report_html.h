/* `dbtrace report`: one capture as one self-contained HTML page: the
 * findings with their evidence, a per-CPU x time heatmap of softirq share
 * (canvas, drawn by inline script from data embedded in the page), the
 * per-CPU, thread-class, network and clock tables, and the latency
 * histograms of devices and ports as inline SVG. Inline CSS and script
 * only, and a Content-Security-Policy that forbids any fetch, so the page
 * can be attached to a ticket and opened anywhere. Sections the capture
 * lacks say so. Pure: writes into a FILE. */
#ifndef DBTRACE_RENDER_REPORT_HTML_H
#define DBTRACE_RENDER_REPORT_HTML_H

#include <stdbool.h>
#include <stdio.h>
#include "capture/capture_read.h"

/* Time columns of the heatmap at most; longer captures are averaged into
 * this many columns. */
#define REPORT_HEAT_COLUMNS 600

struct report_opts {
	int top_n;                     /* thread classes, devices and ports shown */
	bool all;                      /* every thread class: none folded into "other" */
	const char *generator;         /* "dbtrace 0.1.0" */
	/* captures of other hosts, joined with this one's ports (section
	 * "Hosts joined"); n_others 0: none */
	const struct capture *const *others;
	int n_others;
};

/* Returns 0 or -EIO. */
int report_html_write(FILE *f, const struct capture *cap, const struct report_opts *opts);

#endif
