/* What top's two views of thread classes share (the class view,
 * render/class_table.h, and the time view, render/time_table.h): one row
 * per class of a group, the row's own columns (pid, comm, class, ...)
 * and the columns of a section's figures (figures/figures.h) that have a
 * place in top, merged by their places, sorted by any sortable column,
 * the key help made from the columns. Pure: formats into buffers. */
#ifndef DBTRACE_RENDER_CLASS_VIEW_H
#define DBTRACE_RENDER_CLASS_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include "figures/figures.h"
#include "render/fig_cols.h"
#include "model/class_rank.h"
#include "model/sched_interval.h"

/* The row's own columns (render/fig_cols.h, by id). */
enum class_who { WHO_PID = 1, WHO_COMM, WHO_CLASS, WHO_THREADS, WHO_PROCS };

struct class_view {
	const struct fig_table *figs;
	const struct fig_own_col *who;
	int n_who;
	char default_key;
	const char *help_tail;         /* after the sort keys: "v time view  q quit" */
	size_t text_len;               /* room for a text cell (longer is cut) */
	bool timed_only;               /* rows of classes with thread time only */
};

bool class_view_valid_key(const struct class_view *v, char key);
/* "sort: p PID  t THR ...", then the tail. */
const char *class_view_key_help(const struct class_view *v, char *buf, size_t len);
void class_view_header(const struct class_view *v, char *buf, size_t len, char sort_key);
/* A row; the "other" row (no group) shows "-" for the group's columns. */
void class_view_row(const struct class_view *v, char *buf, size_t len, const struct class_row *r);

/* The rows a view lists. */
struct class_rows {
	struct class_row *row;         /* n: the classes shown, then the "other" row when folded */
	int n;
	int folded;                    /* classes the "other" row folds (model/class_rank.h) */
	struct class_ranking rank;     /* what row points into */
};

/* The interval's classes ranked by cost (model/class_rank.h), the ones
 * worth showing sorted by the column of sort_key (the view's default
 * when none has it), highest first, ties by pid and class name, then one
 * "other (N classes)" row for the rest; all: every class, sorted, and no
 * "other" row. Returns 0 or -ENOMEM; free with class_rows_free(). */
int class_view_rows(const struct class_view *v, const struct sched_interval *iv, char sort_key, bool all,
		    struct class_rows *out);
void class_rows_free(struct class_rows *r);

#endif
