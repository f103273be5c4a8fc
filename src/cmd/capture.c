/* `dbtrace capture`: a timed JSON capture, named only once complete. */
#include "cmd/capture_run.h"
#include "core/log.h"

static int on_start(void *ctx, uint64_t first_mono_ns)
{
	struct capture_run *c = ctx;
	int err = capture_run_begin(c, first_mono_ns);

	/* said now, not before the first snapshot: a script that starts its
	 * load on this line has all of it inside the window (the first
	 * snapshot reads every map and /proc, and took up to half a second
	 * under load: a test's first retransmits fell before it) */
	if (err)
		return err;
	if (c->cfg->duration_s)
		log_info("capturing to %s for %g s", c->out, c->cfg->duration_s);
	else
		log_info("capturing to %s until interrupted (Ctrl-C)", c->out);
	return 0;
}

/* The window closes at the signal, not at the last tick: what ran since
 * it (up to an interval, the end of a benchmark a user stopped dbtrace
 * after) is in the capture, as a last, shorter interval. */
static int on_signal(void *ctx, int signo)
{
	(void)ctx;
	(void)signo;
	return SESSION_LAST;
}

int cmd_capture(const struct dbt_config *cfg)
{
	struct capture_run c;
	struct session_sink sink = { .ctx = &c, .on_interval = capture_run_interval, .on_start = on_start,
				     .on_signal = on_signal, .input_fd = -1 };
	struct session_result res;
	struct collectors col;
	char eb[96], why[24];
	const char *stop_reason;
	bool complete;
	int rc;

	rc = capture_run_open(&c, cfg);
	if (rc)
		return rc;
	rc = cmd_prepare_bpf(cfg);
	if (!rc)
		rc = cmd_open_probes(cfg, &col, "capturing the rest");
	if (rc) {
		capture_abort(c.w);
		return rc;
	}
	capture_run_probes(&c, &col);
	rc = session_run(cfg, &col, &sink, &res);
	if (rc) {
		log_err("capture failed: %s; no file written", log_errno_text(rc, eb, sizeof(eb)));
		capture_abort(c.w);
		collectors_close(&col);
		session_result_free(&res);
		return DBT_EXIT_RUNTIME;
	}
	stop_reason = capture_stop_reason(res.stop_signal, cfg->duration_s > 0, &complete, why, sizeof(why));
	rc = capture_run_finish(&c, &col, &res, stop_reason, complete);
	collectors_close(&col);
	session_result_free(&res);
	return rc;
}
