#include "capture/capture_time.h"
#include "capture/capture_hist.h"
#include "model/hist.h"
#include "model/syscall_name.h"

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_object *num(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

static json_object *syscalls(const struct class_time *t)
{
	json_object *a = json_object_new_array();

	for (int i = 0; i < t->n_sys && i < CAPTURE_TIME_SYSCALLS; i++) {
		json_object *s = json_object_new_object();
		const char *name = syscall_name(t->sys_nr[i]);
		char buf[32];

		if (!name) {
			snprintf(buf, sizeof(buf), "syscall_%d", t->sys_nr[i]);
			name = buf;
		}
		json_object_object_add(s, "syscall", json_object_new_string(name));
		json_object_object_add(s, "nr", json_object_new_int(t->sys_nr[i]));
		json_object_object_add(s, "seconds", num((double)t->sys_ns[i] / 1e9));
		json_object_array_add(a, s);
	}
	return a;
}

/* The futex detail: wait percentiles, the wait histogram (fine, sparse,
 * every wait timed), the top words with their share of the class's
 * blocked time. */
static json_object *futex(const struct class_time *t, const __u64 *hist)
{
	json_object *o = json_object_new_object(), *top = json_object_new_array();
	uint64_t blocked = 0;

	for (int s = CT_BLOCKED_FIRST; s < CT_STATES; s++)
		blocked += t->ns[s];
	for (int i = 0; i < t->n_futex && i < CAPTURE_TIME_FUTEXES; i++) {
		json_object *w = json_object_new_object();
		char addr[24];
		double share = blocked ? 100.0 * (double)t->futex_ns[i] / (double)blocked : NAN;

		snprintf(addr, sizeof(addr), "0x%llx", (unsigned long long)t->futex_addr[i]);
		json_object_object_add(w, "address", json_object_new_string(addr));
		json_object_object_add(w, "seconds", num((double)t->futex_ns[i] / 1e9));
		json_object_object_add(w, "blocked_share_pct", num(share > 100 ? 100 : share));
		json_object_array_add(top, w);
	}
	json_object_object_add(o, "wait_p50_us", num(t->futex_p50_us));
	json_object_object_add(o, "wait_p99_us", num(t->futex_p99_us));
	json_object_object_add(o, "wait_hist", hist ? capture_hist_object(hist, hist_total(hist, DBT_HIST_BUCKETS), 1) : NULL);
	json_object_object_add(o, "top_addresses", top);
	return o;
}

/* The oncpu state's user and system parts (inside it, not states of
 * their own); null when the kernel counted no tick of the class. */
static json_object *oncpu_split(const struct class_time *t)
{
	json_object *o;

	if (!t->oncpu_user_ns && !t->oncpu_sys_ns)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "user_pct", num(t->oncpu_user_pct));
	json_object_object_add(o, "system_pct", num(t->oncpu_sys_pct));
	json_object_object_add(o, "user_seconds", num((double)t->oncpu_user_ns / 1e9));
	json_object_object_add(o, "system_seconds", num((double)t->oncpu_sys_ns / 1e9));
	return o;
}

void capture_time_write(json_object *o, const struct class_time *t, const __u64 *futex_hist)
{
	json_object *time, *pct, *sec;

	json_object_object_add(o, "blocked_by_syscall", syscalls(t));
	if (!t->thread_ns) {
		json_object_object_add(o, "time", NULL);
		return;
	}
	time = json_object_new_object();
	pct = json_object_new_object();
	sec = json_object_new_object();
	for (int s = 0; s < CT_STATES; s++) {
		json_object_object_add(pct, class_state_name(s), num(t->pct[s]));
		json_object_object_add(sec, class_state_name(s), num((double)t->ns[s] / 1e9));
	}
	json_object_object_add(pct, "blocked", num(t->blocked_pct));
	json_object_object_add(time, "thread_seconds", num((double)t->thread_ns / 1e9));
	json_object_object_add(time, "share_pct", pct);
	json_object_object_add(time, "seconds", sec);
	json_object_object_add(time, "oncpu_split", oncpu_split(t));
	json_object_object_add(time, "sum_pct", num(t->sum_pct));
	json_object_object_add(time, "residual_pct", num(t->residual_pct));
	json_object_object_add(time, "futex", t->n_futex || t->ns[CT_FUTEX] ? futex(t, futex_hist) : NULL);
	json_object_object_add(o, "time", time);
}

