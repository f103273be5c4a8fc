/* The wall-time budget table (`top`'s time view, `top --batch --view
 * time`): one row per class with thread time, the time section's figures
 * (figures/figures.h) that have a place in top: its states as % of its
 * thread-seconds. Pure: formats into buffers. */
#ifndef DBTRACE_RENDER_TIME_TABLE_H
#define DBTRACE_RENDER_TIME_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include "render/class_table.h"

#define TIME_TABLE_DEFAULT_SORT 'R'   /* runnable: the classes' cost, busiest first */

bool time_table_valid_key(char key);
const char *time_table_key_help(void);
void time_table_header(char *buf, size_t len, char sort_key);
void time_table_row(char *buf, size_t len, const struct class_row *r);
/* Rows as class_table_rows(), sorted by a time column; only classes
 * with thread time. */
int time_table_rows(const struct sched_interval *iv, char sort_key, bool all, struct class_rows *rows);

#endif
