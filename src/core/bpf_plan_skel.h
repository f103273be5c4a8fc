/* The open/load/destroy callbacks of a struct plan_family for a bpftool
 * skeleton, struct <name>_bpf from <name>.skel.h (included before the
 * PLAN_SKEL line). Every family needs the same three, differing only in
 * the skeleton's name and in what is done to it between the steps: they
 * are generated here once rather than copied into each collector.
 *
 *   PLAN_SKEL(softirq)
 *   static const struct plan_family family = { ..., PLAN_SKEL_OPS(softirq) };
 *
 * defines softirq_plan_open, softirq_plan_load and softirq_plan_destroy. */
#ifndef DBTRACE_CORE_BPF_PLAN_SKEL_H
#define DBTRACE_CORE_BPF_PLAN_SKEL_H

#include <errno.h>
#include <stdlib.h>

#include "core/bpf_plan.h"

/* The hook for a step with nothing to do. */
static inline int plan_skel_no_hook(void *skel)
{
	(void)skel;
	return 0;
}

/* The typed steps PLAN_SKEL_HOOKED and PLAN_SKEL_BOXED share: open, then
 * after_open; before_load, then load. libbpf sets errno when an open
 * fails; -EINVAL stands in should it not. */
#define PLAN_SKEL_TYPED_(name, after_open, before_load)				\
	static int name##_plan_new(const char *btf_path, struct name##_bpf **out) \
	{									\
		LIBBPF_OPTS(bpf_object_open_opts, opts, .btf_custom_path = btf_path); \
		struct name##_bpf *s = name##_bpf__open_opts(&opts);		\
		int err;							\
										\
		if (!s)								\
			return errno ? -errno : -EINVAL;			\
		err = after_open(s);						\
		if (err) {							\
			name##_bpf__destroy(s);					\
			return err;						\
		}								\
		*out = s;							\
		return 0;							\
	}									\
	static int name##_plan_load_bpf(struct name##_bpf *s)			\
	{									\
		int err = before_load(s);					\
										\
		return err ? err : name##_bpf__load(s);				\
	}

/* h->skel is the skeleton itself. after_open(struct <name>_bpf *) runs
 * once the object is open, before_load(struct <name>_bpf *) right before
 * it loads (the last moment rodata can be written); each returns 0 or a
 * negative errno, which fails the variant at that stage. */
#define PLAN_SKEL_HOOKED(name, after_open, before_load)				\
	PLAN_SKEL_TYPED_(name, after_open, before_load)				\
	static int name##_plan_open(const char *btf_path, void **skel,		\
				    struct bpf_object **obj)			\
	{									\
		struct name##_bpf *s;						\
		int err = name##_plan_new(btf_path, &s);			\
										\
		if (err)							\
			return err;						\
		*skel = s;							\
		*obj = s->obj;							\
		return 0;							\
	}									\
	static int name##_plan_load(void *skel)					\
	{									\
		return name##_plan_load_bpf(skel);				\
	}									\
	static void name##_plan_destroy(void *skel)				\
	{									\
		name##_bpf__destroy(skel);					\
	}

#define PLAN_SKEL(name) PLAN_SKEL_HOOKED(name, plan_skel_no_hook, plan_skel_no_hook)

/* h->skel is a box (a struct type with the skeleton in member bpf) for a
 * family whose attach keeps more than the plan's link list can (clock:
 * one perf link per CPU). The plan's destroy sees only h->skel, so what
 * the box adds goes there too: release(box *) undoes it, before the
 * skeleton is destroyed. Hooks as in PLAN_SKEL_HOOKED. */
#define PLAN_SKEL_BOXED(name, box, after_open, before_load, release)		\
	PLAN_SKEL_TYPED_(name, after_open, before_load)				\
	static int name##_plan_open(const char *btf_path, void **skel,		\
				    struct bpf_object **obj)			\
	{									\
		box *b = calloc(1, sizeof(*b));					\
		int err;							\
										\
		if (!b)								\
			return -ENOMEM;						\
		err = name##_plan_new(btf_path, &b->bpf);			\
		if (err) {							\
			free(b);						\
			return err;						\
		}								\
		*skel = b;							\
		*obj = b->bpf->obj;						\
		return 0;							\
	}									\
	static int name##_plan_load(void *skel)					\
	{									\
		return name##_plan_load_bpf(((box *)skel)->bpf);		\
	}									\
	static void name##_plan_destroy(void *skel)				\
	{									\
		box *b = skel;							\
										\
		release(b);							\
		name##_bpf__destroy(b->bpf);					\
		free(b);							\
	}

/* The three callbacks, inside a struct plan_family initialiser. */
#define PLAN_SKEL_OPS(name) \
	.open = name##_plan_open, .load = name##_plan_load, .destroy = name##_plan_destroy

#endif
