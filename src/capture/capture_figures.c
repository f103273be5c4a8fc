#include "capture/capture_figures.h"
#include "capture/capture_hist.h"
#include "capture/capture_json.h"
#include "capture/capture_time.h"
#include "dbtrace/hist.h"
#include "model/hist.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

const struct capture_custom capture_customs[FIG_CUSTOM_COUNT] = {
	[FIG_CUSTOM_SYSCALLS] = { capture_time_write_syscalls, capture_time_read_syscalls },
	[FIG_CUSTOM_FUTEX_WORDS] = { capture_time_write_futex_words, capture_time_read_futex_words },
};

/* --- writing ------------------------------------------------------------- */

static const void *at(const void *row, size_t offset)
{
	return (const char *)row + offset;
}

/* A histogram's buckets and timed count; NULL when the row has none. */
static const __u64 *hist_of(const struct figure *f, const void *row, int key, uint64_t *timed)
{
	const __u64 *b;

	if (f->by_pointer)
		b = *(__u64 *const *)at(row, f->offset);
	else
		b = (const __u64 *)at(row, f->offset) + (size_t)key * DBT_HIST_BUCKETS;
	if (!b)
		return NULL;
	*timed = f->timed_offset == SIZE_MAX ? hist_total(b, DBT_HIST_BUCKETS)
					     : ((const uint64_t *)at(row, f->timed_offset))[key];
	return b;
}

/* One value of f (of key) as JSON; NULL is null. */
static struct json_object *value(const struct fig_table *t, const struct figure *f, const void *row, int key,
				 const void *ctx)
{
	char buf[256];
	uint64_t timed;
	const __u64 *b;
	const char *s;

	if (!figure_known(f, row, key, ctx))
		return NULL;
	switch (f->type) {
	case FIG_NUM:
	case FIG_NS:
		return capture_num(figure_value(f, row, key));
	case FIG_INT:
		return json_object_new_int(((const int *)at(row, f->offset))[key]);
	case FIG_COUNT:
		return capture_u64(((const uint64_t *)at(row, f->offset))[key]);
	case FIG_U32:
		return capture_u64(((const uint32_t *)at(row, f->offset))[key]);
	case FIG_U16:
		return json_object_new_int(((const uint16_t *)at(row, f->offset))[key]);
	case FIG_LONG:
		return ((const long *)at(row, f->offset))[key] >= 0
			       ? capture_u64((uint64_t)((const long *)at(row, f->offset))[key]) : NULL;
	case FIG_TEXT:
		s = t->text(f, row, ctx, buf, sizeof(buf));
		return s ? json_object_new_string(s) : NULL;
	case FIG_HIST:
		b = hist_of(f, row, key, &timed);
		return b ? capture_hist_object(b, timed, f->sample_weight) : NULL;
	default:
		return NULL;
	}
}

static void write_figs(struct json_object *o, const struct fig_table *root, const struct fig_table *t,
		       const void *row, const void *ctx)
{
	for (int i = 0; i < t->n; i++) {
		const struct figure *f = &t->figs[i];
		struct json_object *into = o;

		if (f->view_only)
			continue;
		if (f->type == FIG_CUSTOM) {
			capture_customs[f->which].write(o, f->name, row, ctx);
			continue;
		}
		if (f->type == FIG_OBJECT) {
			struct json_object *sub = NULL;

			if (figure_known(f, row, 0, ctx)) {
				sub = json_object_new_object();
				write_figs(sub, f->sub->section ? f->sub : root, f->sub, row, ctx);
			}
			json_object_object_add(o, f->name, sub);
			continue;
		}
		if (!f->keys) {
			json_object_object_add(o, f->name, value(root, f, row, 0, ctx));
			continue;
		}
		if (!f->keys->inline_members) {
			into = json_object_new_object();
			json_object_object_add(o, f->name, into);
		}
		for (int k = 0; k < f->keys->n; k++)
			json_object_object_add(into, f->keys->name(k), value(root, f, row, k, ctx));
	}
}

