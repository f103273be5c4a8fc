/* The time section of a capture (docs/capture-schema.md): the members of
 * each class's "time" and its "blocked_by_syscall", a table of figures
 * (figures/figures_classes.c) that capture_figures.c walks; here, what
 * that walk leaves to code of its own (the lists of syscalls and futex
 * words), what a class's budget derives again once read back, and the
 * shares of an interval's classes that the report draws over time. */
#ifndef DBTRACE_CAPTURE_CAPTURE_TIME_H
#define DBTRACE_CAPTURE_CAPTURE_TIME_H

#include <stdbool.h>
#include "model/class_time.h"

struct json_object;

/* The top syscalls behind pipe_other a capture names. */
#define CAPTURE_TIME_SYSCALLS 3
/* The futex words a capture names per class. */
#define CAPTURE_TIME_FUTEXES 3

/* "blocked_by_syscall" and "top_addresses" (FIG_CUSTOM_SYSCALLS,
 * FIG_CUSTOM_FUTEX_WORDS) of a class (row: struct sched_class_stats). */
void capture_time_write_syscalls(struct json_object *o, const char *name, const void *row, const void *ctx);
int capture_time_read_syscalls(struct json_object *o, const char *name, void *row, void *ctx);
void capture_time_write_futex_words(struct json_object *o, const char *name, const void *row, const void *ctx);
int capture_time_read_futex_words(struct json_object *o, const char *name, void *row, void *ctx);

/* Once a class's figures are read back: the budget's shares and split
 * derived from its seconds again, as the model does. */
void capture_time_derive(struct class_time *t);

/* The state shares of o's "time" into pct[CT_STATES]; false without one. */
bool capture_time_read_shares(struct json_object *o, float *pct);

#endif
