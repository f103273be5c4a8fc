#include "collect/clock.h"
#include "core/bpf_batch.h"
#include "core/bpf_percpu.h"
#include "core/bpf_perf.h"
#include "core/bpf_plan_skel.h"
#include "core/tracefs.h"
#include "core/log.h"
#include "core/loop_fds.h"
#include "clock.skel.h"

#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Each variant samples with its own copy of the perf_event program and
 * counts syscalls its own way, or not at all; the plan loads only the one
 * it tries. By default only fentry counts: on a trampoline on each clock
 * syscall, no other system call pays anything. Elsewhere the sampler
 * alone measures the share of CPU inside clock syscalls. The counting
 * variants a user can ask for (--clock-syscalls=count) are ordered by
 * what other system calls pay: the slow syscall path with the
 * per-syscall tracepoints (+45% on a syscall-bound load here); that plus
 * a program run on every system call with raw_syscalls:sys_enter (about
 * 2x: measured with a getppid loop, 80-100 ns against 30-90 ns per call).
 * If none of them loads, the sampler alone still does. */
static const struct plan_variant sampled_variants[] = {
	{ "perf_event+fentry", "_fe", FEAT(FEAT_KERNEL_BTF) },
	{ "perf_event", "_only", 0 },
};
static const struct plan_variant counting_variants[] = {
	{ "perf_event+fentry", "_fe", FEAT(FEAT_KERNEL_BTF) },
	{ "perf_event+tracepoint", "_tp", 0 },
	{ "perf_event+tp_btf", "_btf", FEAT(FEAT_KERNEL_BTF) },
	{ "perf_event+raw_tp", "_raw", 0 },
	{ "perf_event", "_only", 0 },
};

/* The skeleton and the per-CPU perf links it feeds (more than the
 * plan's link list holds): the plan's handle, destroyed together. */
struct clock_skel {
	struct clock_bpf *bpf;
	struct perf_cpu_links perf;
};

/* The running kernel's constants for the programs: vDSO function ranges
 * and this architecture's clock syscall numbers. Always 0: without a
 * vDSO the programs still load. */
static int set_rodata(struct clock_bpf *s)
{
	static const long nr[DBT_CLOCK_SYS_N] = {
		[DBT_CLOCK_SYS_CLOCK_GETTIME] = SYS_clock_gettime,
		[DBT_CLOCK_SYS_GETTIMEOFDAY] = SYS_gettimeofday,
#ifdef SYS_time
		[DBT_CLOCK_SYS_TIME] = SYS_time,
#else
		[DBT_CLOCK_SYS_TIME] = -1,
#endif
		[DBT_CLOCK_SYS_CLOCK_NANOSLEEP] = SYS_clock_nanosleep,
	};
	struct clock_fn_table t;
	struct vdso_syms syms;
	uint64_t len;

	for (int k = 0; k < DBT_CLOCK_SYS_N; k++)
		s->rodata->sys_nr[k] = nr[k];
	if (vdso_self(&syms, &len))
		return 0;   /* no vDSO: every sample counts as elsewhere */
	clock_fn_table_build(&syms, len, &t);
	s->rodata->vdso_text_len = t.text_len;
	memcpy((void *)s->rodata->vdso_fns, t.range, sizeof(t.range));
	return 0;
}

/* The per-CPU samplers: detached before the skeleton unloads the
 * program they run. */
static void release_perf(struct clock_skel *w)
{
	perf_detach_cpus(&w->perf);
}

PLAN_SKEL_BOXED(clock, struct clock_skel, set_rodata, plan_skel_no_hook, release_perf)

static int attach_one(struct plan_handle *h, struct bpf_program *prog, char *stage, size_t stagelen)
{
	struct bpf_link *link;

	if (h->n_links >= PLAN_MAX_LINKS)
		return -E2BIG;
	link = bpf_program__attach(prog);
	if (!link) {
		int err = errno ? -errno : -EINVAL;

		/* a clock syscall this architecture lacks has no tracepoint */
		if (err == -ENOENT && (!strcmp(bpf_program__name(prog), "clk_time_tp") ||
				       !strcmp(bpf_program__name(prog), "clk_time_fe")))
			return 0;
		snprintf(stage, stagelen, "attach %s", bpf_program__name(prog));
		return err;
	}
	h->links[h->n_links++] = link;
	return 0;
}

/* The sampler on every CPU, the syscall counters once each. */
static int skel_attach(struct plan_handle *h, const struct plan_variant *v, char *stage,
		       size_t stagelen)
{
	const struct clock_collector *c = h->ctx;
	struct clock_skel *w = h->skel;
	struct perf_event_attr attr;
	struct bpf_program *prog;
	int err;

	if (!strcmp(v->suffix, "_tp") && (err = tracefs_ensure()))
		log_debug("clock: cannot mount tracefs: %s", strerror(-err));
	bpf_object__for_each_program(prog, h->obj) {
		if (!bpf_program__autoload(prog))
			continue;
		if (bpf_program__type(prog) != BPF_PROG_TYPE_PERF_EVENT) {
			err = attach_one(h, prog, stage, stagelen);
			if (err)
				return err;
			continue;
		}
		err = perf_cpu_clock_attr(&attr, c ? c->sample_hz : CLOCK_DEFAULT_HZ);
		if (err) {
			snprintf(stage, stagelen, "sample rate");
			return err;
		}
		err = perf_attach_cpus(prog, &attr, &w->perf, stage, stagelen);
		if (err < 0)
			return err;
	}
	return 0;
}

