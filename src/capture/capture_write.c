#define _GNU_SOURCE
#include "capture/capture_write.h"
#include "capture/capture_loss.h"
#include "capture/capture_hist.h"
#include "capture/capture_clock.h"
#include "capture/capture_sched.h"
#include "core/atomic_file.h"
#include "model/softirq_vec.h"

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

static json_object *num(double v)
{
	/* NAN (no sample) is null, not a bogus number */
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

static json_object *u64(uint64_t v)
{
	return json_object_new_int64(v > INT64_MAX ? INT64_MAX : (int64_t)v);
}

static json_object *cpu_object(const struct cpu_row *r)
{
	json_object *o = json_object_new_object();
	json_object *pct = json_object_new_object(), *raises = json_object_new_object();
	json_object *entries = json_object_new_object(), *wait = json_object_new_object();
	json_object *wait_hist = json_object_new_object();

	for (int v = 0; v < DBT_SOFTIRQ_VECS; v++) {
		const char *k = softirq_vec_key(v);

		json_object_object_add(pct, k, num(r->softirq_pct[v]));
		json_object_object_add(raises, k, r->have_sirq ? u64(r->raises[v]) : NULL);
		json_object_object_add(entries, k, r->have_sirq ? u64(r->entries[v]) : NULL);
		json_object_object_add(wait, k, num(r->wait_p99_us[v]));
		/* sampled: the waits really timed and their weight beside the
		 * estimate of all of them */
		json_object_object_add(wait_hist, k, r->wait_timed[v] ?
				       capture_hist_object(r->wait_hist[v], r->wait_timed[v], DBT_BUSY_KEEP) : NULL);
	}
	json_object_object_add(pct, "total", num(r->softirq_total_pct));
	json_object_object_add(o, "cpu", json_object_new_int(r->cpu));
	json_object_object_add(o, "usr_pct", num(r->usr_pct));
	json_object_object_add(o, "sys_pct", num(r->sys_pct));
	json_object_object_add(o, "iowait_pct", num(r->iowait_pct));
	json_object_object_add(o, "idle_pct", num(r->idle_pct));
	json_object_object_add(o, "steal_pct", num(r->steal_pct));
	json_object_object_add(o, "softirq_pct", pct);
	json_object_object_add(o, "hardirq_pct", num(r->hardirq_pct));
	json_object_object_add(o, "softirq_raises", raises);
	json_object_object_add(o, "softirq_entries", entries);
	json_object_object_add(o, "softirq_wait_p99_us", wait);
	json_object_object_add(o, "softirq_wait_hist", wait_hist);
	return o;
}

static json_object *cpu_array(const struct cpu_row *rows, int n)
{
	json_object *a = json_object_new_array();

	for (int c = 0; c < n; c++)
		if (rows[c].valid)
			json_object_array_add(a, cpu_object(&rows[c]));
	return a;
}

/* --- net family: "net" ----------------------------------------------- */

static json_object *net_device(const struct net_dev_stats *d)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "name", json_object_new_string(d->name));
	json_object_object_add(o, "netns", d->foreign ? json_object_new_string(d->netns_name) : NULL);
	json_object_object_add(o, "qdisc", d->qdisc_text[0] ? json_object_new_string(d->qdisc_text) : NULL);
	json_object_object_add(o, "speed_mbps", num(d->speed_mbps));
	json_object_object_add(o, "tx_pps", num(d->tx_pps));
	json_object_object_add(o, "rx_pps", num(d->rx_pps));
	json_object_object_add(o, "tx_mbps", num(d->tx_mbps));
	json_object_object_add(o, "rx_mbps", num(d->rx_mbps));
	json_object_object_add(o, "util_pct", num(d->util_pct));
	json_object_object_add(o, "txq_packets", u64(d->txq_samples));
	json_object_object_add(o, "txq_p50_us", num(d->txq_p50_us));
	json_object_object_add(o, "txq_p99_us", num(d->txq_p99_us));
	json_object_object_add(o, "txq_hist", capture_hist_object(d->txq_hist, d->txq_timed, DBT_BUSY_KEEP));
	return o;
}

