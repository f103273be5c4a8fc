#include "render/diff_table.h"

#include <errno.h>
#include <math.h>
#include <string.h>

/* Numbers as a person reads them: fewer decimals the larger they are. */
static void fmt_num(char *buf, size_t len, double v, bool sign)
{
	const char *fmt;

	if (isnan(v)) {
		snprintf(buf, len, "-");
		return;
	}
	fmt = v == floor(v) || fabs(v) >= 1000 ? (sign ? "%+.0f" : "%.0f")
	      : fabs(v) >= 10 ? (sign ? "%+.1f" : "%.1f") : (sign ? "%+.2f" : "%.2f");
	snprintf(buf, len, fmt, v);
}

static void capture_line(FILE *f, const char *label, const struct capture *c)
{
	char dur[32];

	fmt_num(dur, sizeof(dur), c->duration_s, false);
	fprintf(f, "%-7s %s  host %s  kernel %s  started %s  %s s%s%s%s\n", label, c->path,
		c->host.hostname[0] ? c->host.hostname : "?", c->host.kernel[0] ? c->host.kernel : "?",
		c->started_at[0] ? c->started_at : "?", dur,
		c->have_complete && !c->complete ? " (cut short by " : "",
		c->have_complete && !c->complete ? (c->stop_reason[0] ? c->stop_reason : "a signal") : "",
		c->have_complete && !c->complete ? ")" : "");
}

static int key_width(const struct cdiff_section *s)
{
	int w = 6;

	for (int i = 0; i < s->n; i++) {
		int l = (int)strlen(s->rows[i].key);

		w = l > w ? l : w;
	}
	return w > 40 ? 40 : w;
}

/* key is "" on the rows after the first of a group */
static void text_row(FILE *f, const struct cdiff_row *r, const char *key, int kw)
{
	char before[32], after[32], change[64] = "";

	if (r->is_text) {
		fprintf(f, "  %-*.*s  %-22s  %s -> %s  %s%s%s\n", kw, kw, key, r->metric,
			r->before_text[0] ? r->before_text : "-", r->after_text[0] ? r->after_text : "-",
			cdiff_dir_name(r->dir), r->note[0] ? "  " : "", r->note);
		return;
	}
	fmt_num(before, sizeof(before), r->before, false);
	fmt_num(after, sizeof(after), r->after, false);
	if (!isnan(r->change)) {
		char c[32], p[32] = "";

		fmt_num(c, sizeof(c), r->change, true);
		if (!isnan(r->change_pct) && r->change != 0)
			snprintf(p, sizeof(p), " (%+.0f%%)", r->change_pct);
		snprintf(change, sizeof(change), "%s%s", c, p);
	}
	fprintf(f, "  %-*.*s  %-22s %10s %10s  %-18s %s\n", kw, kw, key, r->metric, before, after,
		change, cdiff_dir_name(r->dir));
}

int diff_table_text(FILE *f, const struct capture *a, const struct capture *b,
		    const struct capture_diff *d)
{
	int shown = 0;

	capture_line(f, "before:", a);
	capture_line(f, "after:", b);
	for (int i = 0; i < CDIFF_SECTIONS; i++) {
		const struct cdiff_section *s = &d->sec[i];
		int kw = key_width(s);

		fprintf(f, "\n%s\n", s->title);
		if (!s->in_before || !s->in_after) {
			fprintf(f, "  (%s)\n", !s->in_before && !s->in_after ? "in neither capture"
					       : !s->in_before ? "not in the before capture"
							       : "not in the after capture");
		}
		if (!s->n) {
			if (s->in_before || s->in_after)
				fprintf(f, "  (nothing to compare)\n");
			continue;
		}
		if (i == CDIFF_FINDINGS)
			fprintf(f, "  %-*s  %-22s  %s\n", kw, "SUBJECT", "ID", "BEFORE -> AFTER  DIRECTION  TITLE");
		else
			fprintf(f, "  %-*s  %-22s %10s %10s  %-18s %s\n", kw, "KEY", "METRIC", "BEFORE", "AFTER",
				"CHANGE", "DIRECTION");
		for (int k = 0; k < s->n; k++)
			text_row(f, &s->rows[k], k && !strcmp(s->rows[k - 1].key, s->rows[k].key) ? ""
						 : s->rows[k].key, kw);
		shown += s->n;
	}
	fprintf(f, "\n%d rows:", shown);
	for (int i = 0; i < CDIFF_DIRS; i++)
		if (d->count[i])
			fprintf(f, " %d %s", d->count[i], cdiff_dir_name(i));
	fputc('\n', f);
	return ferror(f) ? -EIO : 0;
}