/* A clock syscall sampled in the kernel is told by the task's saved
 * registers: bpf_task_pt_regs() where the kernel has it, else the top of
 * the task's kernel stack. */
static int skel_prepare(struct plan_handle *h, const struct plan_variant *v, struct probe_report *rep)
{
	struct clock_skel *w = h->skel;

	(void)v;
	w->bpf->rodata->dbt_task_regs_helper = bpf_features_task_regs_helper(h->kernel, rep);
	return 0;
}

#define CLOCK_FAMILY(v)                                           \
	{                                                         \
		.name = "clock",                                  \
		.variants = v,                                    \
		.n_variants = sizeof(v) / sizeof(v[0]),           \
		PLAN_SKEL_OPS(clock),                             \
		.prepare = skel_prepare,                          \
		.attach = skel_attach,                            \
	}
static const struct plan_family sampled_family = CLOCK_FAMILY(sampled_variants);
static const struct plan_family counting_family = CLOCK_FAMILY(counting_variants);

const char *clock_syscall_method(const char *attach)
{
	if (!strcmp(attach, "perf_event+fentry"))
		return "fentry";
	if (!strcmp(attach, "perf_event+tracepoint"))
		return "tracepoint";
	if (!strcmp(attach, "perf_event+tp_btf") || !strcmp(attach, "perf_event+raw_tp"))
		return "raw_syscalls";
	return "sampled";
}

int clock_collector_open(struct clock_collector *c, unsigned int sample_hz, bool count_syscalls,
			 struct probe_report *rep, struct bpf_features *kernel)
{
	struct clock_skel *w;
	struct vdso_syms syms;
	uint64_t len;
	int err;

	memset(c, 0, sizeof(*c));
	c->h.kernel = kernel;
	c->syscall_method = "sampled";
	c->sample_hz = sample_hz ? sample_hz : CLOCK_DEFAULT_HZ;
	c->ncpus = percpu_ncpus();
	if (c->ncpus <= 0)
		return c->ncpus ? c->ncpus : -EINVAL;
	/* the same parse the programs' ranges came from: names for slots */
	if (!vdso_self(&syms, &len))
		clock_fn_table_build(&syms, len, &c->fns);
	else
		log_debug("clock: no vDSO in this process; vDSO time cannot be told apart");
	c->keys = calloc(CLOCK_CHUNK, sizeof(*c->keys));
	c->values = calloc(CLOCK_CHUNK, sizeof(*c->values));
	c->stats = calloc((size_t)c->ncpus, sizeof(*c->stats));
	if (!c->keys || !c->values || !c->stats) {
		clock_collector_close(c);
		return -ENOMEM;
	}
	c->h.ctx = c;
	c->family = count_syscalls ? &counting_family : &sampled_family;
	err = plan_run(c->family, &c->h, rep);
	if (err) {
		clock_collector_close(c);
		return err;
	}
	w = c->h.skel;
	c->syscall_method = clock_syscall_method(rep->attach);
	/* the perf links are not in the plan's list: count them for probes */
	rep->n_programs += w->perf.n;
	c->threads_fd = bpf_map__fd(w->bpf->maps.clock_threads);
	c->stats_fd = bpf_map__fd(w->bpf->maps.clock_stats);
	return 0;
}

struct read_ctx {
	struct clock_collector *c;
	struct clock_snapshot *snap;
};

static int add_chunk(void *ctx, uint32_t n)
{
	struct read_ctx *r = ctx;
	struct clock_snapshot *snap = r->snap;
	const uint32_t *k = r->c->keys;
	const struct dbt_clock_thread *v = r->c->values;

	for (uint32_t i = 0; i < n; i++) {
		struct clock_thread_sample *t = clock_snapshot_add(snap);

		if (!t)
			return -ENOMEM;
		t->tid = k[i];
		t->c = v[i];
		t->c.comm[sizeof(t->c.comm) - 1] = 0;
	}
	return 0;
}

int clock_collector_read(struct clock_collector *c, struct clock_snapshot *snap)
{
	struct read_ctx r = { c, snap };
	__u32 zero = 0;
	int err;

	snap->n = 0;
	snap->mono_ns = mono_ns();
	err = bpf_hash_stream(c->threads_fd, c->keys, c->values, CLOCK_CHUNK, false,
			      DBT_CLOCK_MAX_THREADS, add_chunk, &r);
	if (err)
		return err;
	clock_snapshot_sort(snap);
	err = percpu_lookup(c->stats_fd, &zero, c->stats, sizeof(*c->stats));
	if (err)
		return err;
	memset(&snap->stats, 0, sizeof(snap->stats));
	snap->syscall_method = c->syscall_method;
	for (int cpu = 0; cpu < c->ncpus; cpu++) {
		snap->stats.samples += c->stats[cpu].samples;
		snap->stats.idle_samples += c->stats[cpu].idle_samples;
		snap->stats.kthread_samples += c->stats[cpu].kthread_samples;
		snap->stats.inserts += c->stats[cpu].inserts;
		snap->stats.update_failed += c->stats[cpu].update_failed;
	}
	return 0;
}

uint64_t clock_collector_lost(const struct clock_collector *c)
{
	return plan_lost_events(&c->h);
}

void clock_collector_close(struct clock_collector *c)
{
	if (c->family)   /* NULL: closed before the plan ran */
		plan_close(c->family, &c->h);
	free(c->keys);
	free(c->values);
	free(c->stats);
	memset(c, 0, sizeof(*c));
}
