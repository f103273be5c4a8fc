#include "collect/sched.h"
#include "core/bpf_batch.h"
#include "core/bpf_percpu.h"
#include "core/bpf_plan_skel.h"
#include "core/log.h"
#include "core/loop_fds.h"
#include "core/vec.h"
#include "dbtrace/softirq.h"
#include "sysinfo/clocksource.h"
#include "sysinfo/procfile.h"
#include "sched.skel.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* tp_btf: typed loads, thread records in task storage (a pointer chase
 * from the task, not a hash lookup), the iterator and the staged
 * run-queue waits (compare-and-swap). raw_tp: every thread in the
 * bounded hash, from 5.10 on. */
static const struct plan_variant variants[] = {
	{ "tp_btf", "_btf", FEAT(FEAT_KERNEL_BTF) | FEAT(FEAT_TASK_STORAGE_TRACING) | FEAT(FEAT_ATOMIC_FETCH) },
	{ "raw_tp", "_raw", 0 },
};

/* Threads born from now on count from zero (bpf/sched.bpf.c): stamped
 * at the load itself, the last moment rodata can change. */
static int stamp_load_time(struct sched_bpf *s)
{
	s->rodata->loaded_ns = mono_ns();
	return 0;
}

PLAN_SKEL_HOOKED(sched, plan_skel_no_hook, stamp_load_time)

/* Whether the CPUs' runqueue clocks may disagree (the kernel rejected
 * the TSC): blocks are then timed by the monotonic clock, said in rep. */
static bool runq_clocks_disagree(struct probe_report *rep)
{
	struct dbt_clocksource cs;
	struct dbt_clocksource_log klog;
	bool have_log = !dbt_clocksource_scan_klog(&klog);

	if (dbt_clocksource_read(NULL, &cs))
		memset(&cs, 0, sizeof(cs));
	if (!dbt_sched_clock_per_cpu(&cs, have_log ? &klog : NULL))
		return false;
	probe_note(rep, "blocked time timed by the monotonic clock: the CPUs' runqueue clocks may "
		   "disagree (clocksource %s%s)", cs.current[0] ? cs.current : "unknown",
		   have_log && klog.n_unstable ? ", TSC marked unstable" : "");
	return true;
}

/* Softirq time reaches threads through the softirq family's per-CPU
 * sirq_pending map (bpf/sirq_pending.bpf.h): this object uses that map
 * instead of its own. */
static int skel_prepare(struct plan_handle *h, const struct plan_variant *v, struct probe_report *rep)
{
	struct sched_collector *c = h->ctx;
	struct sched_bpf *s = h->skel;
	int err;

	/* the syscall a thread blocks in */
	s->rodata->dbt_task_regs_helper = bpf_features_task_regs_helper(h->kernel, rep);
	s->rodata->blk_clock_mono = runq_clocks_disagree(rep);

	/* raw_tp keeps every thread in sched_threads: no task storage, which
	 * kernels without tp_btf lack too */
	if (!strcmp(v->path, "raw_tp")) {
		err = bpf_map__set_autocreate(s->maps.sched_task, false);
		if (err)
			return err;
	}
	if (c->sirq_pending_fd < 0)
		return 0;
	return bpf_map__reuse_fd(s->maps.sirq_pending, c->sirq_pending_fd);
}

static const struct plan_family family = {
	.name = "sched",
	.variants = variants,
	.n_variants = sizeof(variants) / sizeof(variants[0]),
	PLAN_SKEL_OPS(sched),
	.prepare = skel_prepare,
};

/* The task iterator's link among the attached ones (the typed variant
 * has one), or -1. */
static int iter_link_fd(const struct plan_handle *h)
{
	for (int i = 0; i < h->n_links; i++) {
		struct bpf_link_info info;
		__u32 len = sizeof(info);
		int fd = bpf_link__fd(h->links[i]);

		memset(&info, 0, sizeof(info));
		if (!bpf_obj_get_info_by_fd(fd, &info, &len) && info.type == BPF_LINK_TYPE_ITER)
			return fd;
	}
	return -1;
}

int sched_collector_open(struct sched_collector *c, struct probe_report *rep, int sirq_pending_fd,
			 struct bpf_features *kernel)
{
	struct sched_bpf *s;
	int err;

