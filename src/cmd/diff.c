/* `dbtrace diff BEFORE AFTER`: two captures side by side. */
#include "cmd/cmd.h"
#include "core/log.h"
#include "capture/capture_diff.h"
#include "render/diff_table.h"

#include <errno.h>
#include <stdio.h>

int cmd_diff(const struct dbt_config *cfg)
{
	struct cdiff_opts opts = { .top_n = cfg->top_n };
	struct capture a, b;
	struct capture_diff d;
	char err[512];
	int rc;

	if (capture_read_file(cfg->files[0], &a, err, sizeof(err))) {
		log_err("%s", err);
		return DBT_EXIT_USAGE;
	}
	if (capture_read_file(cfg->files[1], &b, err, sizeof(err))) {
		log_err("%s", err);
		capture_free(&a);
		return DBT_EXIT_USAGE;
	}
	rc = capture_diff_compute(&a, &b, &opts, &d);
	if (!rc) {
		rc = cfg->json ? diff_table_json(stdout, &a, &b, &d) : diff_table_text(stdout, &a, &b, &d);
		if (!rc && fflush(stdout))
			rc = -errno;
		capture_diff_free(&d);
	}
	capture_free(&a);
	capture_free(&b);
	if (rc) {
		log_err("diff failed: %s", log_errno_text(rc, err, sizeof(err)));
		return DBT_EXIT_RUNTIME;
	}
	return DBT_EXIT_OK;
}
