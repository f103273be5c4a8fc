/* Capture reader. The top-level object is walked member by member with
 * one json-c tokener per value, so the "intervals" array (nearly all of a
 * long capture's bytes) is turned into compact rows element by element
 * instead of becoming one tree of the whole document. */
#define _GNU_SOURCE
#include "capture/capture_read.h"
#include "capture/capture_clock.h"
#include "capture/capture_cpus.h"
#include "capture/capture_findings.h"
#include "capture/capture_json.h"
#include "capture/capture_meta.h"
#include "capture/capture_net.h"
#include "capture/capture_loss.h"
#include "capture/capture_sched.h"
#include "capture/capture_write.h"
#include "core/vec.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

struct reader {
	const char *buf;
	size_t len, pos;
	json_tokener *tok;
	const char *name;
	char *err;
	size_t errlen;
};

static int fail(struct reader *r, int e, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct reader *r, int e, const char *fmt, ...)
{
	char why[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	/* why may quote the file's own strings: keep the message one line */
	for (char *c = why; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	snprintf(r->err, r->errlen, "%s is not a dbtrace capture: %s", r->name, why);
	return e;
}

/* --- sections ------------------------------------------------------------ */

static int read_cpus(json_object *a, struct capture *cap)
{
	size_t n = json_object_array_length(a);

	cap->cpus = calloc(n ? n : 1, sizeof(*cap->cpus));
	if (!cap->cpus)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		json_object *o = json_object_array_get_idx(a, i);

		capture_cpus_read_row(o, &cap->cpus[cap->n_cpus++]);
		if (capture_loss_read_cpu(o, &cap->loss))
			return -ENOMEM;
	}
	return 0;
}

static int add_interval(struct capture *cap, size_t *cap_len, json_object *o)
{
	json_object *a = capture_jarray(o, "cpus");
	struct capture_interval *iv;
	int err = VEC_RESERVE(cap->intervals, *cap_len, (size_t)cap->n_intervals + 1);

	if (err)
		return err;
	iv = &cap->intervals[cap->n_intervals];
	memset(iv, 0, sizeof(*iv));
	iv->t = capture_jnum(o, "t");
	iv->dt = capture_jnum(o, "dt");
	iv->bpf_cpu_pct = capture_jnum(capture_jobject(o, "overhead"), "bpf_cpu_pct");
	err = capture_cpus_read_interval(a, iv);
	if (err)
		return err;
	cap->n_intervals++;
	return capture_sched_read_interval(capture_jarray(o, "processes"), iv);
}

/* --- the walk ------------------------------------------------------------ */

static void skip_ws(struct reader *r)
{
	while (r->pos < r->len && (r->buf[r->pos] == ' ' || r->buf[r->pos] == '\n' ||
				   r->buf[r->pos] == '\t' || r->buf[r->pos] == '\r'))
		r->pos++;
}

/* Parses the one JSON value at r->pos. *out may be NULL for a JSON null. */
static int parse_value(struct reader *r, json_object **out)
{
	size_t left = r->len - r->pos;
	enum json_tokener_error e;

	json_tokener_reset(r->tok);
	*out = json_tokener_parse_ex(r->tok, r->buf + r->pos, left > INT_MAX ? INT_MAX : (int)left);
	e = json_tokener_get_error(r->tok);
	if (e != json_tokener_success) {
		json_object_put(*out);
		*out = NULL;
		return fail(r, -EINVAL, "bad JSON at byte %zu (%s)", r->pos + json_tokener_get_parse_end(r->tok),
			    e == json_tokener_continue ? "unexpected end" : json_tokener_error_desc(e));
	}
	r->pos += json_tokener_get_parse_end(r->tok);
	return 0;
}

static int expect(struct reader *r, char c)
{
	skip_ws(r);
	if (r->pos >= r->len || r->buf[r->pos] != c)
		return fail(r, -EINVAL, "expected '%c' at byte %zu", c, r->pos);
	r->pos++;
	return 0;
}

static int read_intervals(struct reader *r, struct capture *cap)
{
	size_t cap_len = 0;
	int err = expect(r, '[');

	skip_ws(r);
	if (!err && r->pos < r->len && r->buf[r->pos] == ']') {
		r->pos++;
		return 0;
	}
	while (!err) {
		json_object *o;

		skip_ws(r);
		err = parse_value(r, &o);
		if (err)
			break;
		if (!o || !json_object_is_type(o, json_type_object))
			err = fail(r, -EINVAL, "interval %d is not an object", cap->n_intervals);
		else
			err = add_interval(cap, &cap_len, o);
		json_object_put(o);
		skip_ws(r);
		if (err || r->pos >= r->len)
			break;
		if (r->buf[r->pos] == ']') {
			r->pos++;
			return 0;
		}
		err = expect(r, ',');
	}
	return err ? err : fail(r, -EINVAL, "the intervals array is not closed");
}

static int member_value(struct reader *r, struct capture *cap, const char *key, json_object *v,
			bool *have_schema)
{
	bool is_obj = v && json_object_is_type(v, json_type_object);
	bool is_arr = v && json_object_is_type(v, json_type_array);

	if (!strcmp(key, "schema")) {
		const char *s = v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "";

		if (strcmp(s, CAPTURE_SCHEMA) && strcmp(s, CAPTURE_SCHEMA_V1))
			return fail(r, -EINVAL, "schema \"%.60s\", want \"%s\"", s, CAPTURE_SCHEMA);
		*have_schema = true;
	} else if (!strcmp(key, "version") && v) {
		snprintf(cap->version, sizeof(cap->version), "%s", json_object_get_string(v));
	} else if (!strcmp(key, "started_at") && v) {
		snprintf(cap->started_at, sizeof(cap->started_at), "%s", json_object_get_string(v));
	} else if (!strcmp(key, "started_at_monotonic_s")) {
		cap->started_at_monotonic_s = capture_is_number(v) ? json_object_get_double(v) : NAN;
	} else if (!strcmp(key, "complete")) {
		if (!v || !json_object_is_type(v, json_type_boolean))
			return fail(r, -EINVAL, "\"complete\" is not true or false");
		cap->have_complete = true;
		cap->complete = json_object_get_boolean(v);
	} else if (!strcmp(key, "stop_reason") && v && json_object_is_type(v, json_type_string)) {
		snprintf(cap->stop_reason, sizeof(cap->stop_reason), "%s", json_object_get_string(v));
	} else if (!strcmp(key, "duration_s")) {
		cap->duration_s = capture_is_number(v) ? json_object_get_double(v) : NAN;
	} else if (!strcmp(key, "interval_s")) {
		cap->interval_s = capture_is_number(v) ? json_object_get_double(v) : NAN;
	} else if (!strcmp(key, "host") && is_obj) {
		capture_meta_read_host(v, &cap->host);
	} else if (!strcmp(key, "probes")) {
		cap->n_probes = capture_meta_read_probes(v, cap->probes, CAPTURE_MAX_FAMILIES);
	} else if (!strcmp(key, "overhead") && is_obj) {
		cap->cpu_pct = capture_jnum(v, "cpu_pct");
		cap->max_rss_kb = (long)capture_jint(v, "max_rss_kb", 0);
		cap->lost_events = capture_jcount(v, "lost_events");
		cap->thread_evictions = capture_jcount(v, "thread_evictions");
		capture_bpf_read(capture_jobject(v, "bpf"), &cap->bpf);
	} else if (!strcmp(key, "cpus")) {
		if (!is_arr)
			return fail(r, -EINVAL, "\"cpus\" is not an array");
		if (!cap->cpus)
			return read_cpus(v, cap);
	} else if (!strcmp(key, "processes") && is_arr && !cap->have_sched) {
		cap->have_sched = true;
		return capture_sched_read(v, &cap->sched, cap->duration_s);
	} else if (!strcmp(key, "processes_omitted")) {
		cap->processes_omitted = capture_is_number(v) ? json_object_get_int(v) : 0;
	} else if (!strcmp(key, "clock") && is_obj && !cap->have_clock) {
		cap->have_clock = true;
		return capture_clock_read(v, cap->duration_s, &cap->clock, &cap->clock_fns, &cap->clock_hz,
					  &cap->clock_processes_omitted);
	} else if (!strcmp(key, "net") && is_obj && !cap->have_net) {
		cap->have_net = true;
		return capture_net_read(v, cap->duration_s, &cap->net, &cap->have_net_hist, &cap->devices_omitted,
					&cap->ports_omitted, &cap->loss, &cap->have_loss);
	} else if (!strcmp(key, "findings") && is_arr) {
		return capture_findings_read(v, &cap->findings);
	}
	return 0;
}

static int walk(struct reader *r, struct capture *cap)
{
	bool have_schema = false, have_cpus = false;
	int err;

	skip_ws(r);
	if (r->pos >= r->len)
		return fail(r, -EINVAL, "the file is empty");
	if (r->buf[r->pos] != '{')
		return fail(r, -EINVAL, "not a JSON object");
	r->pos++;
	for (;;) {
		json_object *k = NULL, *v = NULL;
		char key[64];

		skip_ws(r);
		if (r->pos < r->len && r->buf[r->pos] == '}')
			break;
		err = parse_value(r, &k);
		if (err)
			return err;
		if (!k || !json_object_is_type(k, json_type_string)) {
			json_object_put(k);
			return fail(r, -EINVAL, "expected a member name at byte %zu", r->pos);
		}
		snprintf(key, sizeof(key), "%s", json_object_get_string(k));
		json_object_put(k);
		err = expect(r, ':');
		if (err)
			return err;
		skip_ws(r);
		if (!strcmp(key, "intervals")) {
			err = read_intervals(r, cap);
		} else {
			err = parse_value(r, &v);
			if (!err)
				err = member_value(r, cap, key, v, &have_schema);
			have_cpus |= !strcmp(key, "cpus");
			json_object_put(v);
		}
		if (err)
			return err;
		skip_ws(r);
		if (r->pos < r->len && r->buf[r->pos] == ',') {
			r->pos++;
			continue;
		}
		err = expect(r, '}');
		if (err)
			return err;
		break;
	}
	if (!have_schema)
		return fail(r, -EINVAL, "no \"schema\": \"%s\" member", CAPTURE_SCHEMA);
	if (!have_cpus)
		return fail(r, -EINVAL, "no \"cpus\" member");
	return 0;
}

int capture_read_buf(const char *buf, size_t len, const char *name, struct capture *cap,
		     char *err, size_t errlen)
{
	struct reader r = { buf, len, 0, NULL, name, err, errlen };
	int rc;

	memset(cap, 0, sizeof(*cap));
	cap->duration_s = cap->interval_s = NAN;
	cap->started_at_monotonic_s = NAN;
	cap->cpu_pct = NAN;
	snprintf(cap->path, sizeof(cap->path), "%s", name);
	if (errlen)
		err[0] = 0;
	r.tok = json_tokener_new_ex(64);
	if (!r.tok)
		return -ENOMEM;
	rc = walk(&r, cap);
	json_tokener_free(r.tok);
	if (rc == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", name);
	if (rc)
		capture_free(cap);
	return rc;
}

int capture_read_file(const char *path, struct capture *cap, char *err, size_t errlen)
{
	struct stat st;
	void *map;
	int fd, rc;

	memset(cap, 0, sizeof(*cap));
	/* non-blocking: a FIFO given as a capture is refused below, not
	 * waited on */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0 || fstat(fd, &st)) {
		rc = -errno;
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(-rc));
		if (fd >= 0)
			close(fd);
		return rc;
	}
	if (!S_ISREG(st.st_mode) || st.st_size == 0) {
		snprintf(err, errlen, "%s is not a dbtrace capture: %s", path,
			 S_ISDIR(st.st_mode) ? "it is a directory"
			 : !S_ISREG(st.st_mode) ? "not a regular file" : "the file is empty");
		close(fd);
		return -EINVAL;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED) {
		rc = -errno;
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(-rc));
		return rc;
	}
	madvise(map, (size_t)st.st_size, MADV_SEQUENTIAL);
	rc = capture_read_buf(map, (size_t)st.st_size, path, cap, err, errlen);
	munmap(map, (size_t)st.st_size);
	return rc;
}

void capture_free(struct capture *cap)
{
	for (int i = 0; i < cap->n_intervals; i++) {
		free(cap->intervals[i].cpus);
		free(cap->intervals[i].classes);
	}
	free(cap->intervals);
	free(cap->cpus);
	sched_summary_free(&cap->sched);
	clock_interval_free(&cap->clock);
	net_interval_free(&cap->net);
	loss_interval_free(&cap->loss);
	findings_free(&cap->findings);
	memset(cap, 0, sizeof(*cap));
}

const char *capture_probe_attach(const struct capture *cap, const char *family)
{
	for (int i = 0; i < cap->n_probes; i++)
		if (!strcmp(cap->probes[i].family, family))
			return cap->probes[i].attach;
	return NULL;
}