	memset(c, 0, sizeof(*c));
	c->h.kernel = kernel;
	c->sirq_pending_fd = sirq_pending_fd;
	c->h.ctx = c;
	c->ncpus = percpu_ncpus();
	if (c->ncpus <= 0)
		return c->ncpus ? c->ncpus : -EINVAL;
	c->cur = calloc((size_t)c->ncpus, sizeof(*c->cur));
	c->stats = calloc((size_t)c->ncpus, sizeof(*c->stats));
	c->pending = calloc((size_t)c->ncpus, sizeof(*c->pending));
	if (!c->cur || !c->stats || !c->pending) {
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
	c->cur_fd = bpf_map__fd(s->maps.sched_cur);
	c->stats_fd = bpf_map__fd(s->maps.sched_stats);
	c->pending_fd = bpf_map__fd(s->maps.sirq_pending);
	c->iter_fd = iter_link_fd(&c->h);
	c->runq_fd = bpf_map__fd(s->maps.sched_runq);
	return 0;
}

struct take_ctx {
	struct sched_collector *c;
	struct sched_snapshot *snap;
};

static int add_rec(struct sched_collector *c, uint32_t tid, const struct dbt_sched_ival *iv)
{
	int err = VEC_RESERVE(c->recs, c->recs_cap, (size_t)c->n_recs + 1);

	if (err)
		return err;
	c->recs[c->n_recs].tid = tid;
	c->recs[c->n_recs].iv = *iv;
	c->n_recs++;
	return 0;
}

/* One thread's record, from either place it lives (it carries its tid). */
static int take_one(struct sched_collector *c, struct sched_snapshot *snap,
		    const struct dbt_sched_thread *tv)
{
	const struct dbt_sched_ival *iv = &tv->ival[c->gen & 1];
	uint32_t tid = tv->tid;
	struct sched_thread_sample *t = sched_snapshot_add(snap);

	if (!t)
		return -ENOMEM;
	if (iv->gen == c->gen && add_rec(c, tid, iv))
		return -ENOMEM;
	t->tid = tid;
	t->pid = tv->pid;
	memcpy(t->comm, tv->comm, sizeof(t->comm));
	t->comm[sizeof(t->comm) - 1] = 0;
	memcpy(t->pcomm, tv->pcomm, sizeof(t->pcomm));
	t->pcomm[sizeof(t->pcomm) - 1] = 0;
	t->exited = tv->exited;
	t->oncpu_ns = tv->oncpu_ns;
	t->runq_ns = tv->runq_ns;
	t->vol = tv->vol;
	t->invol = tv->invol;
	t->migrations = tv->migrations;
	t->sirq_ns = tv->sirq_ns;
	t->net_sirq_ns = tv->net_sirq_ns;
	t->base_oncpu_ns = tv->base_oncpu_ns;
	t->utime_ns = tv->utime_ns;
	t->stime_ns = tv->stime_ns;
	class_time_blk_from(&t->blk, &tv->blk);
	if (t->blk.since_ns)
		t->blk.since_ns += (uint64_t)c->mono_minus_rq_ns;
	return 0;
}

static int take_threads(void *arg, uint32_t n)
{
	struct take_ctx *tc = arg;
	struct sched_collector *c = tc->c;
	int err;

	for (uint32_t i = 0; i < n; i++) {
		err = take_one(c, tc->snap, &c->chunk[i]);
		if (err)
			return err;
	}
	c->n_map += (int)n;
	return 0;
}

/* The records in task storage (bpf/sched.bpf.c): one run of the task
 * iterator, which also moves threads met since the last run into their
 * storage. Read in whole records; a read may end inside one. */
static int take_stored(struct sched_collector *c, struct sched_snapshot *snap)
{
	const size_t rec = sizeof(c->chunk[0]);
	char *buf = (char *)c->chunk;
	size_t have = 0, whole;
	int fd, err = 0;
	ssize_t n;

	if (c->iter_fd < 0)
		return 0;
	fd = bpf_iter_create(c->iter_fd);
	if (fd < 0)
		return fd;
	for (;;) {
		n = read(fd, buf + have, sizeof(c->chunk) - have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? -errno : 0;
			break;
		}
		have += (size_t)n;
		whole = have / rec;
		for (size_t i = 0; i < whole && !err; i++)
			err = take_one(c, snap, &c->chunk[i]);
		if (err)
			break;
		have -= whole * rec;
		memmove(buf, buf + whole * rec, have);
	}
	close(fd);
	return err;
}

/* The interval's records, parallel to the sorted snapshot; threads
 * without one did not leave a CPU in it. */
static int place_recs(struct sched_collector *c, struct sched_snapshot *snap)
{
	int err = VEC_RESERVE(c->ival, c->ival_cap, (size_t)snap->n);

	if (err)
		return err;
	if (snap->n)
		memset(c->ival, 0, sizeof(*c->ival) * (size_t)snap->n);
	for (int r = 0; r < c->n_recs; r++) {
		int idx = sched_snapshot_index(snap, c->recs[r].tid);

		if (idx >= 0)
			c->ival[idx] = c->recs[r].iv;
	}
	snap->ival = c->ival;
	return 0;
}

static void add_exited(struct sched_collector *c, uint32_t tid)
{
	if (VEC_RESERVE(c->exited, c->exited_cap, (size_t)c->n_exited + 1))
		return;   /* it stays until the LRU drops it: counted then */
	c->exited[c->n_exited++] = tid;
}

static void delete_exited(struct sched_collector *c)
{
	for (uint32_t i = 0; i < c->n_exited; i++)
		if (!bpf_map_delete_elem(c->threads_fd, &c->exited[i]))
			c->deleted++;
	c->n_exited = 0;
}

#define RUNQ_FULL 1

static int take_runq(void *arg, uint32_t n)
{
	struct take_ctx *tc = arg;
	struct sched_collector *c = tc->c;

	for (uint32_t i = 0; i < n; i++) {
		struct sched_name_hist *r;

		/* a map changing under the walk can show an entry twice:
		 * never keep more than it holds */
		if (tc->snap->n_hists >= DBT_SCHED_MAX_RUNQ_KEYS)
			return RUNQ_FULL;
		r = sched_snapshot_add_name_hist(tc->snap);
		if (!r)
			return -ENOMEM;
		r->pid = c->runq_keys[i].pid;
		r->kind = c->runq_keys[i].kind;
		memcpy(r->comm, c->runq_keys[i].comm, sizeof(r->comm));
		r->comm[sizeof(r->comm) - 1] = 0;
		r->born_ns = c->runq_vals[i].born_ns;
		memcpy(r->buckets, c->runq_vals[i].buckets, sizeof(r->buckets));
	}
	return 0;
}

/* A name histogram no thread names any more: its entry in the kernel's
 * map goes too. */
static void delete_name_hist(void *ctx, const struct sched_name_hist *h)
{
	struct sched_collector *c = ctx;
	struct dbt_sched_runq_key key = { .pid = h->pid, .kind = h->kind };

	memcpy(key.comm, h->comm, sizeof(key.comm));
	bpf_map_delete_elem(c->runq_fd, &key);
}

/* Deletes the run-queue histograms of names no thread has any more. */
static int prune_runq(struct sched_collector *c, struct sched_snapshot *snap)
{
	int n = sched_snapshot_prune_name_hists(snap, delete_name_hist, c);

	return n < 0 ? n : 0;
}

/* The kernel's running total of a thread's on-CPU time
 * (se.sum_exec_runtime, brought up to date at every tick while it runs). */
static int read_runtime(uint32_t tid, uint64_t *ns)
{
	char path[64], line[128];
	unsigned long long v;

	snprintf(path, sizeof(path), "/proc/%u/schedstat", tid);
	if (procfile_line(NULL, path, line, sizeof(line)) || sscanf(line, "%llu", &v) != 1)
		return -1;
	*ns = v;
	return 0;
}

/* The thread running on cpu now: its run so far (the map has its runs up
 * to its last switch-out), the softirq time on top of it, charged to it at
 * its next switch-out, and this CPU in the interval's record (written at
 * switch-outs only). A thread that exited meanwhile keeps its counts from
 * the map. */
static void add_running(struct sched_collector *c, struct sched_snapshot *snap, int cpu)
{
	uint32_t tid = c->cur[cpu].tid;
	struct sched_thread_sample *t;
	uint64_t total;
	int i;

	if (!tid)
		return;
	i = sched_snapshot_index(snap, tid);
	if (i < 0)
		return;
	snap->t[i].sirq_ns += c->pending[cpu].total_ns;
	snap->t[i].net_sirq_ns += c->pending[cpu].net_ns;
	if (cpu < DBT_SCHED_CPU_WORDS * 64)
		c->ival[i].cpus[cpu / 64] |= 1ull << (cpu % 64);
	else
		c->ival[i].cpus_beyond = 1;
	t = &snap->t[i];
	if (read_runtime(tid, &total))
		return;
	if (total > t->base_oncpu_ns && total - t->base_oncpu_ns > t->oncpu_ns)
		t->oncpu_ns = total - t->base_oncpu_ns;
}

/* The newest offset any CPU took. The runqueue clocks are one clock
 * where the kernel's sched_clock is stable (TSC): CPUs agree. */
static void take_clock_offset(struct sched_collector *c)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	uint32_t newest = 0;

