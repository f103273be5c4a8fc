#include "capture/capture_time.h"
#include "model/syscall_name.h"

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
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

void capture_time_write(json_object *o, const struct class_time *t)
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
	json_object_object_add(time, "sum_pct", num(t->sum_pct));
	json_object_object_add(time, "residual_pct", num(t->residual_pct));
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
	class_time_finish(t);
}
