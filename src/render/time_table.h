/* The wall-time budget view as text (`top`'s time view, `top --batch
 * --view time`): one row per class with thread time, the time section's
 * figures (figures/figures.h) that have a place in top: its states as %
 * of its thread-seconds; drawn by render/class_view.h. */
#ifndef DBTRACE_RENDER_TIME_TABLE_H
#define DBTRACE_RENDER_TIME_TABLE_H

#include "render/class_view.h"

#define TIME_TABLE_DEFAULT_SORT 'R'   /* runnable: the classes' cost, busiest first */

extern const struct class_view time_table_view;

#endif
