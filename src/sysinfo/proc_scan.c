// SPDX-License-Identifier: GPL-2.0
#include "sysinfo/proc_scan.h"
#include "core/vec.h"
#include "sysinfo/procfile.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysinfo/proc_status.h"

/* PID_MAX_LIMIT is 2^22; the cap only bounds a walk of a corrupt tree. */
#define PROC_ENTRIES_MAX (1u << 23)
#define STAT_FILE_MAX 4096
#define STATUS_FILE_MAX (1 << 16)

static bool parse_pid(const char *s, int *out)
{
	long v = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > 0x3fffffff / 10)
			return false;
		v = v * 10 + (*s - '0');
	}
	*out = (int)v;
	return v > 0;
}

static int walk(const char *root, const char *rel, dbt_pid_fn fn, void *ctx)
{
	struct dirent *e;
	DIR *d;
	int err, rc = 0;

	err = procfile_opendir(root, rel, &d);
	if (err)
		return err;
	for (unsigned int seen = 0; !rc && seen < PROC_ENTRIES_MAX && (e = readdir(d)); seen++) {
		int pid;

		if (parse_pid(e->d_name, &pid))
			rc = fn(ctx, pid);
	}
	closedir(d);
	return rc;
}

int dbt_proc_for_each_pid(const char *root, dbt_pid_fn fn, void *ctx)
{
	return walk(root, "proc", fn, ctx);
}

int dbt_proc_for_each_task(const char *root, int pid, dbt_pid_fn fn, void *ctx)
{
	char rel[64];

	snprintf(rel, sizeof(rel), "proc/%d/task", pid);
	return walk(root, rel, fn, ctx);
}

/* Decimal digits at p, never past end: the buffer need not hold a NUL
 * (sscanf and strtoull would look for one past len). Stops at the first
 * non-digit; saturates rather than wraps. */
static unsigned long long digits(const char *p, const char *end, const char **stop)
{
	unsigned long long v = 0;

	for (; p < end && *p >= '0' && *p <= '9'; p++)
		v = v > (ULLONG_MAX - 9) / 10 ? ULLONG_MAX : v * 10 + (unsigned long long)(*p - '0');
	*stop = p;
	return v;
}

int dbt_proc_stat_parse(const char *buf, size_t len, struct dbt_proc_cpu *out)
{
	const char *open = memchr(buf, '(', len), *close = NULL, *p, *end = buf + len, *stop;
	unsigned long long utime = 0, stime = 0, pid;
	size_t n;
	int field = 3;

	memset(out, 0, sizeof(*out));
	for (const char *q = end; q > buf; q--)
		if (q[-1] == ')') {
			close = q - 1;
			break;
		}
	if (!open || !close || close < open)
		return -EINVAL;
	for (p = buf; p < open && (*p == ' ' || *p == '\t'); p++)
		;
	pid = digits(p, open, &stop);
	if (stop == p || pid > INT_MAX)
		return -EINVAL;
	out->pid = (int)pid;
	n = (size_t)(close - open - 1);
	if (n >= sizeof(out->comm))
		n = sizeof(out->comm) - 1;
	memcpy(out->comm, open + 1, n);
	out->comm[n] = '\0';
	/* fields after the comm: 3 state, 4 ppid, ..., 14 utime, 15 stime */
	for (p = close + 1; p < end && field <= 15; field++) {
		unsigned long long v;

		while (p < end && *p == ' ')
			p++;
		if (p >= end)
			break;
		v = digits(p, end, &stop);
		if (field == 4)
			out->ppid = (int)v;
		else if (field == 14)
			utime = v;
		else if (field == 15)
			stime = v;
		while (p < end && *p != ' ')
			p++;
	}
	if (field <= 15)
		return -EINVAL;
	out->ticks = utime + stime;
	return 0;
}

struct cpu_walk {
	const char *root;
	struct dbt_proc_cpu *v;
	size_t n, cap;
};

