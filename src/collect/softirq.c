#include "collect/softirq.h"
#include "core/bpf_batch.h"
#include "core/bpf_percpu.h"
#include "softirq.skel.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const struct plan_variant variants[] = {
	{ "tp_btf", "_btf" },
	{ "raw_tp", "_raw" },
};

static int skel_open(void **skel, struct bpf_object **obj)
{
	struct softirq_bpf *s = softirq_bpf__open();

	if (!s)
		return errno ? -errno : -EINVAL;
	*skel = s;
	*obj = s->obj;
	return 0;
}

static int skel_load(void *skel)
{
	return softirq_bpf__load(skel);
}

static void skel_destroy(void *skel)
{
	softirq_bpf__destroy(skel);
}

static const struct plan_family family = {
	.name = "softirq",
	.variants = variants,
	.n_variants = sizeof(variants) / sizeof(variants[0]),
	.open = skel_open,
	.load = skel_load,
	.destroy = skel_destroy,
};

int softirq_collector_open(struct softirq_collector *c, struct probe_report *rep)
{
	int err;

	memset(c, 0, sizeof(*c));
	c->ncpus = percpu_ncpus();
	if (c->ncpus <= 0)
		return c->ncpus ? c->ncpus : -EINVAL;
	c->buf = calloc((size_t)c->ncpus, sizeof(*c->buf));
	if (!c->buf)
		return -ENOMEM;
	err = plan_run(&family, &c->h, rep);
	if (err) {
		free(c->buf);
		c->buf = NULL;
		return err;
	}
	c->stats_fd = bpf_map__fd(((struct softirq_bpf *)c->h.skel)->maps.softirq_stats);
	c->charge_fd = bpf_map__fd(((struct softirq_bpf *)c->h.skel)->maps.softirq_charge);
	return 0;
}

int softirq_collector_read(struct softirq_collector *c, struct cpu_snapshot *snap)
{
	__u32 zero = 0;
	int err, n;

	err = percpu_lookup(c->stats_fd, &zero, c->buf, sizeof(*c->buf));
	if (err)
		return err;
	n = snap->ncpus < c->ncpus ? snap->ncpus : c->ncpus;
	for (int cpu = 0; cpu < n; cpu++)
		snap->cpu[cpu].sirq = c->buf[cpu];
	return 0;
}

struct charge_ctx {
	struct softirq_collector *c;
	struct sched_snapshot *snap;
};

static int take_charges(void *arg, uint32_t n)
{
	struct charge_ctx *cc = arg;

	for (uint32_t i = 0; i < n; i++) {
		int idx = sched_snapshot_index(cc->snap, cc->c->keys[i]);

		if (idx < 0)
			continue;
		cc->snap->t[idx].sirq_ns = cc->c->charges[i].total_ns;
		cc->snap->t[idx].net_sirq_ns = cc->c->charges[i].net_ns;
	}
	return 0;
}

int softirq_collector_charge(struct softirq_collector *c, struct sched_snapshot *snap)
{
	struct charge_ctx cc = { c, snap };

	return bpf_hash_stream(c->charge_fd, c->keys, c->charges, 256, false,
			       DBT_SOFTIRQ_CHARGE_MAX, take_charges, &cc);
}

uint64_t softirq_collector_lost(const struct softirq_collector *c)
{
	return plan_lost_events(&c->h);
}

void softirq_collector_close(struct softirq_collector *c)
{
	plan_close(&family, &c->h);
	free(c->buf);
	c->buf = NULL;
}
