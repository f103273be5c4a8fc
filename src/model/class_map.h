/* The thread -> class map of one tick: which group (process) and which
 * class each thread belongs to, built once from the tick's threads and
 * shared by every per-thread family (sched, clock), so that their rows of
 * one class are the same class and meet by index. Pure.
 *
 * Each family adds the threads it reports as one view, in order of
 * precedence. A thread named by thread_class.h's rules is named among the
 * threads of its group in the first view that holds it: a thread a later
 * view alone holds (the clock sampler saw it, sched had not yet) never
 * renames the classes of an earlier view.
 *
 * A group is one process, keyed by its pid, unless class_map_build_grouped()
 * is given the processes' groups (model/proc_group.h: a PostgreSQL
 * server's postmaster and backends, by parent or cgroup) and titles
 * (model/proc_title.h): then a group spans processes, keyed by its
 * leader's pid, and its classes are built from all their threads, a
 * titled process's threads that kept its comm named by the title's class
 * (`postgres: backend`). Members keep their own pid; a class index
 * addresses one class of one group, so a per-class array (a time budget)
 * can be indexed by it too. */
#ifndef DBTRACE_MODEL_CLASS_MAP_H
#define DBTRACE_MODEL_CLASS_MAP_H

#include <stddef.h>
#include <stdint.h>
#include "model/thread_class.h"

/* Input: one thread as a family saw it. The strings are read during
 * class_map_build() only. */
struct class_map_thread {
	uint32_t pid, tid;
	const char *comm;
	const char *pcomm;             /* its process's comm as it saw it; NULL or "": unknown */
	unsigned int view;             /* which family's view: earlier ones take precedence */
};

/* One process's group and title, for class_map_build_grouped(). */
struct class_map_proc {
	uint32_t pid;
	uint32_t group;                /* its group's key: the leader's pid */
	const char *title_class;       /* its class from its title; NULL: none */
};

/* The threads a map is built from (the families add theirs). */
struct class_map_input {
	struct class_map_thread *t;
	size_t n, cap;
	unsigned int view;             /* the view class_map_input_add() adds to */
};

/* One thread: where it belongs. */
struct class_map_member {
	uint32_t pid, tid;
	uint32_t group;                /* index into groups */
	uint32_t cls;                  /* index into classes */
};

struct class_map_class {
	char name[TCLASS_NAME_MAX];
};

struct class_map_group {
	uint32_t pid;                  /* the leader's pid: the group's key */
	/* in the first view that holds the group: the leader's comm (tid ==
	 * pid), else the lowest tid's pcomm, else its comm */
	char comm[TCLASS_COMM_LEN];
	size_t first_class, n_classes; /* classes[first_class ..], sorted by name */
	size_t first_pid, n_pids;      /* pids[first_pid ..]: its processes, ascending */
};

struct class_map {
	struct class_map_member *members;  /* sorted by (tid, pid) */
	size_t n_members;
	struct class_map_class *classes;   /* each group's run, groups in pid order */
	size_t n_classes, classes_cap;
	struct class_map_group *groups;    /* by pid */
	size_t n_groups, groups_cap;
	uint32_t *pids;                    /* each group's processes */
	size_t n_pids;
};

/* Appends one thread to the current view. Returns 0 or -ENOMEM. */
int class_map_input_add(struct class_map_input *in, uint32_t pid, uint32_t tid,
			const char *comm, const char *pcomm);
/* Threads added from here on are the next family's view. */
void class_map_input_next_view(struct class_map_input *in);
void class_map_input_free(struct class_map_input *in);

/* Groups in->t by pid. A thread (pid, tid) is one member, however many
 * views hold it; it takes the class thread_class.h's rules (classifier
 * may be NULL) give it among its group's threads in the first view that
 * holds it. Returns 0, -EINVAL (NULL comm), -E2BIG (more than INT_MAX
 * threads, or a group thread_class.h refuses) or -ENOMEM; map is empty on
 * error. */
int class_map_build(struct class_map *map, const struct class_map_input *in,
		    const struct tclass_classifier *classifier);
/* As class_map_build(), grouping by procs (n of them, sorted by pid; a
 * thread whose pid procs does not hold is a group of its own process). */
int class_map_build_grouped(struct class_map *map, const struct class_map_input *in,
			    const struct tclass_classifier *classifier,
			    const struct class_map_proc *procs, size_t n);
void class_map_free(struct class_map *map);
/* Whether pid is one of group g's processes. */
int class_map_group_has(const struct class_map *map, size_t g, uint32_t pid);

/* The distinct processes (pids) whose threads are in class cls into out,
 * ascending: the lowest max of them. Returns how many it wrote. A group's
 * class can span processes (PostgreSQL's backends). */
size_t class_map_class_pids(const struct class_map *map, uint32_t cls, uint32_t *out, size_t max);

/* The member for (pid, tid); NULL if the map does not hold it. */
const struct class_map_member *class_map_find(const struct class_map *map, uint32_t pid,
					      uint32_t tid);

#endif