static int add_cpu(void *ctx, int pid)
{
	struct cpu_walk *w = ctx;
	struct dbt_proc_cpu pc;
	char rel[64], *buf;
	size_t len;
	int err;

	snprintf(rel, sizeof(rel), "proc/%d/stat", pid);
	if (procfile_slurp(w->root, rel, STAT_FILE_MAX, &buf, &len))
		return 0;	/* gone since readdir: not an error */
	if (dbt_proc_stat_parse(buf, len, &pc) || pc.pid != pid) {
		free(buf);
		return 0;
	}
	free(buf);
	/* kthreadd (2) and its children are kernel threads, never targets */
	if (pid == 2 || pc.ppid == 2)
		return 0;
	err = VEC_RESERVE(w->v, w->cap, w->n + 1);
	if (err)
		return err;
	w->v[w->n++] = pc;
	return 0;
}

static int by_pid(const void *a, const void *b)
{
	const struct dbt_proc_cpu *x = a, *y = b;

	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

int dbt_proc_cpu_list(const char *root, struct dbt_proc_cpu **procs, size_t *n)
{
	struct cpu_walk w = { .root = root };
	int err = dbt_proc_for_each_pid(root, add_cpu, &w);

	if (err) {
		free(w.v);
		*procs = NULL;
		*n = 0;
		return err;
	}
	if (w.n)
		qsort(w.v, w.n, sizeof(*w.v), by_pid);
	*procs = w.v;
	*n = w.n;
	return 0;
}

static const struct dbt_proc_cpu *find_pid(const struct dbt_proc_cpu *v, size_t n, int pid)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].pid == pid)
			return &v[mid];
		if (v[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

size_t dbt_proc_top_cpu(const struct dbt_proc_cpu *prev, size_t n_prev,
			const struct dbt_proc_cpu *cur, size_t n_cur,
			uint64_t min_ticks, int *pids, size_t max)
{
	uint64_t best[64];
	size_t n = 0;

	if (max > sizeof(best) / sizeof(best[0]))
		max = sizeof(best) / sizeof(best[0]);
	for (size_t i = 0; i < n_cur; i++) {
		const struct dbt_proc_cpu *p = prev ? find_pid(prev, n_prev, cur[i].pid) : NULL;
		uint64_t t = cur[i].ticks;
		size_t at;

		/* a process new since prev started within the window: all its
		 * time is in it */
		if (prev && p)
			t = t >= p->ticks ? t - p->ticks : 0;
		if (t < min_ticks || t == 0)
			continue;
		/* insertion into a short sorted list; cur is by pid, so an
		 * equal time keeps the lower pid first */
		for (at = n; at > 0 && best[at - 1] < t; at--)
			;
		if (at >= max)
			continue;
		if (n < max)
			n++;
		memmove(&best[at + 1], &best[at], (n - 1 - at) * sizeof(best[0]));
		memmove(&pids[at + 1], &pids[at], (n - 1 - at) * sizeof(pids[0]));
		best[at] = t;
		pids[at] = cur[i].pid;
	}
	return n;
}

struct task_walk {
	const char *root;
	int pid;
	struct dbt_task_cpus *out;
	struct dbt_cpuset main;
	bool have_main;
};

static int add_task(void *ctx, int tid)
{
	struct task_walk *w = ctx;
	struct dbt_cpuset set;

	if (proc_cpus_allowed(w->root, w->pid, tid, &set))
		return 0;	/* exited since readdir */
	w->out->n_threads++;
	dbt_cpuset_or(&w->out->allowed, &w->out->allowed, &set);
	if (w->have_main && !dbt_cpuset_equal(&set, &w->main))
		w->out->n_differ++;
	return 0;
}

int dbt_proc_task_cpus(const char *root, int pid, struct dbt_task_cpus *out)
{
	struct task_walk w = { .root = root, .pid = pid, .out = out };
	char rel[64], *buf;
	size_t len;
	int err;

	memset(out, 0, sizeof(*out));
	snprintf(rel, sizeof(rel), "proc/%d/comm", pid);
	if (!procfile_slurp(root, rel, 256, &buf, &len)) {
		size_t n = strcspn(buf, "\n");

		snprintf(out->comm, sizeof(out->comm), "%.*s", (int)n, buf);
		free(buf);
	}
	err = proc_cpus_allowed(root, pid, 0, &w.main);
	if (err)
		return err;
	w.have_main = true;
	err = dbt_proc_for_each_task(root, pid, add_task, &w);
	/* no task directory (a fixture, or a kernel without it): the main
	 * thread's set is all there is */
	if (err == -ENOENT || out->n_threads == 0) {
		out->n_threads = 1;
		out->n_differ = 0;
		out->allowed = w.main;
		return 0;
	}
	return err;
}
