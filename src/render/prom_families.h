/* Every metric family of `dbtrace serve` declared once, in the order of
 * the exposition: its name, type, HELP text, labels and meaning (the
 * table of docs/metrics.md is made from these: make docs), and how its
 * samples are read from the running totals. render/prom_exposition.c
 * walks this. Pure. */
#ifndef DBTRACE_RENDER_PROM_FAMILIES_H
#define DBTRACE_RENDER_PROM_FAMILIES_H

#include <stdio.h>
#include "render/prom_exposition.h"

/* What a family's samples are written from. */
struct prom_out {
	const struct prom_totals *t;
	const struct prom_build *b;
	const struct prom_self *self;
	FILE *f;
};

struct prom_family {
	const char *name;
	const char *type;              /* "counter", "gauge", "histogram" */
	const char *help;              /* its # HELP line */
	const char *labels, *doc;      /* docs/metrics.md */
	/* its samples (which: the family, to a writer several share) */
	void (*samples)(const struct prom_family *fam, const struct prom_out *o);
	int which;
};

extern const struct prom_family prom_families[];
extern const int prom_n_families;

#endif
