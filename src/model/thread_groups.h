/* Threads of one snapshot grouped into processes, and each process's
 * threads named into classes by thread_class.h's rules: the grouping every
 * per-thread family (sched, clock) needs before it can sum counters per
 * process and per class. Pure. */
#ifndef DBTRACE_MODEL_THREAD_GROUPS_H
#define DBTRACE_MODEL_THREAD_GROUPS_H

#include <stddef.h>
#include <stdint.h>
#include "model/thread_class.h"

struct tgroup_thread {
	uint32_t pid, tid;
	const char *comm;
};

/* Optional: names a thread's class from elsewhere (the sched model's
 * view, so two tables group threads alike). Returns 0 with name filled,
 * or non-zero to let thread_class.h name it. */
struct tgroup_namer {
	void *ctx;
	int (*class_of)(void *ctx, uint32_t pid, uint32_t tid, char *name, size_t len);
};

struct tgroup_proc {
	uint32_t pid;
	char comm[TCLASS_COMM_LEN];    /* the leader's (tid == pid), else the lowest tid's */
	int first, n;                  /* its threads: order[first .. first + n) */
	int first_class, n_classes;    /* its classes: class_name[first_class ..] */
};

struct tgroups {
	int *order;                    /* thread indices, by (pid, class name, tid) */
	int *class_of;                 /* [thread index]: index into class_name */
	char (*class_name)[TCLASS_NAME_MAX];
	int n_classes;
	struct tgroup_proc *procs;     /* by pid */
	int n_procs;
};

/* Groups t[0..n). classifier and namer may be NULL. Returns 0 or -ENOMEM
 * (or thread_class's -EINVAL/-E2BIG); out is empty on error. */
int tgroups_build(const struct tgroup_thread *t, int n, const struct tclass_classifier *classifier,
		  const struct tgroup_namer *namer, struct tgroups *out);
void tgroups_free(struct tgroups *g);

#endif
