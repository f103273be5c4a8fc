/* perf_event programs: one perf event per CPU, each carrying the same BPF
 * program. The one copy of that open+attach loop, for any family that
 * samples (bpf_program__attach() cannot: a perf_event program has no
 * target of its own). */
#ifndef DBTRACE_CORE_BPF_PERF_H
#define DBTRACE_CORE_BPF_PERF_H

#include <stddef.h>
#include <linux/perf_event.h>

struct bpf_program;
struct bpf_link;

/* The links of one program, one per CPU it runs on. */
struct perf_cpu_links {
	struct bpf_link **links;
	int n;                         /* attached */
	int cap;                       /* possible CPUs */
};

/* Fills attr for the software CPU-clock event sampling every 1/hz s of
 * CPU time (period mode: the hrtimer fires at exactly that period, while
 * frequency mode would retune it). It needs no hardware counter, so it
 * works in VMs. Returns 0, or -EINVAL for hz outside 1..100000. */
int perf_cpu_clock_attr(struct perf_event_attr *attr, unsigned int hz);

/* Opens attr system-wide on every possible CPU (pid -1) and attaches prog
 * to each event. Offline CPUs (ENODEV) are skipped; CPUs coming online
 * later are not sampled. Returns the number of CPUs attached (> 0), or
 * -errno with everything undone and what failed in stage. The links own
 * their perf event fds. */
int perf_attach_cpus(struct bpf_program *prog, struct perf_event_attr *attr,
		     struct perf_cpu_links *out, char *stage, size_t stagelen);

/* Detaches and closes; safe on a zeroed or already detached set. */
void perf_detach_cpus(struct perf_cpu_links *l);

#endif
