#define _GNU_SOURCE
#include "capture/capture_write.h"
#include "capture/capture_clock.h"
#include "capture/capture_cpus.h"
#include "capture/capture_findings.h"
#include "capture/capture_json.h"
#include "capture/capture_loss.h"
#include "capture/capture_meta.h"
#include "capture/capture_net.h"
#include "capture/capture_overhead.h"
#include "capture/capture_sched.h"
#include "core/atomic_file.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct capture_writer {
	FILE *f;                        /* stdout, the stream or file.f */
	bool to_stdout;
	bool stream;                    /* a device or fifo: written in place */
	struct atomic_file file;        /* else: named when complete */
	char path[4096];
	int intervals;
	int load_pid;                   /* capture_meta's */
};

static void set_err(char *err, size_t len, const char *what, const char *path, int e)
{
	snprintf(err, len, "cannot write %s: %s (%s)", path, strerror(e < 0 ? -e : e), what);
}

int capture_open(struct capture_writer **out, const char *path, char *err, size_t errlen)
{
	struct capture_writer *w = calloc(1, sizeof(*w));
	struct stat st;
	int rc;

	if (!w)
		return -ENOMEM;
	if (!strcmp(path, "-")) {
		w->to_stdout = true;
		w->f = stdout;
		*out = w;
		return 0;
	}
	if (strlen(path) >= sizeof(w->path) - 16) {
		snprintf(err, errlen, "output path too long");
		free(w);
		return -ENAMETOOLONG;
	}
	snprintf(w->path, sizeof(w->path), "%s", path);
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		/* a pipe or a terminal (/dev/stdout, a fifo) is written as a
		 * stream; never rename anything over a device node */
		if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
			w->f = fopen(path, "we");
			if (!w->f) {
				int e = errno;

				set_err(err, errlen, "open", path, e);
				free(w);
				return -e;
			}
			w->stream = true;
			*out = w;
			return 0;
		}
		set_err(err, errlen, S_ISDIR(st.st_mode) ? "it is a directory" : "not a regular file",
			path, S_ISDIR(st.st_mode) ? EISDIR : EINVAL);
		free(w);
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	}
	rc = atomic_file_open(&w->file, path, err, errlen);
	if (rc) {
		free(w);
		return rc;
	}
	w->f = w->file.f;
	*out = w;
	return 0;
}

/* Writes an object's members without its braces, so the document can be
 * streamed: header members, the intervals array, then tail members. */
static int write_members(FILE *f, json_object *o)
{
	const char *s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	size_t len = strlen(s);

	if (len < 2)
		return -EINVAL;
	fwrite(s + 1, 1, len - 2, f);
	return 0;
}

/* A failed buffered write leaves the write(2) error in errno (ENOSPC on a
 * full disk): say that rather than a bare EIO. */
static int stream_status(FILE *f)
{
	if (!ferror(f))
		return 0;
	return errno > 0 ? -errno : -EIO;
}

int capture_format_time(const struct timespec *wall, char *buf, size_t len)
{
	struct tm tm;
	char whole[32];
	int n;

	if (!gmtime_r(&wall->tv_sec, &tm) || !strftime(whole, sizeof(whole), "%Y-%m-%dT%H:%M:%S", &tm))
		return -EINVAL;
	n = snprintf(buf, len, "%s.%03ldZ", whole, wall->tv_nsec / 1000000);
	return n < 0 || (size_t)n >= len ? -ENOSPC : 0;
}

const char *capture_stop_reason(int signo, bool planned, bool *complete, char *buf, size_t len)
{
	const char *abbrev;

	*complete = true;
	if (!signo)
		return "duration";
	if (!planned && signo == SIGINT)
		return "user";
	*complete = false;
	abbrev = sigabbrev_np(signo);
	if (abbrev)
		snprintf(buf, len, "SIG%s", abbrev);
	else
		snprintf(buf, len, "signal %d", signo);
	return buf;
}

/* Seconds with microseconds written out in full: the document's doubles
 * keep six significant digits, which a monotonic clock of days in seconds
 * would lose its milliseconds to. */
static json_object *seconds_full(double s)
{
	char text[40];

	if (!isfinite(s))
		return NULL;
	snprintf(text, sizeof(text), "%.6f", s);
	return json_object_new_double_s(s, text);
}

