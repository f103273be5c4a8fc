#include "collect/softirq.h"
#include "core/bpf_percpu.h"
#include "core/bpf_plan_skel.h"
#include "softirq.skel.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const struct plan_variant variants[] = {
	{ "tp_btf", "_btf", FEAT(FEAT_KERNEL_BTF) },
	{ "raw_tp", "_raw", 0 },
};

PLAN_SKEL(softirq)

static const struct plan_family family = {
	.name = "softirq",
	.variants = variants,
	.n_variants = sizeof(variants) / sizeof(variants[0]),
	PLAN_SKEL_OPS(softirq),
};

int softirq_collector_open(struct softirq_collector *c, struct probe_report *rep,
			   struct bpf_features *kernel)
{
	int err;

	memset(c, 0, sizeof(*c));
	c->h.kernel = kernel;
	c->ncpus = percpu_ncpus();
	if (c->ncpus <= 0)
		return c->ncpus ? c->ncpus : -EINVAL;
	c->buf = calloc((size_t)c->ncpus, sizeof(*c->buf));
	c->wbuf = calloc((size_t)c->ncpus, sizeof(*c->wbuf));
	if (!c->buf || !c->wbuf) {
		softirq_collector_close(c);
		return -ENOMEM;
	}
	err = plan_run(&family, &c->h, rep);
	if (err) {
		free(c->buf);
		free(c->wbuf);
		c->buf = NULL;
		c->wbuf = NULL;
		return err;
	}
	c->stats_fd = bpf_map__fd(((struct softirq_bpf *)c->h.skel)->maps.softirq_stats);
	c->pending_fd = bpf_map__fd(((struct softirq_bpf *)c->h.skel)->maps.sirq_pending);
	c->wait_fd = bpf_map__fd(((struct softirq_bpf *)c->h.skel)->maps.softirq_wait);
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
	for (__u32 v = 0; v < DBT_SOFTIRQ_VECS; v++) {
		err = percpu_lookup(c->wait_fd, &v, c->wbuf, sizeof(*c->wbuf));
		if (err)
			return err;
		for (int cpu = 0; cpu < n; cpu++)
			snap->cpu[cpu].sirq_wait[v] = c->wbuf[cpu].wait;
	}
	return 0;
}

uint64_t softirq_collector_lost(const struct softirq_collector *c)
{
	return plan_lost_events(&c->h);
}

void softirq_collector_close(struct softirq_collector *c)
{
	plan_close(&family, &c->h);
	free(c->buf);
	free(c->wbuf);
	c->buf = NULL;
	c->wbuf = NULL;
}
