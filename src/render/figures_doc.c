#define _GNU_SOURCE
#include "render/figures_doc.h"
#include "render/prom_families.h"
#include "capture/capture_diff.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define MARK_OPEN "<!-- figures: "
#define MARK_OPEN_END " -->"
#define MARK_CLOSE "<!-- /figures -->"
/* the exporter's families (render/prom_families.h) */
#define MARK_METRICS "metrics"
/* diff's rows (capture/capture_diff.h) */
#define MARK_DIFF "diff"

/* What a member is, when its unit does not say it. */
static const char *kind(const struct figure *f)
{
	if (f->unit && f->unit[0])
		return f->unit;
	switch (f->type) {
	case FIG_INT:
	case FIG_COUNT:
	case FIG_U32:
	case FIG_LONG:
		return "count";
	case FIG_U16:
		return "port";
	case FIG_NUM:
		return "number";
	case FIG_NS:
		return "s";
	case FIG_TEXT:
		return "text";
	case FIG_HIST:
		return "histogram";
	case FIG_OBJECT:
		return "object";
	default:
		return "list";
	}
}

static void rows(FILE *f, const struct fig_table *t, const char *prefix)
{
	for (int i = 0; i < t->n; i++) {
		const struct figure *fig = &t->figs[i];
		char name[160];

		if (fig->view_only)
			continue;
		if (fig->keys && fig->keys->inline_members)
			snprintf(name, sizeof(name), "%s%s", prefix, fig->keys->doc_name);
		else if (fig->keys)
			snprintf(name, sizeof(name), "%s%s.%s", prefix, fig->name, fig->keys->doc_name);
		else
			snprintf(name, sizeof(name), "%s%s", prefix, fig->name);
		fprintf(f, "| `%s` | %s | %s |\n", name, kind(fig), fig->doc ? fig->doc : "");
		if (fig->type == FIG_OBJECT && !fig->sub->section) {
			char sub[160];

			snprintf(sub, sizeof(sub), "%s%s.", prefix, fig->name);
			rows(f, fig->sub, sub);
		}
	}
}

void figures_doc_table(FILE *f, const struct fig_table *t)
{
	fputs("| field | unit | meaning |\n| --- | --- | --- |\n", f);
	rows(f, t, "");
}

void figures_doc_metrics(FILE *f)
{
	fputs("| name | type | labels | meaning |\n| --- | --- | --- | --- |\n", f);
	for (int i = 0; i < prom_n_families; i++) {
		const struct prom_family *fam = &prom_families[i];

		fprintf(f, "| `%s` | %s | %s | %s |\n", fam->name, fam->type, fam->labels, fam->doc);
	}
}

/* "10 points or 10%": the change diff calls the same. */
static void noise(char *buf, size_t len, const struct figure *f, const struct fig_diff *d)
{
	const char *u = f->unit ? f->unit : "", *sep = !strcmp(u, "%") ? d->abs_floor == 1 ? " point" : " points" : "";
	char a[48];

	if (!strcmp(u, "%"))
		u = "";
	else if (u[0] && strcmp(u, "/s"))
		sep = " ";
	snprintf(a, sizeof(a), "%g%s%s", d->abs_floor, sep, u);
	if (d->abs_floor > 0 && d->rel_floor > 0)
		snprintf(buf, len, "%s or %g%%", a, 100 * d->rel_floor);
	else if (d->abs_floor > 0)
		snprintf(buf, len, "%s", a);
	else if (d->rel_floor > 0)
		snprintf(buf, len, "%g%%", 100 * d->rel_floor);
	else
		snprintf(buf, len, "no change");
	if (d->shown_from > 0) {
		size_t at = strlen(buf);

		snprintf(buf + at, len - at, "; a row only where either side reaches %g", d->shown_from);
	}
}

void figures_doc_diff(FILE *f)
{
	fputs("| section | metric | unit | a rise is | same within |\n| --- | --- | --- | --- | --- |\n", f);
	for (int s = 0; s < CDIFF_SECTIONS; s++)
		for (int k = 0; k < 2 && cdiff_sections[s].tables[k]; k++) {
			struct fig_ref refs[64];
			int n = figure_diff_rows(cdiff_sections[s].tables[k], refs, 64);

			for (int i = 0; i < n && i < 64; i++) {
				const struct fig_ref *r = &refs[i];
				const char *key = r->f->keys ? r->f->keys->doc_name : "";
				char metric[64], same[160];

				if (r->f->keys && r->key)   /* a keyed figure: one row for its keys */
					continue;
				if (r->diff->metric)
					snprintf(metric, sizeof(metric), r->diff->metric, key);
				else if (r->f->keys)
					snprintf(metric, sizeof(metric), "%s.%s", r->f->name, key);
				else
					snprintf(metric, sizeof(metric), "%s", r->f->name);
				noise(same, sizeof(same), r->f, r->diff);
				fprintf(f, "| `%s` | `%s` | %s | %s | %s |\n", cdiff_sections[s].name, metric, kind(r->f),
					r->diff->better == FIG_LOWER	? "worse"
					: r->diff->better == FIG_HIGHER ? "better"
									: "up: no verdict",
					same);
			}
		}
}

static const struct fig_table *section(const struct fig_table *const *sections, int n, const char *name,
				       size_t len)
{
	for (int i = 0; i < n; i++)
		if (strlen(sections[i]->section) == len && !strncmp(sections[i]->section, name, len))
			return sections[i];
	return NULL;
}

static bool is_mark(const char *name, const char *name_end, const char *mark)
{
	return (size_t)(name_end - name) == strlen(mark) && !strncmp(name, mark, strlen(mark));
}

int figures_doc_update(FILE *out, const char *text, size_t len, const struct fig_table *const *sections,
		       int n)
{
	const char *at = text, *end = text + len;

	while (at < end) {
		const char *open = memmem(at, (size_t)(end - at), MARK_OPEN, strlen(MARK_OPEN));
		const char *name, *name_end, *close;
		const struct fig_table *t;
		bool metrics, diff;

		if (!open) {
			fwrite(at, 1, (size_t)(end - at), out);
			break;
		}
		name = open + strlen(MARK_OPEN);
		name_end = memmem(name, (size_t)(end - name), MARK_OPEN_END, strlen(MARK_OPEN_END));
		if (!name_end)
			return -EINVAL;
		t = section(sections, n, name, (size_t)(name_end - name));
		metrics = is_mark(name, name_end, MARK_METRICS);
		diff = is_mark(name, name_end, MARK_DIFF);
		close = memmem(name_end, (size_t)(end - name_end), MARK_CLOSE, strlen(MARK_CLOSE));
		if ((!t && !metrics && !diff) || !close)
			return -EINVAL;
		/* the marker line stays, the table follows it, the close ends it */
		name_end += strlen(MARK_OPEN_END);
		fwrite(at, 1, (size_t)(name_end - at), out);
		fputc('\n', out);
		if (t)
			figures_doc_table(out, t);
		else if (metrics)
			figures_doc_metrics(out);
		else
			figures_doc_diff(out);
		at = close;
		fwrite(at, 1, strlen(MARK_CLOSE), out);
		at += strlen(MARK_CLOSE);
	}
	return ferror(out) ? -EIO : 0;
}
