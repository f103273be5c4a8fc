#include "capture/capture_time.h"
#include "capture/capture_json.h"
#include "model/sched_stats.h"
#include "model/syscall_name.h"

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const struct class_time *time_of(const void *row)
{
	return &((const struct sched_class_stats *)row)->time;
}

void capture_time_write_syscalls(json_object *o, const char *name, const void *row, const void *ctx)
{
	const struct class_time *t = time_of(row);
	json_object *a = json_object_new_array();

	(void)ctx;
	for (int i = 0; i < t->n_sys && i < CAPTURE_TIME_SYSCALLS; i++) {
		json_object *s = json_object_new_object();
		const char *sys = syscall_name(t->sys_nr[i]);
		char buf[32];

		if (!sys) {
			snprintf(buf, sizeof(buf), "syscall_%d", t->sys_nr[i]);
			sys = buf;
		}
		json_object_object_add(s, "syscall", json_object_new_string(sys));
		json_object_object_add(s, "nr", json_object_new_int(t->sys_nr[i]));
		json_object_object_add(s, "seconds", capture_num((double)t->sys_ns[i] / 1e9));
		json_object_array_add(a, s);
	}
	json_object_object_add(o, name, a);
}

int capture_time_read_syscalls(json_object *o, const char *name, void *row, void *ctx)
{
	struct class_time *t = &((struct sched_class_stats *)row)->time;
	json_object *a = capture_jarray(o, name);

	(void)ctx;
	for (size_t i = 0; a && i < json_object_array_length(a) && t->n_sys < CLASS_TIME_SYSCALLS; i++) {
		json_object *s = json_object_array_get_idx(a, i);

		if (!capture_member(s, "nr"))
			continue;
		t->sys_nr[t->n_sys] = (int32_t)capture_jint(s, "nr", 0);
		t->sys_ns[t->n_sys++] = capture_ns(capture_jnum(s, "seconds"));
	}
	return 0;
}

/* The top words with their share of the class's blocked time. */
void capture_time_write_futex_words(json_object *o, const char *name, const void *row, const void *ctx)
{
	const struct class_time *t = time_of(row);
	json_object *top = json_object_new_array();
	uint64_t blocked = 0;

	(void)ctx;
	for (int s = CT_BLOCKED_FIRST; s < CT_STATES; s++)
		blocked += t->ns[s];
	for (int i = 0; i < t->n_futex && i < CAPTURE_TIME_FUTEXES; i++) {
		json_object *w = json_object_new_object();
		char addr[24];
		double share = blocked ? 100.0 * (double)t->futex_ns[i] / (double)blocked : NAN;

		snprintf(addr, sizeof(addr), "0x%llx", (unsigned long long)t->futex_addr[i]);
		json_object_object_add(w, "address", json_object_new_string(addr));
		json_object_object_add(w, "seconds", capture_num((double)t->futex_ns[i] / 1e9));
		json_object_object_add(w, "blocked_share_pct", capture_num(share > 100 ? 100 : share));
		json_object_array_add(top, w);
	}
	json_object_object_add(o, name, top);
}

int capture_time_read_futex_words(json_object *o, const char *name, void *row, void *ctx)
{
	struct class_time *t = &((struct sched_class_stats *)row)->time;
	json_object *a = capture_jarray(o, name);

	(void)ctx;
	for (size_t i = 0; a && i < json_object_array_length(a) && t->n_futex < CLASS_TIME_FUTEXES; i++) {
		json_object *w = json_object_array_get_idx(a, i);
		const char *addr = capture_jstr(w, "address");

		if (!addr)
			continue;
		t->futex_addr[t->n_futex] = strtoull(addr, NULL, 16);
		t->futex_ns[t->n_futex++] = capture_ns(capture_jnum(w, "seconds"));
	}
	return 0;
}

void capture_time_derive(struct class_time *t)
{
	/* the split's seconds have the ratio of the ticks it was made from */
	t->tick_user_ns = t->oncpu_user_ns;
	t->tick_sys_ns = t->oncpu_sys_ns;
	if (isfinite(t->residual_pct))
		t->residual_ns = (int64_t)(t->residual_pct / 100.0 * (double)t->thread_ns);
	/* the shares again from the seconds; the futex percentiles stay as
	 * the capture has them (the model takes them from the class's
	 * histogram, which class_time_finish does not read) */
	class_time_finish(t);
}

bool capture_time_read_shares(json_object *o, float *pct)
{
	json_object *share = capture_jobject(capture_jobject(o, "time"), "share_pct");

	if (!share)
		return false;
	for (int s = 0; s < CT_STATES; s++)
		pct[s] = (float)capture_jnum(share, class_state_name(s));
	return true;
}
