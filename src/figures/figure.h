/* A figure declared once: its name in the capture, its unit, what it
 * means, where the model keeps it, how diff judges a change of it, and
 * where the report and top show it. One table per section of the
 * capture (figures/figures.h) lists its figures in the order the capture
 * writes them; the capture writer and reader, diff, the report's tables,
 * top's columns and docs/capture-schema.md walk the table instead of
 * naming each figure again. Pure: data and the accessors that read a
 * figure's value out of a row. */
#ifndef DBTRACE_FIGURES_FIGURE_H
#define DBTRACE_FIGURES_FIGURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* How a figure's value is kept in its row (at offset). */
enum fig_type {
	FIG_NUM,                       /* double; NAN: not measured (null in a capture) */
	FIG_INT,                       /* int */
	FIG_COUNT,                     /* uint64_t */
	FIG_U32,                       /* uint32_t count */
	FIG_U16,                       /* uint16_t (a port) */
	FIG_LONG,                      /* long: a setting read from the host; negative: unknown (null) */
	FIG_NS,                        /* uint64_t nanoseconds, written as seconds */
	FIG_TEXT,                      /* text, made and read back by the table's text functions */
	FIG_HIST,                      /* a fine histogram (dbtrace/hist.h): __u64[DBT_HIST_BUCKETS] */
	FIG_OBJECT,                    /* an object of the figures of sub */
	FIG_CUSTOM,                    /* a list or object the capture writes and reads with its own
					  code (capture/capture_figures.h), by custom */
};

/* A figure kept once per key (per softirq vector, per state, per kind),
 * in an array at its offset: an object with one member a key, or, for
 * inline keys, those members in the enclosing object itself. */
struct fig_keys {
	int n;
	const char *(*name)(int key);  /* the member's name */
	const char *doc_name;          /* "<vector>": how the docs write any member */
	bool inline_members;
};

/* How diff judges a change: which way is better, and the change that
 * is still noise (absolute, and relative to the larger value). */
enum fig_better { FIG_NEUTRAL = 1, FIG_LOWER, FIG_HIGHER };

struct fig_diff {
	enum fig_better better;        /* 0: diff does not compare it */
	double abs_floor, rel_floor;
	double shown_from;             /* > 0: no row unless either side reaches it */
	const char *metric;            /* its row's name when not the figure's; "%s": the key */
	int at;                        /* its place among the section's rows (0: table order) */
};

/* A column of top's text table. */
struct fig_col {
	char key;                      /* sort key; 0: not sortable */
	const char *title;             /* NULL: not a column */
	int width, decimals;
	int at;                        /* its place among the view's columns */
	/* what the key sorts by when not the value shown (both directions
	 * of a device); NULL: the value */
	double (*sort)(const void *row);
};

/* A column of the report's table. */
struct fig_report {
	const char *title;             /* NULL: not in the report */
	int at;                        /* its place among the table's columns */
};

/* What one key of a keyed figure shows as, where it differs per key. */
struct fig_key_view {
	struct fig_col top;
	struct fig_report report;
};

struct fig_table;

struct figure {
	const char *name;              /* its member in the capture; the diff's row name */
	const char *unit;              /* "%", "/s", "µs", "s", "" */
	const char *doc;               /* its meaning, for docs/capture-schema.md */
	enum fig_type type;
	size_t offset;                 /* of its value in the row (of the first, keyed) */
	const struct fig_keys *keys;   /* NULL: one value */
	bool view_only;                /* not in the capture: only the views show it */
	/* NULL: known; false: the value of key (an object: the whole
	 * object) is null, not measured. ctx: the section's (NULL in the
	 * views) */
	bool (*known)(const void *row, int key, const void *ctx);
	/* a number made, not kept at offset */
	double (*get)(const void *row, int key);
	/* the value of this row rests on a sample (a histogram timed one
	 * measurement in sixteen under load): top marks it with '~' */
	bool (*sampled)(const void *row);
	/* FIG_OBJECT: the members, of the same row; a table with a section
	 * name is a section of its own, which views of this one leave out */
	const struct fig_table *sub;
	/* FIG_HIST: the offset of its count of measurements really timed
	 * (SIZE_MAX: every one is), what one timed measurement counts for,
	 * and whether the row holds a pointer to the buckets (NULL: null) */
	size_t timed_offset;
	int sample_weight;
	bool by_pointer;
	/* FIG_CUSTOM: which (enum fig_custom); FIG_TEXT: which text, as
	 * the table's text functions number them */
	int which;
	struct fig_diff diff;
	struct fig_col top;
	struct fig_report report;
	const struct fig_key_view *key_views;   /* per key, keyed figures' columns */
};

/* A section's figures: the members of one capture object, in order. */
struct fig_table {
	const char *section;           /* "classes", "time", ...: the docs' marker; NULL: part of one */
	const struct figure *figs;
	int n;
	/* FIG_TEXT: the text of figure f of row (NULL: null; buf: room the
	 * text may be made in), and reading it back; ctx: the section's (a
	 * capture's vDSO function names) */
	const char *(*text)(const struct figure *f, const void *row, const void *ctx, char *buf, size_t len);
	void (*parse)(const struct figure *f, void *row, const char *text, void *ctx);
};

/* The figures of a table: t->figs[0 .. t->n). */
#define FIG_TABLE(name_, figs_) { name_, figs_, (int)(sizeof(figs_) / sizeof((figs_)[0])), NULL, NULL }

/* The figure's value in row (key: its key, 0 for one value) as a
 * number: NAN when unknown or not a number. */
double figure_value(const struct figure *f, const void *row, int key);
/* Whether row has the figure's value of key (its known() test). */
bool figure_known(const struct figure *f, const void *row, int key, const void *ctx);
/* The text of a FIG_TEXT figure of t (NULL: null), made in buf. */
const char *figure_text(const struct fig_table *t, const struct figure *f, const void *row, const void *ctx,
			char *buf, size_t len);
/* The figure named name of t, NULL when there is none. */
const struct figure *figure_find(const struct fig_table *t, const char *name);
/* How many values the figure holds: its keys, or 1. */
int figure_n_values(const struct figure *f);
/* The key's name of a keyed figure, else NULL. */
const char *figure_key_name(const struct figure *f, int key);

/* A place in a view: a figure of a table, with one of its keys. */
struct fig_ref {
	const struct figure *f;
	int key;
	const struct fig_col *top;
	const struct fig_report *report;
	const struct fig_diff *diff;
};

/* The figures (and keys) of t that have a place in top's view, the
 * report's table or diff's rows, sorted by it (table order for equal
 * places). Writes at most max, returns how many there are. */
int figure_top_cols(const struct fig_table *t, struct fig_ref *out, int max);
int figure_report_cols(const struct fig_table *t, struct fig_ref *out, int max);
int figure_diff_rows(const struct fig_table *t, struct fig_ref *out, int max);

#endif
