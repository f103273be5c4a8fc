#include "core/bpf_perf.h"
#include "core/bpf_percpu.h"

#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int perf_cpu_clock_attr(struct perf_event_attr *attr, unsigned int hz)
{
	if (hz < 1 || hz > 100000)
		return -EINVAL;
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = PERF_TYPE_SOFTWARE;
	attr->config = PERF_COUNT_SW_CPU_CLOCK;
	attr->sample_period = 1000000000ull / hz;   /* cpu-clock counts ns */
	return 0;
}

static int perf_open(struct perf_event_attr *attr, int cpu)
{
	return (int)syscall(SYS_perf_event_open, attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

int perf_attach_cpus(struct bpf_program *prog, struct perf_event_attr *attr,
		     struct perf_cpu_links *out, char *stage, size_t stagelen)
{
	int ncpus = percpu_ncpus(), err = 0;

	memset(out, 0, sizeof(*out));
	if (ncpus <= 0)
		return ncpus ? ncpus : -EINVAL;
	out->links = calloc((size_t)ncpus, sizeof(*out->links));
	if (!out->links)
		return -ENOMEM;
	out->cap = ncpus;
	for (int cpu = 0; cpu < ncpus; cpu++) {
		struct bpf_link *link;
		int pfd = perf_open(attr, cpu);

		if (pfd < 0) {
			if (errno == ENODEV)   /* possible but offline */
				continue;
			err = -errno;
			snprintf(stage, stagelen, "perf_event_open cpu %d", cpu);
			goto fail;
		}
		link = bpf_program__attach_perf_event(prog, pfd);
		if (!link) {
			err = errno ? -errno : -EINVAL;
			close(pfd);
			snprintf(stage, stagelen, "attach %s cpu %d", bpf_program__name(prog), cpu);
			goto fail;
		}
		out->links[out->n++] = link;
	}
	if (out->n)
		return out->n;
	err = -ENODEV;
	snprintf(stage, stagelen, "perf_event_open: no online CPU");
fail:
	perf_detach_cpus(out);
	return err;
}

void perf_detach_cpus(struct perf_cpu_links *l)
{
	while (l->n > 0)
		bpf_link__destroy(l->links[--l->n]);
	free(l->links);
	memset(l, 0, sizeof(*l));
}
