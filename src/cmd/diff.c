/* `dbtrace diff BEFORE AFTER`: two captures side by side. Each side may
 * be several hosts' captures, comma-separated (client.json,server.json):
 * the first is compared in full, and the ports joined across a side's
 * hosts (model/net_join.h) are compared in the section "joined". */
#include "cmd/cmd.h"
#include "core/log.h"
#include "capture/capture_diff.h"
#include "model/net_join.h"
#include "render/diff_table.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* One side: its captures, the first in full. */
struct side {
	struct capture caps[DBT_JOIN_HOSTS];
	const struct capture *others[DBT_JOIN_HOSTS - 1];
	int n;
};

static void side_free(struct side *s)
{
	for (int i = 0; i < s->n; i++)
		capture_free(&s->caps[i]);
	s->n = 0;
}

/* Reads "a.json" or "a.json,b.json,..." into s. Returns 0, or an exit
 * code after one line on stderr. */
static int side_read(const char *list, struct side *s)
{
	char names[4096], *save = NULL, err[512];

	s->n = 0;
	if (strlen(list) >= sizeof(names)) {
		log_err("capture list too long: %.64s...", list);
		return DBT_EXIT_USAGE;
	}
	snprintf(names, sizeof(names), "%s", list);
	for (char *f = strtok_r(names, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
		if (s->n == DBT_JOIN_HOSTS) {
			log_err("at most %d captures on a side of diff", DBT_JOIN_HOSTS);
			side_free(s);
			return DBT_EXIT_USAGE;
		}
		if (capture_read_file(f, &s->caps[s->n], err, sizeof(err))) {
			log_err("%s", err);
			side_free(s);
			return DBT_EXIT_USAGE;
		}
		s->n++;
	}
	if (!s->n) {
		log_err("no capture file in '%s'", list);
		return DBT_EXIT_USAGE;
	}
	for (int i = 1; i < s->n; i++)
		s->others[i - 1] = &s->caps[i];
	return 0;
}

int cmd_diff(const struct dbt_config *cfg)
{
	struct cdiff_opts opts = { .top_n = cfg->top_n };
	static struct side a, b;
	struct capture_diff d;
	char err[512];
	int rc;

	rc = side_read(cfg->files[0], &a);
	if (rc)
		return rc;
	rc = side_read(cfg->files[1], &b);
	if (rc) {
		side_free(&a);
		return rc;
	}
	opts.before_others = a.others;
	opts.n_before_others = a.n - 1;
	opts.after_others = b.others;
	opts.n_after_others = b.n - 1;
	rc = capture_diff_compute(&a.caps[0], &b.caps[0], &opts, &d);
	if (!rc) {
		rc = cfg->json ? diff_table_json(stdout, &a.caps[0], &b.caps[0], &d)
			       : diff_table_text(stdout, &a.caps[0], &b.caps[0], &d);
		if (!rc && fflush(stdout))
			rc = -errno;
		capture_diff_free(&d);
	}
	side_free(&a);
	side_free(&b);
	if (rc) {
		log_err("diff failed: %s", log_errno_text(rc, err, sizeof(err)));
		return DBT_EXIT_RUNTIME;
	}
	return DBT_EXIT_OK;
}
