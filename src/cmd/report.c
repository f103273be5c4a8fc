/* `dbtrace report CAPTURE [CAPTURE...] [-o FILE.html]`: one capture as one
 * HTML page (the first; the others are other hosts' captures, joined with
 * its ports in "Hosts joined"), written through out/atomic_file, so a
 * failed or interrupted report leaves the old file (or none). */
#define _GNU_SOURCE
#include "cmd/cmd.h"
#include "core/log.h"
#include "capture/capture_read.h"
#include "core/atomic_file.h"
#include "render/report_html.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* run.json -> run.html; other names get .html appended. */
static int default_output(const char *in, char *buf, size_t len)
{
	size_t n = strlen(in);
	int w;

	if (n > 5 && !strcmp(in + n - 5, ".json"))
		w = snprintf(buf, len, "%.*s.html", (int)(n - 5), in);
	else
		w = snprintf(buf, len, "%s.html", in);
	return w < 0 || (size_t)w >= len ? -ENAMETOOLONG : 0;
}

static bool same_file(const char *a, const char *b)
{
	struct stat x, y;

	return !stat(a, &x) && !stat(b, &y) && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

/* Writes the page to a temporary file in out's directory that takes
 * out's name only when complete. err: one line. */
static int write_atomic(const char *out, const struct capture *cap, const struct report_opts *o,
			char *err, size_t errlen)
{
	struct atomic_file af;
	struct stat st;
	int rc;

	if (!stat(out, &st) && !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "cannot write %.300s: %s", out,
			 S_ISDIR(st.st_mode) ? "it is a directory" : "not a regular file");
		return -EINVAL;
	}
	rc = atomic_file_open(&af, out, err, errlen);
	if (rc)
		return rc;
	rc = report_html_write(af.f, cap, o);
	if (rc)
		atomic_file_abort(&af);
	else
		rc = atomic_file_commit(&af);
	if (rc)
		snprintf(err, errlen, "cannot write %.300s: %s", out, strerror(-rc));
	return rc;
}

int cmd_report(const struct dbt_config *cfg)
{
	const char *in = cfg->files[0], *out = cfg->output;
	char path[4096];

	if (!out) {
		if (default_output(in, path, sizeof(path))) {
			log_err("capture path too long");
			return DBT_EXIT_USAGE;
		}
		out = path;
	}
	return cmd_report_write(cfg->files, cfg->n_files, out, cfg->top_n, cfg->all);
}

/* The captures of the other hosts, after the first. */
static int read_others(const char *const *in, int n, const char *out, struct capture *caps, int *n_read)
{
	char err[512];

	*n_read = 0;
	for (int i = 1; i < n; i++) {
		if (same_file(in[i], out)) {
			log_err("refusing to write the report over the capture %s", in[i]);
			return DBT_EXIT_USAGE;
		}
		if (capture_read_file(in[i], &caps[i - 1], err, sizeof(err))) {
			log_err("%s", err);
			return DBT_EXIT_USAGE;
		}
		(*n_read)++;
	}
	return 0;
}

int cmd_report_write(const char *const *in_files, int n_in, const char *out, int top_n, bool all)
{
	struct report_opts o = { .top_n = top_n, .all = all, .generator = "dbtrace " DBTRACE_VERSION };
	struct capture others[DBT_MAX_CAPTURES - 1];
	const struct capture *other_ptrs[DBT_MAX_CAPTURES - 1];
	const char *in = in_files[0];
	sigset_t block, old;
	struct capture cap;
	int rc, n_others = 0;
	char err[512];

	if (n_in > DBT_MAX_CAPTURES)
		n_in = DBT_MAX_CAPTURES;
	if (same_file(in, out)) {
		log_err("refusing to write the report over the capture %s", in);
		return DBT_EXIT_USAGE;
	}
	if (capture_read_file(in, &cap, err, sizeof(err))) {
		log_err("%s", err);
		return DBT_EXIT_USAGE;
	}
	rc = read_others(in_files, n_in, out, others, &n_others);
	if (rc) {
		for (int i = 0; i < n_others; i++)
			capture_free(&others[i]);
		capture_free(&cap);
		return rc;
	}
	for (int i = 0; i < n_others; i++)
		other_ptrs[i] = &others[i];
	o.others = other_ptrs;
	o.n_others = n_others;
	/* Ctrl-C while writing still removes the temporary file (record
	 * holds them blocked already: this keeps them so) */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &old);
	rc = write_atomic(out, &cap, &o, err, sizeof(err));
	sigprocmask(SIG_SETMASK, &old, NULL);
	capture_free(&cap);
	for (int i = 0; i < n_others; i++)
		capture_free(&others[i]);
	if (rc) {
		log_err("%s", err);
		/* the path is the user's to fix; a full disk is not */
		return rc == -ENOSPC || rc == -EIO || rc == -ENOMEM ? DBT_EXIT_RUNTIME : DBT_EXIT_USAGE;
	}
	log_info("wrote %s", out);
	return DBT_EXIT_OK;
}
