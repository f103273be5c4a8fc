/* Whether the running kernel lets a program of a given type load and
 * attach at a given place, call a helper, or run an instruction: the
 * tests derive the attach path dbtrace must take from it
 * (tests/bats/helpers/common.bash, expected_path), so their expectations
 * follow the kernel instead of naming one. Each place check loads a
 * program that does nothing ("r0 = 0; exit", no map, no helper: nothing
 * of dbtrace's), attaches it, and detaches it at once. A helper check
 * loads "call HELPER; exit" and, as libbpf's own probe does, takes the
 * verifier's "unknown func"/"invalid func" for no and any other outcome
 * (its arguments are nonsense) for yes.
 *
 * usage: bpf_can CHECK...
 *   fentry:FUNC  fexit:FUNC   a tracing program on a kernel function
 *   tp_btf:TP                 a BTF-typed raw tracepoint
 *   raw_tp:TP                 a raw tracepoint
 *   tracepoint:CAT/NAME       a tracefs tracepoint through a perf event
 *   kprobe:FUNC  kretprobe:FUNC  a kprobe (return probe) through the
 *                             perf kprobe PMU
 *   iter:TARGET               a BPF iterator (iter:task)
 *   perf_event                a program on a CPU-clock sampling event
 *   helper:TYPE:NAME          helper bpf_NAME in a program of TYPE
 *                             (tracing: a tp_btf one; raw_tp, perf_event)
 *   insn:atomic_fetch         atomic fetch-and-add and cmpxchg (v3)
 * prints one line per check, "CHECK yes" or "CHECK no: STAGE: ENAME (text)"
 * (STAGE is btf, tracefs, pmu, load or attach; ENAME as dbtrace prints
 * it, e.g. "load: EPERM (Operation not permitted)"), and exits 0 when
 * every check passed, 1 when one did not, 2 on a usage error.
 */
#define _GNU_SOURCE
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <sched.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <unistd.h>

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

static const struct bpf_insn nop[] = {
	{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
	{ .code = BPF_JMP | BPF_EXIT },
};

struct result {
	const char *stage;   /* NULL: allowed */
	int err;             /* positive errno */
};

static int fail(struct result *r, const char *stage, int err)
{
	r->stage = stage;
	r->err = err > 0 ? err : (err < 0 ? -err : EINVAL);
	return -1;
}

static int load(enum bpf_prog_type type, enum bpf_attach_type attach, int btf_id,
		struct result *r)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = attach,
		    .attach_btf_id = (__u32)btf_id);
	int fd = bpf_prog_load(type, NULL, "GPL", nop, sizeof(nop) / sizeof(nop[0]), &opts);

	if (fd < 0)
		fail(r, "load", errno);
	return fd;
}

/* On the CPU this runs on: online, whatever the machine's numbering. */
static int perf_open(struct perf_event_attr *attr)
{
	int cpu = sched_getcpu();

	return (int)syscall(SYS_perf_event_open, attr, -1, cpu < 0 ? 0 : cpu, -1,
			    PERF_FLAG_FD_CLOEXEC);
}

static int read_int(const char *path, long *v)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -errno;
	ok = fscanf(f, "%ld", v) == 1;
	fclose(f);
	return ok ? 0 : -EINVAL;
}

/* A perf event (attr filled in but for the program) with the program on it. */
static void perf_attach(struct perf_event_attr *attr, enum bpf_prog_type type, struct result *r)
{
	int pfd, fd;

	pfd = perf_open(attr);
	if (pfd < 0) {
		fail(r, "attach", errno);
		return;
	}
	fd = load(type, 0, 0, r);
	if (fd >= 0) {
		if (ioctl(pfd, PERF_EVENT_IOC_SET_BPF, fd))
			fail(r, "attach", errno);
		close(fd);
	}
	close(pfd);
}

/* The helpers the tests ask about, by name. */
static int helper_id(const char *name)
{
	static const struct {
		const char *name;
		int id;
	} ids[] = {
		{ "task_storage_get", BPF_FUNC_task_storage_get },
		{ "sk_storage_get", BPF_FUNC_sk_storage_get },
		{ "task_pt_regs", BPF_FUNC_task_pt_regs },
		{ "get_current_task_btf", BPF_FUNC_get_current_task_btf },
		{ "jiffies64", BPF_FUNC_jiffies64 },
	};

	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		if (!strcmp(ids[i].name, name))
			return ids[i].id;
	return -1;
}

