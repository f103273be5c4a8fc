/* Attaches bpf/floor.bpf.c's empty programs (every tracepoint dbtrace
 * uses, plus a CPU-clock sampler on every CPU) and holds them until
 * SIGINT or SIGTERM: the floor `make bench` compares dbtrace's cost with.
 * A tracepoint the running kernel lacks is left out and named.
 *
 * usage: bpf_floor [-F HZ] [-s]
 *   -F HZ  sampler rate per CPU (default 499, 0: none)
 *   -s     only the clock syscalls' tracepoints: what --clock-syscalls=count
 *          costs where fentry is refused (every system call of every task
 *          then takes the traced slow path). Without -s they are left out:
 *          dbtrace attaches no syscall hook by default.
 * prints "floor: attached N programs: NAMES" once everything is attached.
 */
#define _GNU_SOURCE
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "floor.skel.h"

#define MAX_LINKS 1024

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

/* "?tp_btf/sched_switch": whether vmlinux has btf_trace_sched_switch;
 * "?tracepoint/syscalls/sys_enter_time": whether tracefs lists it (the
 * plain tracepoint type needs tracefs, not mounted on a fresh machine:
 * mounted here as dbtrace does). */
static int tracepoint_known(const struct btf *vmlinux, const char *sec)
{
	const char *tp = strchr(sec, '/');
	char name[160];

	if (!tp)
		return 0;
	if (strstr(sec, "tracepoint/")) {
		if (access("/sys/kernel/tracing/events", F_OK))
			mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL);
		snprintf(name, sizeof(name), "/sys/kernel/tracing/events/%s", tp + 1);
		return !access(name, F_OK);
	}
	snprintf(name, sizeof(name), "btf_trace_%s", tp + 1);
	return btf__find_by_name_kind(vmlinux, name, BTF_KIND_TYPEDEF) >= 0;
}

int main(int argc, char **argv)
{
	static struct bpf_link *links[MAX_LINKS];
	struct bpf_program *prog;
	struct floor_bpf *skel;
	struct btf *vmlinux;
	char names[2048] = "";
	int hz = 499, n = 0, c, ncpus, sig, syscalls_only = 0;
	sigset_t set;

	while ((c = getopt(argc, argv, "F:s")) != -1) {
		if (c == 'F') {
			hz = atoi(optarg);
		} else if (c == 's') {
			syscalls_only = 1;
		} else {
			fprintf(stderr, "usage: bpf_floor [-F HZ] [-s]\n");
			return 2;
		}
	}
	libbpf_set_print(quiet);
	vmlinux = btf__load_vmlinux_btf();
	skel = floor_bpf__open();
	if (!vmlinux || !skel) {
		fprintf(stderr, "bpf_floor: cannot open: %s\n", strerror(errno));
		return 1;
	}
	bpf_object__for_each_program(prog, skel->obj) {
		const char *sec = bpf_program__section_name(prog);
		int sys = strstr(sec, "syscalls/") != NULL;
		int on = strstr(sec, "perf_event") ? hz > 0 && !syscalls_only
						   : sys == syscalls_only && tracepoint_known(vmlinux, sec);

		bpf_program__set_autoload(prog, on);
		if (!on && sys == syscalls_only)
			fprintf(stderr, "bpf_floor: %s left out (not on this kernel)\n", sec);
	}
	if (floor_bpf__load(skel)) {
		fprintf(stderr, "bpf_floor: load: %s\n", strerror(errno));
		return 1;
	}
	ncpus = libbpf_num_possible_cpus();
	bpf_object__for_each_program(prog, skel->obj) {
		if (!bpf_program__autoload(prog))
			continue;
		if (bpf_program__type(prog) == BPF_PROG_TYPE_PERF_EVENT) {
			struct perf_event_attr attr = {
				.type = PERF_TYPE_SOFTWARE,
				.size = sizeof(attr),
				.config = PERF_COUNT_SW_CPU_CLOCK,
				.sample_period = 1000000000ull / (unsigned)hz,
			};

			for (int cpu = 0; cpu < ncpus && n < MAX_LINKS; cpu++) {
				int fd = (int)syscall(SYS_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);

				if (fd < 0)
					continue;   /* an offline CPU */
				links[n] = bpf_program__attach_perf_event(prog, fd);
				if (!links[n]) {
					close(fd);
					continue;
				}
				n++;
			}
		} else if (n < MAX_LINKS) {
			links[n] = bpf_program__attach(prog);
			if (!links[n]) {
				fprintf(stderr, "bpf_floor: attach %s: %s\n", bpf_program__name(prog),
					strerror(errno));
				return 1;
			}
			n++;
		}
		snprintf(names + strlen(names), sizeof(names) - strlen(names), " %s",
			 bpf_program__name(prog));
	}
	/* a script's background job starts with SIGINT ignored, and an
	 * ignored signal is discarded before sigwait() could take it */
	signal(SIGINT, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	printf("floor: attached %d programs:%s\n", n, names);
	fflush(stdout);
	sigwait(&set, &sig);
	while (n > 0)
		bpf_link__destroy(links[--n]);
	floor_bpf__destroy(skel);
	btf__free(vmlinux);
	return 0;
}
