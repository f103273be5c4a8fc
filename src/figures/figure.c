#define _GNU_SOURCE
#include "figures/figure.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

bool figure_known(const struct figure *f, const void *row, int key, const void *ctx)
{
	return !f->known || f->known(row, key, ctx);
}

const char *figure_text(const struct fig_table *t, const struct figure *f, const void *row, const void *ctx,
			char *buf, size_t len)
{
	if (!figure_known(f, row, 0, ctx))
		return NULL;
	return t->text(f, row, ctx, buf, len);
}

int figure_n_values(const struct figure *f)
{
	return f->keys ? f->keys->n : 1;
}

const char *figure_key_name(const struct figure *f, int key)
{
	return f->keys ? f->keys->name(key) : NULL;
}

double figure_value(const struct figure *f, const void *row, int key)
{
	const char *at = (const char *)row + f->offset;

	if (!figure_known(f, row, key, NULL))
		return NAN;
	if (f->get)
		return f->get(row, key);
	switch (f->type) {
	case FIG_NUM:
		return ((const double *)at)[key];
	case FIG_INT:
		return ((const int *)at)[key];
	case FIG_COUNT:
		return (double)((const uint64_t *)at)[key];
	case FIG_U32:
		return ((const uint32_t *)at)[key];
	case FIG_U16:
		return ((const uint16_t *)at)[key];
	case FIG_LONG:
		return ((const long *)at)[key] >= 0 ? (double)((const long *)at)[key] : NAN;
	case FIG_NS:
		return (double)((const uint64_t *)at)[key] / 1e9;
	default:
		return NAN;
	}
}

const struct figure *figure_find(const struct fig_table *t, const char *name)
{
	for (int i = 0; i < t->n; i++)
		if (!strcmp(t->figs[i].name, name))
			return &t->figs[i];
	return NULL;
}

/* --- places in the views --------------------------------------------- */

enum place { PLACE_TOP, PLACE_REPORT, PLACE_DIFF };

struct walk {
	enum place place;
	struct fig_ref *out;
	int max, n, seq;
	int *seqs;                     /* table order of each ref found, for ties */
	int *ats;
};

static void found(struct walk *w, const struct figure *f, int key, int at, const struct fig_col *top,
		  const struct fig_report *report, const struct fig_diff *diff)
{
	if (w->n < w->max) {
		w->out[w->n] = (struct fig_ref){ f, key, top, report, diff };
		w->ats[w->n] = at;
		w->seqs[w->n] = w->seq;
	}
	w->seq++;
	w->n++;
}

static void walk_figures(struct walk *w, const struct figure *figs, int n)
{
	for (int i = 0; i < n; i++) {
		const struct figure *f = &figs[i];

		if (f->type == FIG_OBJECT) {
			if (!f->sub->section)   /* a section of its own has views of its own */
				walk_figures(w, f->sub->figs, f->sub->n);
			continue;
		}
		for (int k = 0; k < figure_n_values(f); k++) {
			const struct fig_col *top = f->key_views ? &f->key_views[k].top : &f->top;
			const struct fig_report *rep = f->key_views ? &f->key_views[k].report : &f->report;

			if (w->place == PLACE_TOP && top->title)
				found(w, f, k, top->at, top, rep, &f->diff);
			else if (w->place == PLACE_REPORT && rep->title)
				found(w, f, k, rep->at, top, rep, &f->diff);
			else if (w->place == PLACE_DIFF && f->diff.better)
				found(w, f, k, f->diff.at, top, rep, &f->diff);
		}
	}
}

static int by_place(const void *a, const void *b, void *arg)
{
	const struct walk *w = arg;
	int x = *(const int *)a, y = *(const int *)b;

	if (w->ats[x] != w->ats[y])
		return w->ats[x] < w->ats[y] ? -1 : 1;
	return (w->seqs[x] > w->seqs[y]) - (w->seqs[x] < w->seqs[y]);
}

static int places(const struct fig_table *t, enum place place, struct fig_ref *out, int max)
{
	struct walk w = { place, out, max, 0, 0, NULL, NULL };
	struct fig_ref *sorted;
	int *order, kept;

	w.seqs = calloc((size_t)(max > 0 ? max : 1), sizeof(int));
	w.ats = calloc((size_t)(max > 0 ? max : 1), sizeof(int));
	order = calloc((size_t)(max > 0 ? max : 1), sizeof(int));
	sorted = calloc((size_t)(max > 0 ? max : 1), sizeof(*sorted));
	if (!w.seqs || !w.ats || !order || !sorted) {
		free(w.seqs);
		free(w.ats);
		free(order);
		free(sorted);
		return -1;
	}
	walk_figures(&w, t->figs, t->n);
	kept = w.n < max ? w.n : max;
	for (int i = 0; i < kept; i++)
		order[i] = i;
	qsort_r(order, (size_t)kept, sizeof(*order), by_place, &w);
	for (int i = 0; i < kept; i++)
		sorted[i] = out[order[i]];
	memcpy(out, sorted, sizeof(*out) * (size_t)kept);
	free(w.seqs);
	free(w.ats);
	free(order);
	free(sorted);
	return w.n;
}

int figure_top_cols(const struct fig_table *t, struct fig_ref *out, int max)
{
	return places(t, PLACE_TOP, out, max);
}

int figure_report_cols(const struct fig_table *t, struct fig_ref *out, int max)
{
	return places(t, PLACE_REPORT, out, max);
}

int figure_diff_rows(const struct fig_table *t, struct fig_ref *out, int max)
{
	return places(t, PLACE_DIFF, out, max);
}