	for (int cpu = 0; cpu < c->ncpus; cpu++) {
		const struct dbt_sched_cur *k = &c->cur[cpu];

		if (k->clock_gen && (int32_t)(k->clock_gen - newest) > 0) {
			newest = k->clock_gen;
			c->mono_minus_rq_ns = k->mono_minus_rq_ns;
		}
	}
	/* how far apart the CPUs' clocks were this interval (-vv: the
	 * reason for blk_clock_mono, where they disagree) */
	for (int cpu = 0; cpu < c->ncpus; cpu++) {
		const struct dbt_sched_cur *k = &c->cur[cpu];

		if (k->clock_gen != newest)
			continue;
		lo = k->mono_minus_rq_ns < lo ? k->mono_minus_rq_ns : lo;
		hi = k->mono_minus_rq_ns > hi ? k->mono_minus_rq_ns : hi;
	}
	if (hi >= lo)
		log_debug("sched: the CPUs' block clocks lie %.1f us apart", (double)(hi - lo) / 1e3);
}

int sched_collector_read(struct sched_collector *c, struct sched_snapshot *snap)
{
	struct sched_bpf__bss *bss = ((struct sched_bpf *)c->h.skel)->bss;
	struct take_ctx tc = { c, snap };
	uint64_t inserts = 0, failed = 0, adopted = 0, deleted_before;
	__u32 zero = 0;
	int err;

	snap->n = 0;
	snap->n_hists = 0;
	snap->ival = NULL;
	snap->mono_ns = mono_ns();
	err = percpu_lookup(c->cur_fd, &zero, c->cur, sizeof(*c->cur));
	if (!err)
		err = percpu_lookup(c->pending_fd, &zero, c->pending, sizeof(*c->pending));
	if (err)
		return err;
	take_clock_offset(c);
	/* the programs record the next interval from here on, in the other
	 * copy of each thread's record (struct dbt_sched_ival) */
	c->gen = bss->ival_gen;
	__atomic_store_n(&bss->ival_gen, c->gen + 1, __ATOMIC_RELEASE);
	c->n_recs = 0;
	c->n_map = 0;
	/* storage first: the iterator moves new threads out of the map */
	err = take_stored(c, snap);
	if (!err)
		err = bpf_hash_stream(c->threads_fd, c->keys, c->chunk, SCHED_CHUNK, false,
				      DBT_SCHED_MAX_THREADS, take_threads, &tc);
	if (!err)
		err = bpf_hash_stream(c->runq_fd, c->runq_keys, c->runq_vals, SCHED_RUNQ_CHUNK, false,
				      DBT_SCHED_MAX_RUNQ_KEYS, take_runq, &tc);
	if (err == RUNQ_FULL)
		err = 0;
	if (err)
		return err;
	sched_snapshot_sort(snap);
	/* the exited threads read just now are counted in n_map: their
	 * deletion below must not count them a second time */
	deleted_before = c->deleted;
	for (int i = 0; i < snap->n; i++)
		if (snap->t[i].exited)
			add_exited(c, snap->t[i].tid);
	delete_exited(c);
	err = place_recs(c, snap);
	if (!err)
		err = prune_runq(c, snap);
	if (err)
		return err;
	for (int cpu = 0; cpu < c->ncpus; cpu++)
		add_running(c, snap, cpu);

	err = percpu_lookup(c->stats_fd, &zero, c->stats, sizeof(*c->stats));
	if (err)
		return err;
	for (int cpu = 0; cpu < c->ncpus; cpu++) {
		inserts += c->stats[cpu].inserts;
		failed += c->stats[cpu].update_failed;
		adopted += c->stats[cpu].adopted;
	}
	/* every entry ever put in sched_threads is there, deleted by us,
	 * moved into task storage, or evicted */
	snap->evictions = inserts > (uint64_t)c->n_map + deleted_before + adopted
				  ? inserts - (uint64_t)c->n_map - deleted_before - adopted : 0;
	snap->lost = failed;
	log_debug("sched: %d threads (%d in the map), %llu inserted, %llu deleted, %llu adopted, %llu evicted",
		  snap->n, c->n_map, (unsigned long long)inserts, (unsigned long long)c->deleted,
		  (unsigned long long)adopted, (unsigned long long)snap->evictions);
	return 0;
}

uint64_t sched_collector_lost(const struct sched_collector *c)
{
	return plan_lost_events(&c->h);
}

void sched_collector_close(struct sched_collector *c)
{
	plan_close(&family, &c->h);
	free(c->ival);
	free(c->recs);
	free(c->cur);
	free(c->stats);
	free(c->pending);
	free(c->exited);
	memset(c, 0, sizeof(*c));
}
