/* What `capture` and `record` share: the capture file opened before any
 * probe loads, its header written when the window opens, one interval
 * per tick, and its summary from the session's result at the end. */
#ifndef DBTRACE_CMD_CAPTURE_RUN_H
#define DBTRACE_CMD_CAPTURE_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "capture/capture_write.h"
#include "cmd/cmd.h"
#include "session/session.h"

struct capture_run {
	const struct dbt_config *cfg;
	struct capture_writer *w;
	struct capture_meta meta;
	const char *out;               /* the file's name, as said to the user */
	char path[256];                /* the default name's room */
	double cpu0;                   /* dbtrace's CPU seconds when the probes were open */
};

/* Opens -o (default dbtrace-YYYYmmdd-HHMMSS.json, in c->path) so a bad
 * path fails before any probe loads. Returns 0, or an exit code after
 * one line on stderr. */
int capture_run_open(struct capture_run *c, const struct dbt_config *cfg);

/* The probes are open: their report goes in the header, and dbtrace's
 * own CPU use counts from here. */
void capture_run_probes(struct capture_run *c, const struct collectors *col);

/* The window opened at mono_ns (the first snapshot, session's on_start):
 * writes the header. Returns 0 or a negative errno. */
int capture_run_begin(struct capture_run *c, uint64_t mono_ns);

/* A session sink's on_interval: ctx is the struct capture_run. */
int capture_run_interval(void *ctx, const struct interval *iv, const struct finding_list *found);

/* Completes the file from res (col still open: its families say what
 * was measured), saying why it stopped. Returns 0, or an exit code after
 * one line on stderr and no file. */
int capture_run_finish(struct capture_run *c, const struct collectors *col,
		       const struct session_result *res, const char *stop_reason, bool complete);

#endif
