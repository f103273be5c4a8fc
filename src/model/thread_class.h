/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Thread classes: which pool a thread belongs to, named from its comm.
 *
 * Database servers run hundreds of threads in a handful of pools
 * (`TNT_L0_1002`, `RpcIO`, `ib_io_rd-3`, `pool-1-thread-7`); dbtrace
 * reports per class, a class being (process, class name). This file is
 * pure: no I/O, no printing, no global state. Memory is allocated only by
 * tclass_classifier_new() and tclass_assign(), and released by their
 * _free() counterparts.
 *
 * Naming rule (tclass_assign() applies it to the threads of one group,
 * normally one process; kernel threads, which are each their own process,
 * may be passed as one group, e.g. all children of kthreadd):
 *
 *  1. Overrides first. The first `--class NAME=GLOB` whose GLOB matches the
 *     comm (fnmatch(3), no flags) names the thread NAME. Overridden threads
 *     take no part in steps 2-4.
 *
 *  2. Split the comm at its LAST run of ASCII digits:
 *     prefix, number, tail (`kworker/0:` `1` `H`). The number may vary only
 *     if the tail is at most TCLASS_MAX_TAIL (3) characters: `-RW`, `H`,
 *     ``. A number followed by a longer tail is part of the identity:
 *     `C2 CompilerThre`, `T1002_TTLTablet` (tenant 1002) never vary.
 *     Threads whose comm has no such number are named by their comm.
 *
 *  3. Threads with the same prefix and tail form a candidate pool. A comm
 *     of exactly 15 characters (TASK_COMM_LEN - 1) may have been cut by the
 *     kernel, so its tail is not compared (`$_NIOREACTOR-9-` and
 *     `$_NIOREACTOR-10`, both from `$_NIOREACTOR-<n>-RW`, are one pool).
 *
 *  4. The number is a thread index, and is replaced by `*`, when the
 *     candidate pool shows
 *       a) at least two different numbers, and
 *       b) no single number carried by more threads than there are
 *          different numbers.
 *     (b) tells a pool key from an index: every worker of tenant 1002 is
 *     `TNT_L0_1002`, so tenants 1, 1001 and 1002 with 3, 6 and 40 workers
 *     stay three classes, while `ib_io_rd-1`..`ib_io_rd-4` become
 *     `ib_io_rd-*`. Comms whose number may have been cut (number at the end
 *     of a comm of 14 or 15 characters: the kernel keeps 15, MySQL's
 *     performance schema keeps 14) are not counted in (b), since
 *     `pool-1-thread-1` stands for threads 1, 10-19 and 100-199 alike.
 *     The class name is prefix `*` tail; for cut comms the tail is the
 *     longest common start of the members' tails.
 *     Otherwise every thread keeps its comm as class name.
 *
 * A thread seen alone therefore keeps its comm (or its override).
 *
 * Output is deterministic: the class table is sorted by name (bytewise),
 * whatever the order of the input. Cost is O(n log n) in the number of
 * threads plus O(n * overrides) fnmatch calls.
 */
#ifndef DBTRACE_MODEL_THREAD_CLASS_H
#define DBTRACE_MODEL_THREAD_CLASS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Linux TASK_COMM_LEN: a comm holds at most 15 characters. */
#define TCLASS_COMM_LEN 16
/* Class-name buffer size, NUL included. Names read from comms are cut at
 * TCLASS_NAME_MAX - 1 characters; override names must fit. */
#define TCLASS_NAME_MAX 64
/* Override glob buffer size, NUL included. */
#define TCLASS_GLOB_MAX 256
/* Most `--class` overrides a classifier holds. */
#define TCLASS_MAX_OVERRIDES 256
/* Most threads one tclass_assign() call accepts (pid_max's ceiling). */
#define TCLASS_MAX_THREADS (1u << 22)
/* Longest text allowed after a varying number (`-RW`, `H`). */
#define TCLASS_MAX_TAIL 3

/* One `--class NAME=GLOB`. Both strings are NUL-terminated, non-empty and
 * free of control characters. */
struct tclass_override {
	char name[TCLASS_NAME_MAX];
	char glob[TCLASS_GLOB_MAX];
};

/* Parse the text of one `--class` option ("NAME=GLOB"; the first '='
 * separates, so GLOB may contain '='). Returns 0, or -EINVAL (NULL text,
 * missing '=', empty NAME or GLOB, control character) or -ENAMETOOLONG
 * (NAME >= TCLASS_NAME_MAX or GLOB >= TCLASS_GLOB_MAX characters), with a
 * one-line message in err (NUL-terminated if errlen > 0; err may be NULL).
 * *out is written only on success. */
int tclass_parse_override(const char *text, struct tclass_override *out,
			  char *err, size_t errlen);

/* The overrides, in command-line order. Opaque. */
struct tclass_classifier;

/* Build a classifier from n overrides (copied; ovr may be NULL if n == 0).
 * Returns 0 and sets *out, or -EINVAL (NULL out, an override not as
 * tclass_parse_override() makes them), -E2BIG (n > TCLASS_MAX_OVERRIDES),
 * -ENOMEM. */
int tclass_classifier_new(const struct tclass_override *ovr, size_t n,
			  struct tclass_classifier **out);
void tclass_classifier_free(struct tclass_classifier *c);
/* Number of overrides held (0 for NULL). */
size_t tclass_classifier_count(const struct tclass_classifier *c);

/* Input: one thread of the group. comm is NUL-terminated; at most
 * TCLASS_NAME_MAX - 1 characters of it are read. tid is carried for the
 * caller and does not influence naming. */
struct tclass_thread {
	uint32_t tid;
	const char *comm;
};

/* Output: one class of the group. */
struct tclass_class {
	char name[TCLASS_NAME_MAX];
	uint32_t n_threads;
	bool from_override;	/* some member was named by an override */
};

struct tclass_result {
	size_t n_classes;
	struct tclass_class *classes;	/* sorted by name, names unique */
	size_t n_threads;
	uint32_t *class_of;		/* [n_threads]: index into classes */
};

/* Name the n threads of one group (normally one process). c may be NULL
 * (no overrides). On success returns 0 and fills *out, which the caller
 * releases with tclass_result_free(); class_of[i] is the class of
 * threads[i]. Returns -EINVAL (NULL out, NULL threads with n > 0, NULL
 * comm), -E2BIG (n > TCLASS_MAX_THREADS) or -ENOMEM, leaving *out empty. */
int tclass_assign(const struct tclass_classifier *c,
		  const struct tclass_thread *threads, size_t n,
		  struct tclass_result *out);
void tclass_result_free(struct tclass_result *r);

/* The pool form of one comm, ignoring siblings: `ib_io_rd-3` ->
 * `ib_io_rd-*`, `kworker/0:1H` -> `kworker/0:*H`. Returns 1 if the comm
 * has a number that may vary (out holds the pool form), 0 if not (out
 * holds the comm, cut at TCLASS_NAME_MAX - 1), -EINVAL (NULL argument) or
 * -ENOSPC (outlen too small; out holds "" if outlen > 0). */
int tclass_stem(const char *comm, char *out, size_t outlen);

/* Class of a thread seen alone in its group: the first matching override,
 * else the comm itself (cut at TCLASS_NAME_MAX - 1). c may be NULL.
 * Returns 1 if an override matched, 0 if not, -EINVAL or -ENOSPC as
 * tclass_stem(). */
int tclass_name_alone(const struct tclass_classifier *c, const char *comm,
		      char *out, size_t outlen);

#endif /* DBTRACE_MODEL_THREAD_CLASS_H */
