/* `dbtrace serve`'s metrics: the model, fed one interval at a time, as the
 * Prometheus text exposition format (version 0.0.4). Counters are running
 * sums kept here since the exporter started, so they never go down;
 * distributions are the model's log2 µs slots as cumulative histogram
 * buckets. Cardinality is bounded: at most top_n thread classes, ports,
 * devices and findings have series of their own, the rest is summed into
 * "other" series. Names, types and labels: docs/metrics.md. Pure. */
#ifndef DBTRACE_RENDER_PROM_EXPOSITION_H
#define DBTRACE_RENDER_PROM_EXPOSITION_H

#include <stdio.h>
#include "session/interval.h"

#define PROM_MAX_PROBES 8

struct prom_probe {
	char family[16];
	char attach[24];               /* "" when the family did not attach */
};

struct prom_config {
	int top_n;                     /* series of their own per kind */
	const char *version;
	struct prom_probe probes[PROM_MAX_PROBES];
	int n_probes;
};

/* The exporter's own process, read by the caller. */
struct prom_self {
	double cpu_seconds;            /* user + system */
	double rss_bytes;
	double start_time_s;           /* since the Unix epoch */
};

struct prom_state;

int prom_state_new(struct prom_state **out, const struct prom_config *cfg);
void prom_state_free(struct prom_state *st);

/* Adds one interval to the running sums. Returns 0 or -ENOMEM. */
int prom_state_add(struct prom_state *st, const struct interval_view *iv);

/* Writes the whole exposition. Returns 0 or -EIO. */
int prom_render(const struct prom_state *st, const struct prom_self *self, FILE *f);

/* Writes s as a label value: escaped as the format wants, and bytes that
 * are not valid UTF-8 (a comm cut in the middle of a character) as '?',
 * since one invalid byte makes Prometheus reject the whole scrape. */
void prom_label_value(FILE *f, const char *s);

/* The content type of the exposition, for the HTTP response. */
#define PROM_CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"

#endif
