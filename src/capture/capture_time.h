/* The wall-time budget's fields in a capture (docs/capture-schema.md):
 * "time" and "blocked_by_syscall" of each class and process object. Kept
 * apart from capture_write.c and capture_read.c, which only call these. */
#ifndef DBTRACE_CAPTURE_CAPTURE_TIME_H
#define DBTRACE_CAPTURE_CAPTURE_TIME_H

#include <stdbool.h>
#include <linux/types.h>
#include "model/class_time.h"

struct json_object;

/* The top syscalls behind pipe_other a capture names. */
#define CAPTURE_TIME_SYSCALLS 3
/* The futex words a capture names per class. */
#define CAPTURE_TIME_FUTEXES 3

/* Adds "time" (null without thread time; with "futex" when the class
 * waited on one, its wait histogram futex_hist: DBT_HIST_BUCKETS or NULL)
 * and "blocked_by_syscall". */
void capture_time_write(struct json_object *o, const struct class_time *t, const __u64 *futex_hist);
/* The state shares of o's "time" into pct[CT_STATES]; false without one. */
bool capture_time_read_shares(struct json_object *o, float *pct);
/* Reads them back; a capture without them leaves t zeroed, its shares NAN. */
void capture_time_read(struct json_object *o, struct class_time *t);

#endif
