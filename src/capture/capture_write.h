/* The capture's JSON writer: the document as a stream. Intervals are
 * streamed into an unnamed temporary file as they come (memory stays flat
 * over long captures); the file gets its name only when the document is
 * complete, so a killed or failed capture leaves no partial file. Each
 * section's objects come from its own file (capture_read.h lists them),
 * a section's figures from its table (figures/figures.h). Schema:
 * docs/capture-schema.md. */
#ifndef DBTRACE_CAPTURE_CAPTURE_WRITE_H
#define DBTRACE_CAPTURE_CAPTURE_WRITE_H

#include "model/proc_group.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include "core/bpf_plan.h"
#include "findings/finding.h"
#include "model/bpf_cost.h"
#include "model/clock_model.h"
#include "session/interval.h"
#include "model/net_model.h"
#include "capture/capture_findings.h"
#include "capture/capture_net.h"
#include "capture/capture_sched.h"
#include "model/sched_summary.h"
#include "sysinfo/host.h"

/* /2: the *_hist fields became sparse fine histograms (docs/capture-schema.md,
 * "Versions"); the reader takes /1 too. */
#define CAPTURE_SCHEMA "dbtrace.capture/2"
#define CAPTURE_SCHEMA_V1 "dbtrace.capture/1"

struct capture_meta {
	const char *version;
	char started_at[40];            /* RFC 3339, UTC, with milliseconds (capture_format_time) */
	/* CLOCK_MONOTONIC seconds at the same instant (the intervals' t = 0),
	 * to line a capture up with other tools' timelines; NAN: unknown */
	double started_at_monotonic_s;
	double interval_s;
	struct host_info host;
	const struct probe_report *probes;
	int n_probes;
	/* record: the command's group (its processes row's pid), whose rows
	 * say "load": true; 0: none */
	int load_pid;
};

struct capture_summary {
	/* false: cut short (a stop signal before the planned duration) */
	bool complete;
	/* "duration", "user", "command" (record: the command ended), or the
	 * signal's name ("SIGINT", "SIGTERM") */
	const char *stop_reason;
	double duration_s;
	double cpu_pct;                 /* dbtrace's own CPU use, % of one core */
	long max_rss_kb;
	uint64_t lost_events;
	uint64_t thread_evictions;
	/* dbtrace's own BPF run time (NULL: not written); bpf_why: why it
	 * was not measured, NULL when it was */
	const struct bpf_cost *bpf;
	const char *bpf_why;
	int ncpus;
	const struct cpu_row *rows;     /* whole capture, one per CPU */
	const struct sched_summary *sched;   /* NULL: family off */
	const struct clock_interval *clock;  /* NULL: family off */
	const struct clock_fn_table *clock_fns;
	unsigned int clock_hz;
	const struct net_interval *net;      /* NULL: net and loss families off */
	const struct loss_interval *loss;    /* NULL: family off */
	const struct finding_list *findings;
	const struct proc_group_log *groups; /* NULL: not recorded */
};

/* A capture lists at most CAPTURE_MAX_PROCS groups (capture_sched.h)
 * and CAPTURE_MAX_NET_ROWS devices and ports (capture_net.h). */

struct capture_writer;
struct json_object;


/* "2026-01-01T09:30:00.123Z": a wall-clock time as started_at carries it
 * (ISO 8601, UTC, milliseconds). Returns 0, or -ENOSPC when len is too
 * small. */
int capture_format_time(const struct timespec *wall, char *buf, size_t len);

/* Why a capture stopped, as stop_reason says it: "duration" when the
 * planned duration ran out (signo 0), "user" for SIGINT when no duration
 * was planned (Ctrl-C is how such a capture ends), else the signal's name,
 * and then the capture was cut short (*complete false). */
const char *capture_stop_reason(int signo, bool planned, bool *complete, char *buf, size_t len);

/* Checks that path can be written (creating the unnamed file now) so a bad
 * path fails before any probe loads. "-" writes to stdout. On error, err
 * holds one line. */
int capture_open(struct capture_writer **w, const char *path, char *err, size_t errlen);
int capture_begin(struct capture_writer *w, const struct capture_meta *meta);
int capture_add_interval(struct capture_writer *w, const struct interval *iv);
/* Completes the document and gives it its name. */
int capture_finish(struct capture_writer *w, const struct capture_summary *sum,
		   char *err, size_t errlen);
/* Drops everything written; no file appears. */
void capture_abort(struct capture_writer *w);

#endif
