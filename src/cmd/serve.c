/* `dbtrace serve`: the measuring loop feeding a Prometheus exporter. The
 * HTTP server runs in the loop's thread (its descriptor is the session's
 * input), so a scrape never races an interval and SIGINT/SIGTERM stop
 * both through the session's signalfd. */
#include "cmd/cmd.h"
#include "session/session.h"
#include "core/log.h"
#include "core/loop_fds.h"
#include "core/self_usage.h"
#include "render/http_server.h"
#include "render/prom_exposition.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct serve_ctx {
	struct prom_totals *totals;
	struct prom_build build;
	struct http_server *http;
	double start_time_s;
};

static int render_metrics(void *ctx, char **body, size_t *len)
{
	struct serve_ctx *s = ctx;
	struct prom_self self = { self_cpu_seconds(), self_rss_bytes(), s->start_time_s };
	FILE *f = open_memstream(body, len);
	int err;

	if (!f)
		return -ENOMEM;
	err = prom_render(s->totals, &s->build, &self, f);
	if (fclose(f) && !err)
		err = -EIO;
	return err;
}

static int on_interval(void *ctx, const struct interval *iv, const struct finding_list *found)
{
	struct serve_ctx *s = ctx;
	int err = prom_totals_add(s->totals, iv, found);

	/* once per interval even without traffic: connection timeouts */
	if (!err)
		http_server_run(s->http);
	return err;
}

static int on_input(void *ctx)
{
	struct serve_ctx *s = ctx;

	if (http_server_run(s->http))
		log_debug("http: serving failed");
	return SESSION_CONTINUE;
}

int cmd_serve(const struct dbt_config *cfg)
{
	struct serve_ctx s = { 0 };
	struct http_server_config hc = { .listen = cfg->listen, .content_type = PROM_CONTENT_TYPE,
					 .metrics = render_metrics, .ctx = &s };
	struct session_sink sink = { .ctx = &s, .on_interval = on_interval, .on_input = on_input };
	struct session_result res;
	struct collectors col;
	struct timespec now;
	char host[256], err[256], eb[96];
	int rc, sfd;

	/* Block the stop signals now: one that comes before the session's
	 * loop runs waits for it instead of killing the process. */
	sfd = signals_open();
	if (sfd < 0) {
		log_err("cannot block the stop signals: %s", log_errno_text(sfd, eb, sizeof(eb)));
		return DBT_EXIT_RUNTIME;
	}
	close(sfd);
	/* the options checked --listen already; this splits it */
	if (dbt_parse_listen(cfg->listen, host, sizeof(host), &hc.port)) {
		log_err("bad --listen '%s': HOST:PORT, [IPV6]:PORT or :PORT", cfg->listen);
		return DBT_EXIT_USAGE;
	}
	hc.host = host;
	/* a bad address or a port in use fails before any probe loads */
	rc = http_server_start(&s.http, &hc, err, sizeof(err));
	if (rc) {
		log_err("%s", err);
		return rc == -ENOMEM || rc == -EIO ? DBT_EXIT_RUNTIME : DBT_EXIT_USAGE;
	}
	rc = cmd_prepare_bpf(cfg);
	if (rc) {
		http_server_stop(s.http);
		return rc;
	}
	rc = cmd_open_probes(cfg, &col, "serving the rest");
	if (rc) {
		http_server_stop(s.http);
		return rc;
	}
	/* col outlives every scrape: the session runs inside its lifetime */
	s.build = (struct prom_build){ .version = DBTRACE_VERSION, .probes = col.reports,
				       .n_probes = FAM_COUNT };
	rc = prom_totals_new(&s.totals, cfg->top_n);
	if (rc) {
		log_err("cannot start: %s", log_errno_text(rc, eb, sizeof(eb)));
		collectors_close(&col);
		http_server_stop(s.http);
		return DBT_EXIT_RUNTIME;
	}
	clock_gettime(CLOCK_REALTIME, &now);
	s.start_time_s = (double)now.tv_sec + (double)now.tv_nsec / 1e9;
	sink.input_fd = http_server_fd(s.http);
	log_info("serving metrics on http://%s/metrics%s", http_server_address(s.http),
		 cfg->duration_s ? "" : " until interrupted (Ctrl-C)");

	rc = session_run(cfg, &col, &sink, &res);
	collectors_close(&col);
	if (!rc)
		log_info("stopped after %d intervals, %lu requests served, %lu connections cut off",
			 res.intervals, http_server_requests(s.http), http_server_shed(s.http));
	session_result_free(&res);
	http_server_stop(s.http);
	prom_totals_free(s.totals);
	if (rc) {
		log_err("serve stopped: %s", log_errno_text(rc, eb, sizeof(eb)));
		return DBT_EXIT_RUNTIME;
	}
	return DBT_EXIT_OK;
}