/* helper:TYPE:NAME */
static void check_helper(const char *spec, struct result *r)
{
	const char *name = strchr(spec, ':');
	struct bpf_insn insns[] = {
		{ .code = BPF_JMP | BPF_CALL, .imm = 0 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts);
	enum bpf_prog_type type;
	char log[8192] = "", typ[32];
	int fd;

	if (!name || (insns[0].imm = helper_id(name + 1)) < 0) {
		r->stage = "usage";
		return;
	}
	snprintf(typ, sizeof(typ), "%.*s", (int)(name - spec), spec);
	if (!strcmp(typ, "tracing")) {
		int id = libbpf_find_vmlinux_btf_id("sched_switch", BPF_TRACE_RAW_TP);

		if (id < 0) {
			fail(r, "btf", id);
			return;
		}
		type = BPF_PROG_TYPE_TRACING;
		opts.expected_attach_type = BPF_TRACE_RAW_TP;
		opts.attach_btf_id = (__u32)id;
	} else if (!strcmp(typ, "raw_tp")) {
		type = BPF_PROG_TYPE_RAW_TRACEPOINT;
	} else if (!strcmp(typ, "perf_event")) {
		type = BPF_PROG_TYPE_PERF_EVENT;
	} else {
		r->stage = "usage";
		return;
	}
	opts.log_buf = log;
	opts.log_size = sizeof(log);
	opts.log_level = 1;
	fd = bpf_prog_load(type, NULL, "GPL", insns, sizeof(insns) / sizeof(insns[0]), &opts);
	if (fd >= 0) {
		close(fd);
		return;
	}
	if (strstr(log, "unknown func ") || strstr(log, "invalid func "))
		fail(r, "load", EINVAL);
}

/* insn:atomic_fetch: fetch-and-add and compare-and-exchange on the stack */
static void check_insn(const char *what, struct result *r)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ST | BPF_MEM | BPF_DW, .dst_reg = BPF_REG_10, .off = -8 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_1, .imm = 1 },
		{ .code = BPF_STX | BPF_ATOMIC | BPF_DW, .dst_reg = BPF_REG_10, .src_reg = BPF_REG_1,
		  .off = -8, .imm = BPF_ADD | BPF_FETCH },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_STX | BPF_ATOMIC | BPF_DW, .dst_reg = BPF_REG_10, .src_reg = BPF_REG_1,
		  .off = -8, .imm = BPF_CMPXCHG },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int fd;

	if (strcmp(what, "atomic_fetch")) {
		r->stage = "usage";
		return;
	}
	fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, NULL, "GPL", insns,
			   sizeof(insns) / sizeof(insns[0]), NULL);
	if (fd < 0)
		fail(r, "load", errno);
	else
		close(fd);
}

