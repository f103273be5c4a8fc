/* The thread-class view as text (`top`, `top --batch --view classes`):
 * the classes section's figures (figures/figures.h) that have a place in
 * top, beside each row's group; drawn by render/class_view.h. */
#ifndef DBTRACE_RENDER_CLASS_TABLE_H
#define DBTRACE_RENDER_CLASS_TABLE_H

#include "render/class_view.h"

#define CLASS_TABLE_DEFAULT_SORT 'R'   /* runnable: the classes' cost, busiest first */

extern const struct class_view class_table_view;

#endif
