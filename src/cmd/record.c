/* `dbtrace record [OPTIONS] -- PROGRAM [ARGS...]`: the probes attach
 * first, the program starts when the window opens (the first snapshot),
 * and the window closes when it exits (one last snapshot then), or at -d,
 * when its process group is stopped. Stop signals go to the program,
 * which ends the run; dbtrace exits with the program's status. Its
 * processes are one group, the load, which the findings do not judge as
 * the server (session/judge.c). */
#include "cmd/capture_run.h"
#include "cmd/record_child.h"
#include "core/log.h"
#include "core/loop_fds.h"
#include "render/record_summary.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* After -d, the program's group gets SIGTERM and this long to go before
 * SIGKILL. */
#define STOP_GRACE_S 5.0
/* Stop signals forwarded before the group gets SIGKILL instead: a
 * program that ignores Ctrl-C still ends at the third. */
#define SIGNALS_BEFORE_KILL 2

struct record_ctx {
	struct capture_run cap;
	struct record_child child;
	const char *program;
	int signals;                   /* stop signals forwarded so far */
	bool ended;                    /* it exited inside the window */
};

/* The window is open: the program runs from here. Released before the
 * header is written, so that its start is as close to t = 0 as can be. */
static int on_start(void *ctx, uint64_t first_mono_ns)
{
	struct record_ctx *r = ctx;
	int err = record_child_release(&r->child);

	if (!err)
		err = capture_run_begin(&r->cap, first_mono_ns);
	if (err)
		return err;
	if (r->cap.cfg->duration_s)
		log_info("recording %s (pid %d) to %s for at most %g s", r->program, (int)r->child.pid,
			 r->cap.out, r->cap.cfg->duration_s);
	else
		log_info("recording %s (pid %d) to %s until it exits", r->program, (int)r->child.pid,
			 r->cap.out);
	return 0;
}

/* Its pidfd is readable: it exited, and the window closes now. */
static int on_input(void *ctx)
{
	struct record_ctx *r = ctx;

	if (!record_child_reap(&r->child))
		return SESSION_CONTINUE;
	r->ended = true;
	return SESSION_LAST;
}

static int on_signal(void *ctx, int signo)
{
	struct record_ctx *r = ctx;

	record_child_signal(&r->child, ++r->signals > SIGNALS_BEFORE_KILL ? SIGKILL : signo);
	return SESSION_CONTINUE;
}

/* Why the window closed, as the capture's stop_reason says it. */
static const char *stop_reason(const struct record_ctx *r, const struct session_result *res,
			       bool *complete, char *buf, size_t len)
{
	if (res->stop_signal)   /* the run was cut short */
		return capture_stop_reason(res->stop_signal, true, complete, buf, len);
	*complete = true;
	return r->ended ? "command" : "duration";
}

static void summarize(const struct record_ctx *r, const struct collectors *col,
		      const struct session_result *res, const char *ended)
{
	struct record_summary s = {
		.program = r->program,
		.ended = ended,
		.duration_s = res->elapsed_s,
		.findings = &res->findings,
		.sched = col->on[FAM_SCHED] ? &res->sched : NULL,
		.net = res->have_net ? &res->net : NULL,
		.load_pid = (int)r->child.pid,
	};

	if (record_summary_print(stderr, &s))
		log_err("cannot print the summary");
}

/* The run after the program started: the session, the program stopped
 * if it outlived the window, the capture finished. Returns the exit
 * code. */
static int run(struct record_ctx *r, struct dbt_config *cfg, struct collectors *col)
{
	struct session_sink sink = { .ctx = r, .on_interval = capture_run_interval, .on_start = on_start,
				     .on_input = on_input, .on_signal = on_signal,
				     .input_fd = r->child.pidfd, .end_at_duration = true };
	struct session_result res;
	char eb[96], why[24], how[48], ended[96];
	const char *reason;
	bool complete;
	int rc, code, e;

	rc = session_run(cfg, col, &sink, &res);
	if (!r->child.reaped)   /* -d ran out, or the session failed */
		record_child_stop(&r->child, STOP_GRACE_S);
	code = record_child_exit_code(&r->child, how, sizeof(how));
	e = record_child_exec_errno(&r->child);
	if (rc || e) {
		if (e)
			log_err("%s: %s; no file written", r->program, strerror(e));
		else
			log_err("record failed: %s; no file written", log_errno_text(rc, eb, sizeof(eb)));
		capture_abort(r->cap.w);
		session_result_free(&res);
		return e ? (e == ENOENT ? 127 : 126) : DBT_EXIT_RUNTIME;
	}
	reason = stop_reason(r, &res, &complete, why, sizeof(why));
	snprintf(ended, sizeof(ended), "%s%s", r->ended ? "" : !strcmp(reason, "duration") ?
		 "stopped at -d: " : "stopped: ", how);
	summarize(r, col, &res, ended);
	rc = capture_run_finish(&r->cap, col, &res, reason, complete);
	session_result_free(&res);
	if (!rc && cfg->report)
		rc = cmd_report_write(&r->cap.out, 1, cfg->report, cfg->top_n, cfg->all);
	/* the program's status, unless dbtrace failed at its own job */
	return rc ? rc : code;
}

int cmd_record(const struct dbt_config *given)
{
	struct dbt_config cfg = *given;
	struct record_ctx r = { .program = given->run_argv[0] };
	struct collectors col;
	char path[4096], eb[96];
	int rc, sfd;

	/* as a shell says it, before anything loads or a file is made */
	rc = record_child_find(r.program, path, sizeof(path));
	if (rc) {
		log_err("%s: %s", r.program, rc == -ENOENT && !strchr(r.program, '/') ? "command not found"
			: strerror(-rc));
		return rc == -ENOENT ? 127 : 126;
	}
	/* Block the stop signals now: one that comes while the probes load
	 * waits for the session, which hands it to the program. */
	sfd = signals_open();
	if (sfd < 0) {
		log_err("cannot block the stop signals: %s", log_errno_text(sfd, eb, sizeof(eb)));
		return DBT_EXIT_RUNTIME;
	}
	close(sfd);
	rc = capture_run_open(&r.cap, &cfg);
	if (rc)
		return rc;
	rc = cmd_prepare_bpf(&cfg);
	if (!rc)
		rc = cmd_open_probes(&cfg, &col, "recording the rest");
	if (rc) {
		capture_abort(r.cap.w);
		return rc;
	}
	capture_run_probes(&r.cap, &col);
	rc = record_child_start(&r.child, path, cfg.run_argv);
	if (rc) {
		log_err("cannot start %s: %s", r.program, log_errno_text(rc, eb, sizeof(eb)));
		capture_abort(r.cap.w);
		collectors_close(&col);
		return DBT_EXIT_RUNTIME;
	}
	cfg.load_pid = r.child.pid;
	rc = run(&r, &cfg, &col);
	collectors_close(&col);
	record_child_close(&r.child);
	return rc;
}