static void check(const char *spec, struct result *r)
{
	const char *target = strchr(spec, ':');
	size_t kind_len = target ? (size_t)(target - spec) : strlen(spec);
	char kind[32], path[512];
	int fd, id, lfd;

	r->stage = NULL;
	r->err = 0;
	if (target)
		target++;
	snprintf(kind, sizeof(kind), "%.*s", (int)kind_len, spec);

	if (!strcmp(kind, "fentry") || !strcmp(kind, "fexit") || !strcmp(kind, "tp_btf") ||
	    !strcmp(kind, "iter")) {
		enum bpf_attach_type at = !strcmp(kind, "fentry") ? BPF_TRACE_FENTRY :
					  !strcmp(kind, "fexit")  ? BPF_TRACE_FEXIT :
					  !strcmp(kind, "iter")   ? BPF_TRACE_ITER :
								    BPF_TRACE_RAW_TP;

		/* libbpf adds the "btf_trace_" / "bpf_iter_" prefixes */
		id = libbpf_find_vmlinux_btf_id(target, at);
		if (id < 0) {
			fail(r, "btf", id);
			return;
		}
		fd = load(BPF_PROG_TYPE_TRACING, at, id, r);
		if (fd < 0)
			return;
		if (at == BPF_TRACE_RAW_TP)
			lfd = bpf_raw_tracepoint_open(NULL, fd);
		else
			lfd = bpf_link_create(fd, 0, at, NULL);
		if (lfd < 0)
			fail(r, "attach", errno);
		else
			close(lfd);
		close(fd);
	} else if (!strcmp(kind, "raw_tp")) {
		fd = load(BPF_PROG_TYPE_RAW_TRACEPOINT, 0, 0, r);
		if (fd < 0)
			return;
		lfd = bpf_raw_tracepoint_open(target, fd);
		if (lfd < 0)
			fail(r, "attach", errno);
		else
			close(lfd);
		close(fd);
	} else if (!strcmp(kind, "tracepoint")) {
		struct perf_event_attr attr = { .size = sizeof(attr), .type = PERF_TYPE_TRACEPOINT,
						.sample_period = 1, .wakeup_events = 1 };
		long tp_id;
		int err;

		/* tracefs is not mounted on a fresh machine: mount it as dbtrace does */
		if (access("/sys/kernel/tracing/events", F_OK))
			mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL);
		snprintf(path, sizeof(path), "/sys/kernel/tracing/events/%s/id", target);
		err = read_int(path, &tp_id);
		if (err) {
			fail(r, "tracefs", err);
			return;
		}
		attr.config = (__u64)tp_id;
		perf_attach(&attr, BPF_PROG_TYPE_TRACEPOINT, r);
	} else if (!strcmp(kind, "kprobe") || !strcmp(kind, "kretprobe")) {
		struct perf_event_attr attr = { .size = sizeof(attr), .sample_period = 1,
						.wakeup_events = 1 };
		long type;
		int err;

		err = read_int("/sys/bus/event_source/devices/kprobe/type", &type);
		if (err) {
			fail(r, "pmu", err);
			return;
		}
		attr.type = (__u32)type;
		attr.config1 = (__u64)(unsigned long)target;   /* kprobe_func */
		/* the PMU's format/retprobe says "config:0" */
		if (!strcmp(kind, "kretprobe"))
			attr.config = 1;
		perf_attach(&attr, BPF_PROG_TYPE_KPROBE, r);
	} else if (!strcmp(kind, "helper")) {
		check_helper(target, r);
	} else if (!strcmp(kind, "insn")) {
		check_insn(target, r);
	} else if (!strcmp(kind, "perf_event")) {
		struct perf_event_attr attr = { .size = sizeof(attr), .type = PERF_TYPE_SOFTWARE,
						.config = PERF_COUNT_SW_CPU_CLOCK, .freq = 1,
						.sample_freq = 99 };

		perf_attach(&attr, BPF_PROG_TYPE_PERF_EVENT, r);
	} else {
		r->stage = "usage";
	}
}

int main(int argc, char **argv)
{
	int worst = 0;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fprintf(stderr, "usage: bpf_can fentry:FUNC|fexit:FUNC|tp_btf:TP|raw_tp:TP|"
				"tracepoint:CAT/NAME|kprobe:FUNC|kretprobe:FUNC|iter:TARGET|perf_event|"
				"helper:TYPE:NAME|insn:atomic_fetch...\n");
		return 2;
	}
	libbpf_set_print(quiet);
	for (int i = 1; i < argc; i++) {
		struct result r;
		const char *colon = strchr(argv[i], ':');

		if (strcmp(argv[i], "perf_event") && (!colon || !colon[1])) {
			fprintf(stderr, "bpf_can: %s: expected KIND:TARGET\n", argv[i]);
			return 2;
		}
		check(argv[i], &r);
		if (r.stage && !strcmp(r.stage, "usage")) {
			fprintf(stderr, "bpf_can: %s: unknown kind\n", argv[i]);
			return 2;
		}
		if (!r.stage) {
			printf("%s yes\n", argv[i]);
			continue;
		}
		printf("%s no: %s: %s (%s)\n", argv[i], r.stage,
		       strerrorname_np(r.err) ? strerrorname_np(r.err) : "?", strerror(r.err));
		worst = 1;
	}
	return worst;
}
