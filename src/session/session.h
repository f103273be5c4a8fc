/* The measuring loop shared by `top` and `capture`: attach, then one
 * snapshot per tick, the model computes the interval, the findings judge
 * it, and a sink shows or records it. */
#ifndef DBTRACE_SESSION_SESSION_H
#define DBTRACE_SESSION_SESSION_H

#include <stdbool.h>
#include <stdint.h>
#include "cli/options.h"
#include "collect/collectors.h"
#include "findings/finding.h"
#include "model/bpf_cost.h"
#include "model/clock_model.h"
#include "session/interval.h"
#include "model/net_model.h"
#include "model/proc_group.h"
#include "model/sched_summary.h"

/* What a sink's callback returns: go on, stop now, or (on_input) take
 * one last snapshot now and stop: the window ends at that instant, not at
 * the last tick (record: the command exited). */
enum session_action { SESSION_CONTINUE = 0, SESSION_STOP = 1, SESSION_LAST = 2 };

struct session_sink {
	void *ctx;
	/* each interval, complete, with its findings; negative errno
	 * aborts the session, SESSION_STOP ends it cleanly */
	int (*on_interval)(void *ctx, const struct interval *iv, const struct finding_list *found);
	int input_fd;                  /* -1, or a fd whose readiness calls on_input */
	int (*on_input)(void *ctx);
	double first_tick_s;           /* 0: the first refresh after one interval */
	/* the last interval ends at -d exactly, shorter than the others when
	 * -d is no multiple of -i (record: "-d at most"); false: at the
	 * first tick at or past -d */
	bool end_at_duration;
	/* optional: the first snapshot is taken, at mono_ns (CLOCK_MONOTONIC,
	 * the t = 0 of every interval); negative errno aborts */
	int (*on_start)(void *ctx, uint64_t mono_ns);
	/* optional: a stop signal came (the result's stop_signal keeps the
	 * first); SESSION_CONTINUE goes on measuring (record hands it to its
	 * command and waits for the command to end), SESSION_LAST closes
	 * the window at the signal (capture: Ctrl-C keeps the time since
	 * the last tick), SESSION_STOP stops at the last tick.
	 * NULL: every stop signal stops at the last tick. */
	int (*on_signal)(void *ctx, int signo);
};

struct session_result {
	struct cpu_snapshot first, last;   /* per-CPU summary: last - first */
	struct sched_summary sched;        /* per-class summary: sum of intervals */
	struct clock_interval clock;       /* clock family, first to last snapshot */
	struct clock_fn_table clock_fns;   /* its vDSO function names */
	unsigned int clock_hz;             /* 0: the clock family was off */
	struct net_interval net;           /* net family, first to last snapshot */
	bool have_net;
	struct loss_interval loss;         /* loss family, first to last (also joined into net) */
	bool have_loss;
	struct finding_list findings;      /* merged over all intervals */
	double elapsed_s;
	int stop_signal;               /* the first stop signal; 0 when the duration ran out or the user quit */
	int intervals;
	uint64_t lost_events;
	uint64_t thread_evictions;
	/* dbtrace's own BPF run time over all the meter's windows;
	 * bpf_why: why it was not measured (NULL: it was) */
	struct bpf_cost bpf;
	const char *bpf_why;
	struct proc_group_log groups;      /* the groups reported and their processes */
};

/* Runs until the duration elapses, a stop signal arrives or the sink says
 * stop. The result stays allocated for the caller's summary. */
int session_run(const struct dbt_config *cfg, struct collectors *col,
		struct session_sink *sink, struct session_result *res);
void session_result_free(struct session_result *res);

#endif
