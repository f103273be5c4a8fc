/* The pieces of the Prometheus text format (version 0.0.4) the
 * exposition writes its samples with: a label set built pair by pair
 * (values escaped and cut to valid UTF-8), a sample, a histogram on the
 * fixed bounds. Pure: writes into a FILE. */
#ifndef DBTRACE_RENDER_PROM_TEXT_H
#define DBTRACE_RENDER_PROM_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "metrics/prom_totals.h"

/* A label set "k1=\"v1\",k2=\"v2\"". */
struct lset {
	char s[768];
	size_t n;
};

void lset_clear(struct lset *l);
void lset_add(struct lset *l, const char *key, const char *value);
void lset_addf(struct lset *l, const char *key, const char *fmt, long v);

void prom_sample(FILE *f, const char *name, const struct lset *l, double v);
void prom_sample_u64(FILE *f, const char *name, const struct lset *l, uint64_t v);
/* One histogram series on the fixed bounds (metrics/prom_totals.h); the
 * last slot (above 10 s) only counts in +Inf. */
void prom_histogram(FILE *f, const char *name, const struct lset *l, const struct prom_hist *h);

#endif
