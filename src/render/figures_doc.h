/* The field tables of docs/capture-schema.md, the metrics table of
 * docs/metrics.md and the diff's metrics in docs/diff.md, made from the
 * sections' tables of figures (figures/figures.h), the exporter's
 * families (render/prom_families.h) and diff's sections
 * (capture/capture_diff.h) rather than written by hand: each block
 * between a marker `<!-- figures: SECTION -->` (or `<!-- figures:
 * metrics -->`, `<!-- figures: diff -->`) and `<!-- /figures -->` is
 * that table. `make docs`
 * rewrites the files (scripts/gen_docs.c); tests/unit/test_figures_doc.c
 * fails when a committed file differs. Pure: text in, text out. */
#ifndef DBTRACE_RENDER_FIGURES_DOC_H
#define DBTRACE_RENDER_FIGURES_DOC_H

#include <stdio.h>
#include "figures/figure.h"

/* t as a markdown table: | field | unit | meaning |, a row per member
 * (keyed members as `name.<key>`, an object's members after it). */
void figures_doc_table(FILE *f, const struct fig_table *t);

/* The exporter's families as a markdown table: | name | type | labels |
 * meaning |. */
void figures_doc_metrics(FILE *f);

/* diff's rows (capture/capture_diff.h: each section's tables) as a
 * markdown table: | section | metric | unit | a rise is | same within |. */
void figures_doc_diff(FILE *f);

/* Writes text (len bytes) to out with every marked block replaced by its
 * section's table (sections: n tables). Returns 0, or -EINVAL for a
 * marker that names no section or is not closed. */
int figures_doc_update(FILE *out, const char *text, size_t len, const struct fig_table *const *sections,
		       int n);

#endif