/* --- JSON ------------------------------------------------------------- */

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", f);
		else if (*p == '\t')
			fputs("\\t", f);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

static void json_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.6g", v);
	else
		fputs("null", f);
}

static void json_text_or_null(FILE *f, const char *s)
{
	if (s[0])
		json_str(f, s);
	else
		fputs("null", f);
}

static void json_capture(FILE *f, const struct capture *c)
{
	fputs("{\"path\":", f);
	json_str(f, c->path);
	fputs(",\"hostname\":", f);
	json_str(f, c->host.hostname);
	fputs(",\"kernel\":", f);
	json_str(f, c->host.kernel);
	fputs(",\"started_at\":", f);
	json_str(f, c->started_at);
	fputs(",\"duration_s\":", f);
	json_num(f, c->duration_s);
	fputs(",\"version\":", f);
	json_str(f, c->version);
	fputc('}', f);
}

static void json_row(FILE *f, const struct cdiff_row *r)
{
	fputs("{\"key\":", f);
	json_str(f, r->key);
	fputs(",\"metric\":", f);
	json_str(f, r->metric);
	fputs(",\"before\":", f);
	if (r->is_text)
		json_text_or_null(f, r->before_text);
	else
		json_num(f, r->before);
	fputs(",\"after\":", f);
	if (r->is_text)
		json_text_or_null(f, r->after_text);
	else
		json_num(f, r->after);
	if (!r->is_text) {
		fputs(",\"change\":", f);
		json_num(f, r->change);
		fputs(",\"change_pct\":", f);
		json_num(f, r->change_pct);
	}
	fputs(",\"direction\":", f);
	json_str(f, cdiff_dir_name(r->dir));
	if (r->note[0]) {
		fputs(",\"title\":", f);
		json_str(f, r->note);
	}
	fputc('}', f);
}

int diff_table_json(FILE *f, const struct capture *a, const struct capture *b,
		    const struct capture_diff *d)
{
	fputs("{\"schema\":\"" DIFF_SCHEMA "\",\"before\":", f);
	json_capture(f, a);
	fputs(",\"after\":", f);
	json_capture(f, b);
	fputs(",\"sections\":{", f);
	for (int i = 0; i < CDIFF_SECTIONS; i++) {
		const struct cdiff_section *s = &d->sec[i];

		fprintf(f, "%s\"%s\":{\"title\":", i ? "," : "", s->name);
		json_str(f, s->title);
		fprintf(f, ",\"in_before\":%s,\"in_after\":%s,\"rows\":[", s->in_before ? "true" : "false",
			s->in_after ? "true" : "false");
		for (int k = 0; k < s->n; k++) {
			if (k)
				fputc(',', f);
			fputs("\n", f);
			json_row(f, &s->rows[k]);
		}
		fputs("]}", f);
	}
	fputs("},\n\"summary\":{", f);
	for (int i = 0; i < CDIFF_DIRS; i++)
		fprintf(f, "%s\"%s\":%d", i ? "," : "", cdiff_dir_name(i), d->count[i]);
	fputs("}}\n", f);
	return ferror(f) ? -EIO : 0;
}