int capture_begin(struct capture_writer *w, const struct capture_meta *m)
{
	json_object *o = json_object_new_object();

	/* six significant digits: shares to 0.0001 %, times to the µs */
	json_c_set_serialization_double_format("%.6g", JSON_C_OPTION_THREAD);
	w->load_pid = m->load_pid;
	json_object_object_add(o, "schema", json_object_new_string(CAPTURE_SCHEMA));
	json_object_object_add(o, "version", json_object_new_string(m->version));
	json_object_object_add(o, "started_at", json_object_new_string(m->started_at));
	json_object_object_add(o, "started_at_monotonic_s", seconds_full(m->started_at_monotonic_s));
	json_object_object_add(o, "interval_s", json_object_new_double(m->interval_s));
	json_object_object_add(o, "host", capture_meta_host(&m->host));
	json_object_object_add(o, "probes", capture_meta_probes(m->probes, m->n_probes));
	fputc('{', w->f);
	write_members(w->f, o);
	fputs(",\"intervals\":[", w->f);
	json_object_put(o);
	return stream_status(w->f);
}

int capture_add_interval(struct capture_writer *w, const struct interval *iv)
{
	json_object *o = json_object_new_object(), *cpus = capture_cpus_array(iv->rows, iv->ncpus);

	if (iv->have_loss)
		capture_loss_cpus(cpus, &iv->loss);
	json_object_object_add(o, "t", json_object_new_double(iv->t_s));
	json_object_object_add(o, "dt", json_object_new_double(iv->dt_s));
	json_object_object_add(o, "cpus", cpus);
	json_object_object_add(o, "overhead", capture_interval_overhead(&iv->bpf));
	if (iv->have_sched)
		capture_sched_write(o, iv->sched.groups, iv->sched.n_groups, w->load_pid);
	if (iv->have_clock)
		json_object_object_add(o, "clock", capture_clock_object(&iv->clock, iv->clock_fns, iv->clock_hz));
	if (iv->have_net)
		json_object_object_add(o, "net", capture_net_object(&iv->net, iv->have_loss ? &iv->loss : NULL));
	if (w->intervals++)
		fputc(',', w->f);
	fputs("\n", w->f);
	fputs(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE), w->f);
	json_object_put(o);
	return stream_status(w->f);
}

int capture_finish(struct capture_writer *w, const struct capture_summary *s,
		   char *err, size_t errlen)
{
	json_object *o = json_object_new_object(), *ov = json_object_new_object();
	json_object *cpus = capture_cpus_array(s->rows, s->ncpus);
	int rc;

	json_object_object_add(o, "complete", json_object_new_boolean(s->complete));
	json_object_object_add(o, "stop_reason",
			       json_object_new_string(s->stop_reason ? s->stop_reason : "duration"));
	json_object_object_add(o, "duration_s", json_object_new_double(s->duration_s));
	json_object_object_add(ov, "cpu_pct", capture_num(s->cpu_pct));
	json_object_object_add(ov, "max_rss_kb", json_object_new_int64(s->max_rss_kb));
	json_object_object_add(ov, "lost_events", capture_u64(s->lost_events));
	json_object_object_add(ov, "thread_evictions", capture_u64(s->thread_evictions));
	if (s->bpf)
		json_object_object_add(ov, "bpf", capture_bpf_object(s->bpf, s->bpf_why));
	json_object_object_add(o, "overhead", ov);
	if (s->loss)
		capture_loss_cpus(cpus, s->loss);
	json_object_object_add(o, "cpus", cpus);
	if (s->sched)
		capture_sched_write(o, s->sched->groups, s->sched->n_groups, w->load_pid);
	if (s->sched && s->groups)
		json_object_object_add(o, "groups", capture_sched_groups(s->groups, s->sched, w->load_pid));
	if (s->clock)
		json_object_object_add(o, "clock", capture_clock_object(s->clock, s->clock_fns, s->clock_hz));
	if (s->net)
		json_object_object_add(o, "net", capture_net_object(s->net, s->loss));
	json_object_object_add(o, "findings", capture_findings_array(s->findings));
	fputs("\n],", w->f);
	write_members(w->f, o);
	fputs("}\n", w->f);
	json_object_put(o);

	rc = fflush(w->f) ? -errno : stream_status(w->f);
	if (!rc && !w->to_stdout && !w->stream)
		rc = atomic_file_commit(&w->file);
	if (rc) {
		set_err(err, errlen, "writing the capture", w->to_stdout ? "stdout" : w->path, rc);
		capture_abort(w);
		return rc;
	}
	if (w->stream)
		fclose(w->f);
	free(w);
	return 0;
}

void capture_abort(struct capture_writer *w)
{
	if (!w)
		return;
	if (w->stream)
		fclose(w->f);
	else if (!w->to_stdout)
		atomic_file_abort(&w->file);
	free(w);
}
