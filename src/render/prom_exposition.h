/* `dbtrace serve`'s metrics: the running totals (metrics/prom_totals.h)
 * as the Prometheus text exposition format (version 0.0.4). Counters are
 * the totals, so they never go down; distributions are the log2 µs slots
 * as cumulative histogram buckets; each kind with per-key series ends
 * with its "other" series. Names, types and labels: docs/metrics.md.
 * Pure: reads the totals, writes text. */
#ifndef DBTRACE_RENDER_PROM_EXPOSITION_H
#define DBTRACE_RENDER_PROM_EXPOSITION_H

#include <stdio.h>
#include "core/probe_report.h"
#include "metrics/prom_totals.h"

/* What the exposition says about the build, fixed at start. */
struct prom_build {
	const char *version;
	const struct probe_report *probes;   /* n_probes: family and attach path */
	int n_probes;
};

/* The exporter's own process, read by the caller. */
struct prom_self {
	double cpu_seconds;            /* user + system */
	double rss_bytes;
	double start_time_s;           /* since the Unix epoch */
};

/* Writes the whole exposition. Returns 0 or -EIO. */
int prom_render(const struct prom_totals *t, const struct prom_build *b, const struct prom_self *self,
		FILE *f);

/* Writes s as a label value: escaped as the format wants, and bytes that
 * are not valid UTF-8 (a comm cut in the middle of a character) as '?',
 * since one invalid byte makes Prometheus reject the whole scrape. */
void prom_label_value(FILE *f, const char *s);

/* The content type of the exposition, for the HTTP response. */
#define PROM_CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"

#endif
