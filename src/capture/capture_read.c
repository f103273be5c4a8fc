/* Capture reader. The top-level object is walked member by member with
 * one json-c tokener per value, so the "intervals" array (nearly all of a
 * long capture's bytes) is turned into compact rows element by element
 * instead of becoming one tree of the whole document. */
#define _GNU_SOURCE
#include "capture/capture_read.h"
#include "capture/capture_clock.h"
#include "capture/capture_sched.h"
#include "capture/capture_loss.h"
#include "capture/capture_write.h"
#include "core/vec.h"
#include "model/hist.h"
#include "model/softirq_vec.h"

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

/* --- member access ------------------------------------------------------ */

static json_object *member(json_object *o, const char *key)
{
	json_object *v = NULL;

	if (!o || !json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

static bool is_number(json_object *v)
{
	return v && (json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int));
}

static double jnum(json_object *o, const char *key)
{
	json_object *v = member(o, key);

	return is_number(v) ? json_object_get_double(v) : NAN;
}

static int64_t jint(json_object *o, const char *key, int64_t dflt)
{
	json_object *v = member(o, key);

	return is_number(v) ? json_object_get_int64(v) : dflt;
}

static uint64_t jcount(json_object *o, const char *key)
{
	int64_t v = jint(o, key, 0);

	return v > 0 ? (uint64_t)v : 0;
}

static const char *jstr(json_object *o, const char *key)
{
	json_object *v = member(o, key);

	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

static void jcopy(char *dst, size_t len, json_object *o, const char *key)
{
	const char *s = jstr(o, key);

	snprintf(dst, len, "%s", s ? s : "");
}

static json_object *jarray(json_object *o, const char *key)
{
	json_object *v = member(o, key);

	return v && json_object_is_type(v, json_type_array) ? v : NULL;
}

/* A histogram in either form: schema /2's sparse fine buckets
 * ({"unit":"ns","buckets":[[lower_ns, count], ...]}, *timed from its
 * "timed"), or /1's log2 µs slots (an array, spread over the fine buckets
 * by hist_from_log2_us(); timed unknown: 0). */
static void jhist(json_object *o, const char *key, __u64 *b, uint64_t *timed)
{
	json_object *v = member(o, key), *a;
	__u64 old[64] = { 0 };
	size_t n;

	*timed = 0;
	if (v && json_object_is_type(v, json_type_array)) {
		n = json_object_array_length(v);
		for (size_t i = 0; i < n && i < 64; i++) {
			int64_t c = json_object_get_int64(json_object_array_get_idx(v, i));

			old[i] = c > 0 ? (__u64)c : 0;
		}
		hist_from_log2_us(old, (int)(n < 64 ? n : 64), b);
		return;
	}
	*timed = jcount(v, "timed");
	a = jarray(v, "buckets");
	n = a ? json_object_array_length(a) : 0;
	for (size_t i = 0; i < n; i++) {
		json_object *pair = json_object_array_get_idx(a, i);
		int64_t lo, c;

		if (!pair || !json_object_is_type(pair, json_type_array) || json_object_array_length(pair) < 2)
			continue;
		lo = json_object_get_int64(json_object_array_get_idx(pair, 0));
		c = json_object_get_int64(json_object_array_get_idx(pair, 1));
		if (lo >= 0 && c > 0)
			b[dbt_hist_bucket((uint64_t)lo)] += (__u64)c;
	}
}

/* --- sections ------------------------------------------------------------ */

static void read_cpu_row(json_object *o, struct cpu_row *r)
{
	json_object *pct = member(o, "softirq_pct"), *raises = member(o, "softirq_raises");
	json_object *entries = member(o, "softirq_entries"), *wait = member(o, "softirq_wait_p99_us");

	memset(r, 0, sizeof(*r));
	r->cpu = (int)jint(o, "cpu", -1);
	r->valid = true;
	r->usr_pct = jnum(o, "usr_pct");
	r->sys_pct = jnum(o, "sys_pct");
	r->iowait_pct = jnum(o, "iowait_pct");
	r->idle_pct = jnum(o, "idle_pct");
	r->steal_pct = jnum(o, "steal_pct");
	r->hardirq_pct = jnum(o, "hardirq_pct");
	r->softirq_total_pct = jnum(pct, "total");
	r->have_sirq = isfinite(r->softirq_total_pct);
	for (int v = 0; v < DBT_SOFTIRQ_VECS; v++) {
		const char *k = softirq_vec_key(v);

		r->softirq_pct[v] = jnum(pct, k);
		r->raises[v] = jcount(raises, k);
		r->entries[v] = jcount(entries, k);
		r->wait_p99_us[v] = jnum(wait, k);
	}
}

static int read_cpus(json_object *a, struct capture *cap)
{
	size_t n = json_object_array_length(a);

	cap->cpus = calloc(n ? n : 1, sizeof(*cap->cpus));
	if (!cap->cpus)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		json_object *o = json_object_array_get_idx(a, i);

		read_cpu_row(o, &cap->cpus[cap->n_cpus++]);
		if (capture_loss_read_cpu(o, &cap->loss))
			return -ENOMEM;
	}
	return 0;
}

static int add_interval(struct capture *cap, size_t *cap_len, json_object *o)
{
	json_object *a = jarray(o, "cpus");
	size_t n = a ? json_object_array_length(a) : 0;
	struct capture_interval *iv;
	int err = VEC_RESERVE(cap->intervals, *cap_len, (size_t)cap->n_intervals + 1);

	if (err)
		return err;
	iv = &cap->intervals[cap->n_intervals];
	memset(iv, 0, sizeof(*iv));
	iv->t = jnum(o, "t");
	iv->dt = jnum(o, "dt");
	iv->cpus = calloc(n ? n : 1, sizeof(*iv->cpus));
	if (!iv->cpus)
		return -ENOMEM;
	cap->n_intervals++;
	for (size_t i = 0; i < n; i++) {
		json_object *c = json_object_array_get_idx(a, i), *pct = member(c, "softirq_pct");
		struct capture_interval_cpu *ic = &iv->cpus[iv->n_cpus++];

		ic->cpu = (int)jint(c, "cpu", -1);
		for (int v = 0; v < DBT_SOFTIRQ_VECS; v++)
			ic->softirq_pct[v] = (float)jnum(pct, softirq_vec_key(v));
		ic->softirq_total_pct = (float)jnum(pct, "total");
	}
	return capture_sched_read_interval(jarray(o, "processes"), iv);
}

static void read_device(json_object *o, struct net_dev_stats *d)
{
	const char *ns = jstr(o, "netns");

	memset(d, 0, sizeof(*d));
	jcopy(d->name, sizeof(d->name), o, "name");
	d->foreign = ns != NULL;
	jcopy(d->netns_name, sizeof(d->netns_name), o, "netns");
	jcopy(d->qdisc_text, sizeof(d->qdisc_text), o, "qdisc");
	d->speed_mbps = jnum(o, "speed_mbps");
	d->tx_pps = jnum(o, "tx_pps");
	d->rx_pps = jnum(o, "rx_pps");
	d->tx_mbps = jnum(o, "tx_mbps");
	d->rx_mbps = jnum(o, "rx_mbps");
	d->util_pct = jnum(o, "util_pct");
	d->txq_samples = jcount(o, "txq_packets");
	d->txq_p50_us = jnum(o, "txq_p50_us");
	d->txq_p99_us = jnum(o, "txq_p99_us");
	jhist(o, "txq_hist", d->txq_hist, &d->txq_timed);
}

static void read_port(json_object *o, struct net_port_stats *p)
{
	const char *role = jstr(o, "role");

	memset(p, 0, sizeof(*p));
	p->port = (uint16_t)jint(o, "port", 0);
	p->role = role && !strcmp(role, net_role_name(DBT_NET_CLIENT)) ? DBT_NET_CLIENT : DBT_NET_SERVER;
	p->requests = jcount(o, "requests");
	p->requests_per_s = jnum(o, "requests_per_s");
	p->resp_p50_us = jnum(o, "response_p50_us");
	p->resp_p99_us = jnum(o, "response_p99_us");
	p->reads = jcount(o, "reads");
	p->reads_per_s = NAN;
	p->rxq_p50_us = jnum(o, "rxq_p50_us");
	p->rxq_p99_us = jnum(o, "rxq_p99_us");
	jhist(o, "response_hist", p->resp_hist, &p->resp_timed);
	jhist(o, "rxq_hist", p->rxq_hist, &p->rxq_timed);
}

/* The loss family's fields of the net section, when the capture has them. */
static int read_net_loss(json_object *o, json_object *devs, json_object *ports, struct capture *cap)
{
	struct net_interval *ni = &cap->net;
	bool any = false;
	int err;

	ni->port_loss = calloc(ni->n_ports ? (size_t)ni->n_ports : 1, sizeof(*ni->port_loss));
	ni->dev_loss = calloc(ni->n_devs ? (size_t)ni->n_devs : 1, sizeof(*ni->dev_loss));
	if (!ni->port_loss || !ni->dev_loss)
		return -ENOMEM;
	for (int i = 0; i < ni->n_ports; i++)
		any |= capture_loss_read_port(json_object_array_get_idx(ports, (size_t)i), &ni->port_loss[i]);
	for (int i = 0; i < ni->n_devs; i++)
		capture_loss_read_device(json_object_array_get_idx(devs, (size_t)i), &ni->dev_loss[i]);
	cap->have_loss = capture_loss_read_net(o, &cap->loss, &err);
	if (!any && !cap->have_loss) {
		free(ni->port_loss);
		free(ni->dev_loss);
		ni->port_loss = NULL;
		ni->dev_loss = NULL;
	}
	return err;
}

static int read_net(json_object *o, struct capture *cap)
{
	json_object *devs = jarray(o, "devices"), *ports = jarray(o, "ports");
	size_t nd = devs ? json_object_array_length(devs) : 0;
	size_t np = ports ? json_object_array_length(ports) : 0;
	struct net_interval *ni = &cap->net;

	ni->dt_s = cap->duration_s;
	ni->lost = jcount(o, "lost_samples");
	cap->devices_omitted = (int)jint(o, "devices_omitted", 0);
	cap->ports_omitted = (int)jint(o, "ports_omitted", 0);
	ni->devs = calloc(nd ? nd : 1, sizeof(*ni->devs));
	ni->ports = calloc(np ? np : 1, sizeof(*ni->ports));
	if (!ni->devs || !ni->ports)
		return -ENOMEM;
	for (size_t i = 0; i < nd; i++) {
		json_object *d = json_object_array_get_idx(devs, i);

		cap->have_net_hist |= member(d, "txq_hist") != NULL;
		read_device(d, &ni->devs[ni->n_devs++]);
	}
	for (size_t i = 0; i < np; i++) {
		json_object *p = json_object_array_get_idx(ports, i);

		cap->have_net_hist |= member(p, "response_hist") != NULL;
		read_port(p, &ni->ports[ni->n_ports++]);
	}
	return read_net_loss(o, devs, ports, cap);
}

static int read_findings(json_object *a, struct finding_list *l)
{
	size_t n = json_object_array_length(a);

	for (size_t i = 0; i < n; i++) {
		json_object *o = json_object_array_get_idx(a, i), *ev = member(o, "evidence");
		const char *sev = jstr(o, "severity");
		struct finding f;
		int err;

		memset(&f, 0, sizeof(f));
		jcopy(f.id, sizeof(f.id), o, "id");
		f.severity = sev && !strcmp(sev, "critical") ? SEV_CRITICAL
			     : sev && !strcmp(sev, "warning") ? SEV_WARNING : SEV_INFO;
		f.pid = (int)jint(o, "pid", 0);
		jcopy(f.class_name, sizeof(f.class_name), o, "class");
		jcopy(f.title, sizeof(f.title), o, "title");
		jcopy(f.hint, sizeof(f.hint), o, "hint");
		f.first_interval = (int)jint(o, "first_interval", -1);
		f.last_interval = (int)jint(o, "last_interval", -1);
		if (ev && json_object_is_type(ev, json_type_object)) {
			json_object_object_foreach(ev, key, val) {
				if (is_number(val))
					finding_num(&f, key, json_object_get_double(val));
				else if (!val)
					finding_num(&f, key, NAN);
				else
					finding_text(&f, key, "%s", json_object_is_type(val, json_type_string)
						     ? json_object_get_string(val) : json_object_to_json_string(val));
			}
		}
		err = findings_merge(l, &f);
		if (err)
			return err;
	}
	return 0;
}

static void read_host(json_object *o, struct host_info *h)
{
	jcopy(h->hostname, sizeof(h->hostname), o, "hostname");
	jcopy(h->kernel, sizeof(h->kernel), o, "kernel");
	h->cpus = (int)jint(o, "cpus", 0);
	jcopy(h->clocksource, sizeof(h->clocksource), o, "clocksource");
	jcopy(h->cmdline, sizeof(h->cmdline), o, "cmdline");
}

static void read_probes(json_object *o, struct capture *cap)
{
	if (!o || !json_object_is_type(o, json_type_object))
		return;
	json_object_object_foreach(o, key, val) {
		struct probe_report *p;

		if (cap->n_probes >= CAPTURE_MAX_FAMILIES)
			break;
		p = &cap->probes[cap->n_probes++];
		snprintf(p->family, sizeof(p->family), "%s", key);
		jcopy(p->attach, sizeof(p->attach), val, "attach");
	}
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
		cap->started_at_monotonic_s = is_number(v) ? json_object_get_double(v) : NAN;
	} else if (!strcmp(key, "complete")) {
		if (!v || !json_object_is_type(v, json_type_boolean))
			return fail(r, -EINVAL, "\"complete\" is not true or false");
		cap->have_complete = true;
		cap->complete = json_object_get_boolean(v);
	} else if (!strcmp(key, "stop_reason") && v && json_object_is_type(v, json_type_string)) {
		snprintf(cap->stop_reason, sizeof(cap->stop_reason), "%s", json_object_get_string(v));
	} else if (!strcmp(key, "duration_s")) {
		cap->duration_s = is_number(v) ? json_object_get_double(v) : NAN;
	} else if (!strcmp(key, "interval_s")) {
		cap->interval_s = is_number(v) ? json_object_get_double(v) : NAN;
	} else if (!strcmp(key, "host") && is_obj) {
		read_host(v, &cap->host);
	} else if (!strcmp(key, "probes")) {
		read_probes(v, cap);
	} else if (!strcmp(key, "overhead") && is_obj) {
		cap->cpu_pct = jnum(v, "cpu_pct");
		cap->max_rss_kb = (long)jint(v, "max_rss_kb", 0);
		cap->lost_events = jcount(v, "lost_events");
		cap->thread_evictions = jcount(v, "thread_evictions");
	} else if (!strcmp(key, "cpus")) {
		if (!is_arr)
			return fail(r, -EINVAL, "\"cpus\" is not an array");
		if (!cap->cpus)
			return read_cpus(v, cap);
	} else if (!strcmp(key, "processes") && is_arr && !cap->have_sched) {
		cap->have_sched = true;
		return capture_sched_read(v, &cap->sched, cap->duration_s);
	} else if (!strcmp(key, "processes_omitted")) {
		cap->processes_omitted = is_number(v) ? json_object_get_int(v) : 0;
	} else if (!strcmp(key, "clock") && is_obj && !cap->have_clock) {
		cap->have_clock = true;
		return capture_clock_read(v, cap->duration_s, &cap->clock, &cap->clock_fns, &cap->clock_hz,
					  &cap->clock_processes_omitted);
	} else if (!strcmp(key, "net") && is_obj && !cap->have_net) {
		cap->have_net = true;
		return read_net(v, cap);
	} else if (!strcmp(key, "findings") && is_arr) {
		return read_findings(v, &cap->findings);
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