void capture_figs_write(struct json_object *o, const struct fig_table *t, const void *row, const void *ctx)
{
	write_figs(o, t, t, row, ctx);
}

/* --- reading ------------------------------------------------------------- */

static void *at_mut(void *row, size_t offset)
{
	return (char *)row + offset;
}

/* A count: 0 for a negative one or none, held to what it fits in. */
static uint64_t count_of(struct json_object *v)
{
	double d = capture_number(v);

	if (!isfinite(d) || d <= 0)
		return 0;
	return d >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)d;
}

/* A host setting: -1 (unknown) for none or one out of range. */
static long setting_of(struct json_object *v)
{
	double d = capture_number(v);

	return isfinite(d) && d >= -1 && d < 9.2e18 ? (long)d : -1;
}

/* v into one value of f (of key); v NULL: what the capture lacks. */
static int read_value(const struct fig_table *t, const struct figure *f, struct json_object *v, void *row,
		      int key, void *ctx)
{
	__u64 *b;

	switch (f->type) {
	case FIG_NUM:
		((double *)at_mut(row, f->offset))[key] = capture_number(v);
		break;
	case FIG_NS:
		((uint64_t *)at_mut(row, f->offset))[key] = capture_ns(capture_number(v));
		break;
	case FIG_INT:
		((int *)at_mut(row, f->offset))[key] = capture_is_number(v) ? (int)json_object_get_int64(v) : 0;
		break;
	case FIG_COUNT:
		((uint64_t *)at_mut(row, f->offset))[key] = count_of(v);
		break;
	case FIG_U32:
		((uint32_t *)at_mut(row, f->offset))[key] = (uint32_t)(count_of(v) > UINT32_MAX ? UINT32_MAX
										      : count_of(v));
		break;
	case FIG_U16:
		((uint16_t *)at_mut(row, f->offset))[key] = (uint16_t)count_of(v);
		break;
	case FIG_LONG:
		((long *)at_mut(row, f->offset))[key] = setting_of(v);
		break;
	case FIG_TEXT:
		t->parse(f, row, v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL,
			 ctx);
		break;
	case FIG_HIST:
		if (f->by_pointer) {
			__u64 **p = at_mut(row, f->offset);

			if (!v || !json_object_is_type(v, json_type_object))
				break;
			*p = calloc(DBT_HIST_BUCKETS, sizeof(**p));
			if (!*p)
				return -ENOMEM;
			b = *p;
		} else {
			b = (__u64 *)at_mut(row, f->offset) + (size_t)key * DBT_HIST_BUCKETS;
		}
		capture_hist_read(v, b, f->timed_offset == SIZE_MAX ? NULL
					    : (uint64_t *)at_mut(row, f->timed_offset) + key);
		break;
	default:
		break;
	}
	return 0;
}

static int read_figs(struct json_object *o, const struct fig_table *root, const struct fig_table *t, void *row,
		     void *ctx)
{
	int err = 0;

	for (int i = 0; i < t->n && !err; i++) {
		const struct figure *f = &t->figs[i];
		struct json_object *from = o;

		if (f->view_only)
			continue;
		if (f->type == FIG_CUSTOM) {
			err = capture_customs[f->which].read(o, f->name, row, ctx);
			continue;
		}
		if (f->type == FIG_OBJECT) {
			/* a null or missing object: its figures read as missing */
			err = read_figs(capture_jobject(o, f->name), f->sub->section ? f->sub : root, f->sub, row, ctx);
			continue;
		}
		if (!f->keys) {
			err = read_value(root, f, capture_member(o, f->name), row, 0, ctx);
			continue;
		}
		if (!f->keys->inline_members)
			from = capture_jobject(o, f->name);
		for (int k = 0; k < f->keys->n && !err; k++)
			err = read_value(root, f, capture_member(from, f->keys->name(k)), row, k, ctx);
	}
	return err;
}

int capture_figs_read(struct json_object *o, const struct fig_table *t, void *row, void *ctx)
{
	return read_figs(o, t, t, row, ctx);
}
