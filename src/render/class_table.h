/* The thread-class table as text, shared by `top` and `top --batch
 * --view classes`: the classes section's figures (figures/figures.h)
 * that have a place in top, beside each row's group. Pure: formats into
 * buffers. */
#ifndef DBTRACE_RENDER_CLASS_TABLE_H
#define DBTRACE_RENDER_CLASS_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include "model/sched_interval.h"
#include "render/class_view.h"

#define CLASS_TABLE_DEFAULT_SORT 'R'   /* runnable: the classes' cost, busiest first */

bool class_table_valid_key(char key);
const char *class_table_key_help(void);
void class_table_header(char *buf, size_t len, char sort_key);
void class_table_row(char *buf, size_t len, const struct class_row *r);

/* The interval's rows (render/class_view.h: the classes worth showing
 * sorted by the column, highest first, then the "other" row; all: every
 * class). Returns 0 or -ENOMEM; free with class_rows_free(). */
int class_table_rows(const struct sched_interval *iv, char sort_key, bool all, struct class_rows *rows);

#endif
