#include "collect/sched.h"
#include "core/bpf_percpu.h"
#include "core/loop_fds.h"
#include "sched.skel.h"

#include <bpf/bpf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const struct plan_variant variants[] = {
	{ "tp_btf", "_btf" },
	{ "raw_tp", "_raw" },
};

static int skel_open(void **skel, struct bpf_object **obj)
{
	struct sched_bpf *s = sched_bpf__open();

	if (!s)
		return errno ? -errno : -EINVAL;
	*skel = s;
	*obj = s->obj;
	return 0;
}

static int skel_load(void *skel)
{
	return sched_bpf__load(skel);
}

static void skel_destroy(void *skel)
{
	sched_bpf__destroy(skel);
}

static const struct plan_family family = {
	.name = "sched",
	.variants = variants,
	.n_variants = sizeof(variants) / sizeof(variants[0]),
	.open = skel_open,
	.load = skel_load,
	.destroy = skel_destroy,
};

int sched_collector_open(struct sched_collector *c, struct probe_report *rep)
{
	struct sched_bpf *s;
	int err;

	memset(c, 0, sizeof(*c));
	c->ncpus = percpu_ncpus();
	if (c->ncpus <= 0)
		return c->ncpus ? c->ncpus : -EINVAL;
	c->cur = calloc((size_t)c->ncpus, sizeof(*c->cur));
	c->stats = calloc((size_t)c->ncpus, sizeof(*c->stats));
	if (!c->cur || !c->stats) {
		sched_collector_close(c);
		return -ENOMEM;
	}
	err = plan_run(&family, &c->h, rep);
	if (err) {
		sched_collector_close(c);
		return err;
	}
	s = c->h.skel;
	c->threads_fd = bpf_map__fd(s->maps.sched_threads);
	c->ival_fd = bpf_map__fd(s->maps.sched_ival);
	c->cur_fd = bpf_map__fd(s->maps.sched_cur);
	c->stats_fd = bpf_map__fd(s->maps.sched_stats);
	return 0;
}

static int grow(struct sched_collector *c, uint32_t want)
{
	/* the larger of the two value types, so one buffer serves both maps */
	size_t vsz = sizeof(struct dbt_sched_thread) > sizeof(struct dbt_sched_ival)
			     ? sizeof(struct dbt_sched_thread) : sizeof(struct dbt_sched_ival);
	uint32_t *keys;
	void *values;

	if (want <= c->buf_cap)
		return 0;
	keys = realloc(c->keys, sizeof(*keys) * want);
	if (!keys)
		return -ENOMEM;
	c->keys = keys;
	values = realloc(c->values, vsz * want);
	if (!values)
		return -ENOMEM;
	c->values = values;
	c->buf_cap = want;
	return 0;
}

/* Reads a whole hash map with batch lookups, deleting what it read when
 * asked. Returns the number of entries or -errno. */
static int dump_map(struct sched_collector *c, int fd, size_t vsz, bool and_delete)
{
	uint32_t total = 0, in = 0, out = 0, chunk = 1024;
	bool first = true;

	for (;;) {
		uint32_t count;
		int err;

		err = grow(c, total + chunk);
		if (err)
			return err;
		count = chunk;
		err = and_delete
			? bpf_map_lookup_and_delete_batch(fd, first ? NULL : &in, &out, c->keys + total,
							  (char *)c->values + total * vsz, &count, NULL)
			: bpf_map_lookup_batch(fd, first ? NULL : &in, &out, c->keys + total,
					       (char *)c->values + total * vsz, &count, NULL);
		if (err && errno != ENOENT)
			return -errno;
		total += count;
		if (err)   /* ENOENT: the map is exhausted */
			break;
		in = out;
		first = false;
		if (total >= DBT_SCHED_MAX_THREADS * 2u)
			break;   /* never loop on a map that keeps changing */
	}
	return (int)total;
}