static json_object *net_port(const struct net_port_stats *p)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "port", json_object_new_int(p->port));
	json_object_object_add(o, "role", json_object_new_string(net_role_name(p->role)));
	json_object_object_add(o, "requests", u64(p->requests));
	json_object_object_add(o, "requests_per_s", num(p->requests_per_s));
	json_object_object_add(o, "response_p50_us", num(p->resp_p50_us));
	json_object_object_add(o, "response_p99_us", num(p->resp_p99_us));
	json_object_object_add(o, "reads", u64(p->reads));
	json_object_object_add(o, "rxq_p50_us", num(p->rxq_p50_us));
	json_object_object_add(o, "rxq_p99_us", num(p->rxq_p99_us));
	json_object_object_add(o, "response_hist", capture_hist_object(p->resp_hist, p->resp_timed, DBT_BUSY_KEEP));
	json_object_object_add(o, "rxq_hist", capture_hist_object(p->rxq_hist, p->rxq_timed, DBT_BUSY_KEEP));
	return o;
}

static json_object *net_object(const struct net_interval *iv, const struct loss_interval *li)
{
	json_object *o = json_object_new_object();
	json_object *devs = json_object_new_array(), *ports = json_object_new_array();
	int nd = iv->n_devs < CAPTURE_MAX_NET_ROWS ? iv->n_devs : CAPTURE_MAX_NET_ROWS;
	int np = iv->n_ports < CAPTURE_MAX_NET_ROWS ? iv->n_ports : CAPTURE_MAX_NET_ROWS;

	for (int i = 0; i < nd; i++) {
		json_object *d = net_device(&iv->devs[i]);

		if (iv->dev_loss)
			capture_loss_device(d, &iv->dev_loss[i]);
		json_object_array_add(devs, d);
	}
	for (int i = 0; i < np; i++) {
		json_object *p = net_port(&iv->ports[i]);

		if (iv->port_loss)
			capture_loss_port(p, &iv->port_loss[i]);
		if (iv->loss_only) {
			/* the net family did not measure them */
			json_object_object_add(p, "requests", NULL);
			json_object_object_add(p, "reads", NULL);
		}
		json_object_array_add(ports, p);
	}
	json_object_object_add(o, "devices", devs);
	json_object_object_add(o, "devices_omitted", json_object_new_int(iv->n_devs - nd));
	json_object_object_add(o, "ports", ports);
	json_object_object_add(o, "ports_omitted", json_object_new_int(iv->n_ports - np));
	json_object_object_add(o, "lost_samples", u64(iv->lost));
	if (li)
		capture_loss_net(o, li);
	return o;
}

json_object *capture_json_finding(const struct finding *f)
{
	json_object *o = json_object_new_object(), *ev = json_object_new_object();

	json_object_object_add(o, "id", json_object_new_string(f->id));
	json_object_object_add(o, "severity", json_object_new_string(finding_severity_name(f->severity)));
	json_object_object_add(o, "title", json_object_new_string(f->title));
	if (f->pid)
		json_object_object_add(o, "pid", json_object_new_int(f->pid));
	if (f->class_name[0])
		json_object_object_add(o, "class", json_object_new_string(f->class_name));
	for (int k = 0; k < f->n_ev; k++)
		json_object_object_add(ev, f->ev[k].key, f->ev[k].is_text
				       ? json_object_new_string(f->ev[k].text) : num(f->ev[k].num));
	json_object_object_add(o, "evidence", ev);
	json_object_object_add(o, "hint", json_object_new_string(f->hint));
	json_object_object_add(o, "first_interval", json_object_new_int(f->first_interval));
	json_object_object_add(o, "last_interval", json_object_new_int(f->last_interval));
	return o;
}

static json_object *findings_array(const struct finding_list *l)
{
	json_object *a = json_object_new_array();

	for (int i = 0; l && i < l->n; i++)
		json_object_array_add(a, capture_json_finding(&l->items[i]));
	return a;
}

