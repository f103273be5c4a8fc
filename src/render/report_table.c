#include "render/report_table.h"

#include <math.h>
#include <stdio.h>

void report_esc(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: fputc(*s, f);
		}
	}
}

void report_fmt(char *buf, size_t len, double v)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (v == floor(v) || fabs(v) >= 1000)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, fabs(v) >= 10 ? "%.1f" : "%.2f", v);
}

void report_td_num(FILE *f, double v)
{
	char buf[32];

	report_fmt(buf, sizeof(buf), v);
	if (isfinite(v))
		fprintf(f, "<td class=\"n\" data-v=\"%.9g\">%s</td>", v, buf);
	else
		fprintf(f, "<td class=\"n na\" data-v=\"\">-</td>");
}

void report_td_text(FILE *f, const char *s)
{
	fputs("<td>", f);
	report_esc(f, s);
	fputs("</td>", f);
}

int report_table_cols(const struct report_own_col *own, int n_own, const struct fig_table *const *tables,
		      int n_tables, struct report_col *cols)
{
	int n = 0;

	for (int i = 0; i < n_own && n < REPORT_TABLE_COLS; i++)
		cols[n++] = (struct report_col){ own[i].title, own[i].at, &own[i], 0, { 0 } };
	for (int t = 0; t < n_tables; t++) {
		struct fig_ref refs[REPORT_TABLE_COLS];
		int nf = figure_report_cols(tables[t], refs, REPORT_TABLE_COLS);

		for (int i = 0; i < nf && i < REPORT_TABLE_COLS && n < REPORT_TABLE_COLS; i++)
			cols[n++] = (struct report_col){ refs[i].report->title, refs[i].report->at, NULL, t, refs[i] };
	}
	/* by place; insertion sort keeps equal places in order */
	for (int i = 1; i < n; i++)
		for (int k = i; k > 0 && cols[k - 1].at > cols[k].at; k--) {
			struct report_col tmp = cols[k];

			cols[k] = cols[k - 1];
			cols[k - 1] = tmp;
		}
	return n;
}

void report_table_head(FILE *f, const struct report_col *cols, int n)
{
	fputs("<thead><tr>", f);
	for (int i = 0; i < n; i++) {
		fputs("<th class=\"sortable\">", f);
		report_esc(f, cols[i].title);
		fputs("</th>", f);
	}
	fputs("</tr></thead>\n<tbody>\n", f);
}

void report_table_cells(FILE *f, const struct fig_table *const *tables, const struct report_col *cols, int n,
			const struct report_own *own, const void *const *rows, const void *ctx)
{
	for (int i = 0; i < n; i++) {
		const struct report_col *c = &cols[i];
		const void *row = c->own ? NULL : rows[c->source];
		char buf[256];
		const char *text;

		if (c->own && c->own->text)
			report_td_text(f, own->text[c->own->slot] ? own->text[c->own->slot] : "");
		else if (c->own)
			report_td_num(f, own->num[c->own->slot]);
		else if (!row)
			report_td_num(f, NAN);
		else if (c->ref.f->type != FIG_TEXT)
			report_td_num(f, figure_value(c->ref.f, row, c->ref.key));
		else {
			text = figure_text(tables[c->source], c->ref.f, row, ctx, buf, sizeof(buf));
			report_td_text(f, text ? text : "");
		}
	}
}