static double member_num(json_object *o, const char *key)
{
	json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) || !v)
		return NAN;
	return json_object_get_double(v);
}

static json_object *member_obj(json_object *o, const char *key)
{
	json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_object))
		return NULL;
	return v;
}

static uint64_t ns_of(double s)
{
	return isfinite(s) && s > 0 ? (uint64_t)(s * 1e9 + 0.5) : 0;
}

/* The futex detail as written: the percentiles as they are (a /2
 * capture's histogram is not needed by report or diff), the words. */
static void read_futex(json_object *f, struct class_time *t)
{
	json_object *top;

	if (!f)
		return;
	if (json_object_object_get_ex(f, "top_addresses", &top) && json_object_is_type(top, json_type_array))
		for (size_t i = 0; i < json_object_array_length(top) && t->n_futex < CLASS_TIME_FUTEXES; i++) {
			json_object *w = json_object_array_get_idx(top, i), *a;

			if (!json_object_object_get_ex(w, "address", &a))
				continue;
			t->futex_addr[t->n_futex] = strtoull(json_object_get_string(a), NULL, 16);
			t->futex_ns[t->n_futex++] = ns_of(member_num(w, "seconds"));
		}
}

bool capture_time_read_shares(json_object *o, float *pct)
{
	json_object *share = member_obj(member_obj(o, "time"), "share_pct");

	if (!share)
		return false;
	for (int s = 0; s < CT_STATES; s++)
		pct[s] = (float)member_num(share, class_state_name(s));
	return true;
}

void capture_time_read(json_object *o, struct class_time *t)
{
	json_object *time = member_obj(o, "time"), *sec = member_obj(time, "seconds"), *a;
	double residual = member_num(time, "residual_pct");

	memset(t, 0, sizeof(*t));
	t->thread_ns = ns_of(member_num(time, "thread_seconds"));
	for (int s = 0; s < CT_STATES; s++)
		t->ns[s] = ns_of(member_num(sec, class_state_name(s)));
	if (isfinite(residual))
		t->residual_ns = (int64_t)(residual / 100.0 * (double)t->thread_ns);
	if (json_object_object_get_ex(o, "blocked_by_syscall", &a) && json_object_is_type(a, json_type_array))
		for (size_t i = 0; i < json_object_array_length(a) && t->n_sys < CLASS_TIME_SYSCALLS; i++) {
			json_object *s = json_object_array_get_idx(a, i), *nr;

			if (!json_object_object_get_ex(s, "nr", &nr))
				continue;
			t->sys_nr[t->n_sys] = json_object_get_int(nr);
			t->sys_ns[t->n_sys++] = ns_of(member_num(s, "seconds"));
		}
	read_futex(member_obj(time, "futex"), t);
	/* the split's seconds have the ratio of the ticks it was made from */
	t->tick_user_ns = ns_of(member_num(member_obj(time, "oncpu_split"), "user_seconds"));
	t->tick_sys_ns = ns_of(member_num(member_obj(time, "oncpu_split"), "system_seconds"));
	class_time_finish(t);
	/* not derived by class_time_finish: the model takes them from the
	 * class's fine histogram, a capture from what it wrote */
	t->futex_p50_us = member_num(member_obj(time, "futex"), "wait_p50_us");
	t->futex_p99_us = member_num(member_obj(time, "futex"), "wait_p99_us");
}