static void add_exited(struct sched_collector *c, uint32_t tid)
{
	if (c->n_exited == c->exited_cap) {
		uint32_t cap = c->exited_cap ? c->exited_cap * 2 : 256;
		uint32_t *e = realloc(c->exited, sizeof(*e) * cap);

		if (!e)
			return;   /* it stays until the LRU drops it: counted then */
		c->exited = e;
		c->exited_cap = cap;
	}
	c->exited[c->n_exited++] = tid;
}

static void delete_exited(struct sched_collector *c)
{
	for (uint32_t i = 0; i < c->n_exited; i++)
		if (!bpf_map_delete_elem(c->threads_fd, &c->exited[i]))
			c->deleted++;
	c->n_exited = 0;
}

int sched_collector_read(struct sched_collector *c, struct sched_snapshot *snap)
{
	const struct dbt_sched_thread *tv;
	uint64_t inserts = 0, failed = 0;
	__u32 zero = 0;
	int n, err;

	delete_exited(c);
	snap->n = 0;
	snap->mono_ns = mono_ns();
	err = percpu_lookup(c->cur_fd, &zero, c->cur, sizeof(*c->cur));
	if (err)
		return err;
	n = dump_map(c, c->threads_fd, sizeof(*tv), false);
	if (n < 0)
		return n;
	tv = c->values;
	for (int i = 0; i < n; i++) {
		struct sched_thread_sample *t = sched_snapshot_add(snap);

		if (!t)
			return -ENOMEM;
		t->tid = c->keys[i];
		t->pid = tv[i].pid;
		memcpy(t->comm, tv[i].comm, sizeof(t->comm));
		t->comm[sizeof(t->comm) - 1] = 0;
		t->exited = tv[i].exited;
		t->oncpu_ns = tv[i].oncpu_ns;
		t->runq_ns = tv[i].runq_ns;
		t->vol = tv[i].vol;
		t->invol = tv[i].invol;
		t->migrations = tv[i].migrations;
		if (t->exited)
			add_exited(c, t->tid);
	}
	sched_snapshot_sort(snap);
	/* the run in progress on each CPU counts up to now */
	for (int cpu = 0; cpu < c->ncpus; cpu++) {
		struct sched_thread_sample *t;

		if (!c->cur[cpu].tid || c->cur[cpu].since_ns > snap->mono_ns)
			continue;
		t = (struct sched_thread_sample *)sched_snapshot_find(snap, c->cur[cpu].tid);
		if (t)
			t->oncpu_ns += snap->mono_ns - c->cur[cpu].since_ns;
	}

	n = dump_map(c, c->ival_fd, sizeof(struct dbt_sched_ival), true);
	if (n < 0)
		return n;
	for (int i = 0; i < n; i++) {
		const struct dbt_sched_ival *iv = (const struct dbt_sched_ival *)c->values + i;
		struct sched_thread_sample *t =
			(struct sched_thread_sample *)sched_snapshot_find(snap, c->keys[i]);

		if (!t)
			continue;   /* its counters were evicted: nothing to attach to */
		memcpy(t->runq_hist, iv->runq_hist, sizeof(t->runq_hist));
		memcpy(t->cpus, iv->cpus, sizeof(t->cpus));
		t->runq_max_ns = iv->runq_max_ns;
		t->cpus_beyond = iv->cpus_beyond;
	}

	err = percpu_lookup(c->stats_fd, &zero, c->stats, sizeof(*c->stats));
	if (err)
		return err;
	for (int cpu = 0; cpu < c->ncpus; cpu++) {
		inserts += c->stats[cpu].inserts;
		failed += c->stats[cpu].update_failed;
	}
	/* every entry ever inserted is live, deleted by us, or evicted */
	snap->evictions = inserts > (uint64_t)snap->n + c->deleted
				  ? inserts - (uint64_t)snap->n - c->deleted : 0;
	snap->lost = failed;
	return 0;
}

uint64_t sched_collector_lost(const struct sched_collector *c)
{
	return plan_lost_events(&c->h);
}

void sched_collector_close(struct sched_collector *c)
{
	plan_close(&family, &c->h);
	free(c->keys);
	free(c->values);
	free(c->cur);
	free(c->stats);
	free(c->exited);
	memset(c, 0, sizeof(*c));
}