static json_object *probes_object(const struct probe_report *p, int n)
{
	json_object *o = json_object_new_object();

	for (int i = 0; i < n; i++) {
		json_object *f = json_object_new_object(), *rej = json_object_new_array();

		json_object_object_add(f, "attach",
				       p[i].attach[0] ? json_object_new_string(p[i].attach) : NULL);
		json_object_object_add(f, "enabled", json_object_new_boolean(!p[i].disabled));
		for (int r = 0; r < p[i].n_rejected; r++) {
			json_object *e = json_object_new_object();

			json_object_object_add(e, "path", json_object_new_string(p[i].rejected[r].path));
			json_object_object_add(e, "error", json_object_new_string(p[i].rejected[r].error));
			json_object_array_add(rej, e);
		}
		json_object_object_add(f, "rejected", rej);
		json_object_object_add(o, p[i].family, f);
	}
	return o;
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
	json_object *o = json_object_new_object(), *host = json_object_new_object();

	/* six significant digits: shares to 0.0001 %, times to the µs */
	json_c_set_serialization_double_format("%.6g", JSON_C_OPTION_THREAD);
	json_object_object_add(o, "schema", json_object_new_string(CAPTURE_SCHEMA));
	json_object_object_add(o, "version", json_object_new_string(m->version));
	json_object_object_add(o, "started_at", json_object_new_string(m->started_at));
	json_object_object_add(o, "started_at_monotonic_s", seconds_full(m->started_at_monotonic_s));
	json_object_object_add(o, "interval_s", json_object_new_double(m->interval_s));
	json_object_object_add(host, "hostname", json_object_new_string(m->host.hostname));
	json_object_object_add(host, "kernel", json_object_new_string(m->host.kernel));
	json_object_object_add(host, "cpus", json_object_new_int(m->host.cpus));
	json_object_object_add(host, "clocksource", json_object_new_string(m->host.clocksource));
	json_object_object_add(host, "cmdline", json_object_new_string(m->host.cmdline));
	json_object_object_add(o, "host", host);
	json_object_object_add(o, "probes", probes_object(m->probes, m->n_probes));
	fputc('{', w->f);
	write_members(w->f, o);
	fputs(",\"intervals\":[", w->f);
	json_object_put(o);
	return stream_status(w->f);
}

int capture_add_interval(struct capture_writer *w, const struct interval *iv)
{
	json_object *o = json_object_new_object(), *cpus = cpu_array(iv->rows, iv->ncpus);

	if (iv->have_loss)
		capture_loss_cpus(cpus, &iv->loss);
	json_object_object_add(o, "t", json_object_new_double(iv->t_s));
	json_object_object_add(o, "dt", json_object_new_double(iv->dt_s));
	json_object_object_add(o, "cpus", cpus);
	if (iv->have_sched)
		capture_sched_write(o, iv->sched.groups, iv->sched.n_groups);
	if (iv->have_clock)
		json_object_object_add(o, "clock", capture_clock_object(&iv->clock, iv->clock_fns, iv->clock_hz));
	if (iv->have_net)
		json_object_object_add(o, "net", net_object(&iv->net, iv->have_loss ? &iv->loss : NULL));
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
	json_object *cpus = cpu_array(s->rows, s->ncpus);
	int rc;

	json_object_object_add(o, "complete", json_object_new_boolean(s->complete));
	json_object_object_add(o, "stop_reason",
			       json_object_new_string(s->stop_reason ? s->stop_reason : "duration"));
	json_object_object_add(o, "duration_s", json_object_new_double(s->duration_s));
	json_object_object_add(ov, "cpu_pct", num(s->cpu_pct));
	json_object_object_add(ov, "max_rss_kb", json_object_new_int64(s->max_rss_kb));
	json_object_object_add(ov, "lost_events", u64(s->lost_events));
	json_object_object_add(ov, "thread_evictions", u64(s->thread_evictions));
	json_object_object_add(o, "overhead", ov);
	if (s->loss)
		capture_loss_cpus(cpus, s->loss);
	json_object_object_add(o, "cpus", cpus);
	if (s->sched)
		capture_sched_write(o, s->sched->groups, s->sched->n_groups);
	if (s->sched && s->groups)
		json_object_object_add(o, "groups", capture_sched_groups(s->groups, s->sched));
	if (s->clock)
		json_object_object_add(o, "clock", capture_clock_object(s->clock, s->clock_fns, s->clock_hz));
	if (s->net)
		json_object_object_add(o, "net", net_object(s->net, s->loss));
	json_object_object_add(o, "findings", findings_array(s->findings));
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
