/* `dbtrace top`: the live view, full-screen or --batch. */
#include "cmd/cmd.h"
#include "render/probe_table.h"
#include "session/session.h"
#include "core/log.h"
#include "render/batch.h"
#include "render/class_table.h"
#include "render/cpu_table.h"
#include "render/net_table.h"
#include "render/time_table.h"
#include "render/top_ui.h"

#include <stdio.h>
#include <unistd.h>

struct top_ctx {
	struct top_ui *ui;
	char sort_key;
	enum top_view view;
	bool all;
};

static int batch_interval(void *ctx, const struct interval *iv, const struct finding_list *found)
{
	struct top_ctx *t = ctx;

	return batch_print(stdout, iv, found, t->view, t->sort_key, t->all);
}

static int ui_interval(void *ctx, const struct interval *iv, const struct finding_list *found)
{
	struct top_ctx *t = ctx;

	return top_ui_draw(t->ui, iv, found);
}

static int ui_input(void *ctx)
{
	struct top_ctx *t = ctx;

	return top_ui_input(t->ui) ? SESSION_STOP : SESSION_CONTINUE;
}

int cmd_top(const struct dbt_config *cfg)
{
	enum top_view view = cfg->view_net ? TOP_VIEW_NET
			     : cfg->view_time ? TOP_VIEW_TIME
			     : cfg->view_classes ? TOP_VIEW_CLASSES : TOP_VIEW_CPUS;
	char default_key = view == TOP_VIEW_NET ? NET_TABLE_DEFAULT_SORT
			   : view == TOP_VIEW_TIME ? TIME_TABLE_DEFAULT_SORT
			   : view == TOP_VIEW_CLASSES ? CLASS_TABLE_DEFAULT_SORT : CPU_TABLE_DEFAULT_SORT;
	struct top_ctx t = { NULL, cfg->sort_key ? cfg->sort_key : default_key, view, cfg->all };
	struct session_sink sink = { .ctx = &t, .input_fd = -1 };
	struct session_result res;
	struct collectors col;
	char status[256], eb[96];
	int rc;

	if (!(view == TOP_VIEW_NET       ? net_table_valid_key(t.sort_key)
	      : view == TOP_VIEW_TIME    ? class_view_valid_key(&time_table_view, t.sort_key)
	      : view == TOP_VIEW_CLASSES ? class_view_valid_key(&class_table_view, t.sort_key)
					 : cpu_table_valid_key(t.sort_key))) {
		log_err("bad sort key '%c': one of the keys in the table header", t.sort_key);
		return DBT_EXIT_USAGE;
	}
	if (!cfg->batch && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))) {
		log_err("top needs a terminal; use --batch for plain text");
		return DBT_EXIT_USAGE;
	}
	rc = cmd_prepare_bpf(cfg);
	if (rc)
		return rc;
	rc = cmd_open_probes(cfg, &col, "showing the rest");
	if (rc)
		return rc;
	probe_status_line(col.reports, FAM_COUNT, status, sizeof(status));

	if (cfg->batch) {
		sink.on_interval = batch_interval;
	} else {
		rc = top_ui_open(&t.ui, col.ncpus, t.view, t.sort_key, t.all, status);
		if (rc) {
			log_err("cannot start the terminal view: %s", log_errno_text(rc, eb, sizeof(eb)));
			collectors_close(&col);
			return DBT_EXIT_RUNTIME;
		}
		sink.on_interval = ui_interval;
		sink.on_input = ui_input;
		sink.input_fd = STDIN_FILENO;
		/* first numbers on screen well under a second after start */
		sink.first_tick_s = cfg->interval_s < 0.25 ? cfg->interval_s : 0.25;
	}
	rc = session_run(cfg, &col, &sink, &res);
	top_ui_close(t.ui);
	collectors_close(&col);
	session_result_free(&res);
	if (rc) {
		log_err("top stopped: %s", log_errno_text(rc, eb, sizeof(eb)));
		return DBT_EXIT_RUNTIME;
	}
	return DBT_EXIT_OK;
}
