// SPDX-License-Identifier: GPL-2.0
/*
 * clock family: where threads spend CPU reading the clock.
 *
 * A perf_event program on a software CPU-clock event of every CPU (no
 * hardware counters needed) classifies each sample by the interrupted
 * thread: user IP inside its vDSO (by function), in the kernel inside a
 * clock system call (the syscall number in the task's saved registers),
 * or elsewhere. By default that is all: the sampled share of CPU inside
 * clock syscalls is the measurement. Exact counts of clock syscalls come
 * from fentry on the clock syscalls where it loads (only those calls
 * pay), or, when the user asks for them (--clock-syscalls=count), from
 * the syscalls:sys_enter_<name> tracepoints or raw_syscalls:sys_enter
 * (tp_btf or raw_tp, filtered by number in the kernel): any of those puts
 * every task on the traced slow path of every system call.
 * Every program is SEC("?...") so nothing loads unless the plan picks it.
 *
 * Kernel fields read here are listed, with their history, in
 * core_fixes.bpf.h. The sampler runs on 5.10 and newer: the task is
 * bpf_get_current_task()'s, read with CO-RE, and its saved registers
 * come from bpf_task_pt_regs() where the kernel has it (5.15), else from
 * the top of its kernel stack (dbt_current_regs).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "core_fixes.bpf.h"
#include "dbtrace/clock.h"

char LICENSE[] SEC("license") = "GPL";

/* Set by user space before load. */
const volatile __u64 vdso_text_len = 0;        /* the [vdso] mapping's size */
const volatile struct dbt_clock_range vdso_fns[DBT_CLOCK_FN_SLOTS] = {};
const volatile long sys_nr[DBT_CLOCK_SYS_N] = { -1, -1, -1, -1 };

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, DBT_CLOCK_MAX_THREADS);
	__type(key, __u32);
	__type(value, struct dbt_clock_thread);
} clock_threads SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct dbt_clock_stats);
} clock_stats SEC(".maps");

static __always_inline struct dbt_clock_stats *stats(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&clock_stats, &zero);
}

/* Makes the entry of thread tid (an entry left by an earlier thread of
 * another process with the same tid is started over). Kept out of the
 * lookup path: zeroing a fresh entry on the stack for every syscall
 * would be most of the program's cost. */
static __noinline struct dbt_clock_thread *new_thread(__u32 tid, __u32 pid, int exists)
{
	struct dbt_clock_thread fresh = {};
	struct dbt_clock_stats *st = stats();

	fresh.pid = pid;
	bpf_get_current_comm(fresh.comm, sizeof(fresh.comm));
	if (bpf_map_update_elem(&clock_threads, &tid, &fresh, exists ? BPF_EXIST : BPF_NOEXIST)) {
		/* another CPU cannot run this thread: a failure here is a full
		 * map that could not evict, or no memory */
		if (st)
			__sync_fetch_and_add(&st->update_failed, 1);
		return NULL;
	}
	/* entries made, so user space can tell how many the LRU evicted */
	if (st && !exists)
		__sync_fetch_and_add(&st->inserts, 1);
	return bpf_map_lookup_elem(&clock_threads, &tid);
}

/* The current thread's entry, made on first sight. */
static __always_inline struct dbt_clock_thread *current_thread(void)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id, pid = id >> 32;
	struct dbt_clock_thread *th;

	th = bpf_map_lookup_elem(&clock_threads, &tid);
	if (th && th->pid == pid)
		return th;
	return new_thread(tid, pid, th != NULL);
}

/* Which named vDSO function holds offset off; 0 when none does. */
static __always_inline __u32 fn_slot(__u64 off)
{
#pragma unroll
	for (int i = 1; i < DBT_CLOCK_FN_SLOTS; i++)
		if (off >= vdso_fns[i].start && off < vdso_fns[i].end)
			return i;
	return 0;
}

static __always_inline int sys_index(long nr)
{
	if (nr < 0)
		return -1;
#pragma unroll
	for (int i = 0; i < DBT_CLOCK_SYS_N; i++)
		if (nr == sys_nr[i])
			return i;
	return -1;
}

static __always_inline int on_sample(struct bpf_perf_event_data *ctx)
{
	struct dbt_clock_stats *st = stats();
	__u64 id = bpf_get_current_pid_tgid();
	struct dbt_clock_thread *th;
	struct task_struct *task;
	struct mm_struct *mm;

	if (st)
		__sync_fetch_and_add(&st->samples, 1);
	if ((__u32)id == 0) {
		if (st)
			__sync_fetch_and_add(&st->idle_samples, 1);
		return 0;
	}
	task = (struct task_struct *)bpf_get_current_task();
	mm = BPF_CORE_READ(task, mm);
	if (!mm) {
		if (st)
			__sync_fetch_and_add(&st->kthread_samples, 1);
		return 0;
	}
	th = current_thread();
	if (!th)
		return 0;
	/* threads name themselves after creation (MySQL, Java pools) */
	bpf_get_current_comm(th->comm, sizeof(th->comm));
	__sync_fetch_and_add(&th->samples, 1);

	if (dbt_regs_user_mode(&ctx->regs)) {
		__u64 base = dbt_mm_vdso_base(mm), img = dbt_mm_vdso_size(mm);
		__u64 off = dbt_regs_ip(&ctx->regs) - base;

		__sync_fetch_and_add(&th->user_samples, 1);
		if (!base)
			return 0;
		if (img && img != vdso_text_len) {
			/* another vDSO image (a 32-bit task): offsets differ */
			if (off < img)
				__sync_fetch_and_add(&th->vdso[0], 1);
			return 0;
		}
		if (off < vdso_text_len) {
			__u32 slot = fn_slot(off);

			if (slot < DBT_CLOCK_FN_SLOTS)
				__sync_fetch_and_add(&th->vdso[slot], 1);
		}
		return 0;
	}
	/* in the kernel: which system call, if any, the thread is in */
	if (sys_index(dbt_regs_syscall_nr(dbt_current_regs(task, false))) >= 0)
		__sync_fetch_and_add(&th->sys_samples, 1);
	return 0;
}

static __always_inline void count_syscall(int k)
{
	struct dbt_clock_thread *th;

	if (k < 0 || k >= DBT_CLOCK_SYS_N)
		return;
	th = current_thread();
	if (th)
		__sync_fetch_and_add(&th->syscalls[k], 1);
}

/* Variant "perf_event": the sampler alone. Clock syscalls are seen as a
 * share of CPU samples, not counted. */
SEC("?perf_event")
int clk_samp_only(struct bpf_perf_event_data *ctx) { return on_sample(ctx); }

/* Variant "perf_event+fentry": a trampoline on each clock syscall's entry
 * point, so no other system call pays anything (the syscall tracepoints
 * switch every task to the slow syscall path). Refused where fentry is
 * (EPERM on the host here); Debian's 6.1 allows it. */
#if defined(__TARGET_ARCH_x86)
#define SYS(name) "?fentry/__x64_sys_" #name
#elif defined(__TARGET_ARCH_arm64)
#define SYS(name) "?fentry/__arm64_sys_" #name
#else
#define SYS(name) "?fentry/sys_" #name
#endif
SEC("?perf_event")
int clk_samp_fe(struct bpf_perf_event_data *ctx) { return on_sample(ctx); }
SEC(SYS(clock_gettime))
int BPF_PROG(clk_cgt_fe) { count_syscall(DBT_CLOCK_SYS_CLOCK_GETTIME); return 0; }
SEC(SYS(gettimeofday))
int BPF_PROG(clk_gtod_fe) { count_syscall(DBT_CLOCK_SYS_GETTIMEOFDAY); return 0; }
SEC(SYS(time))
int BPF_PROG(clk_time_fe) { count_syscall(DBT_CLOCK_SYS_TIME); return 0; }
SEC(SYS(clock_nanosleep))
int BPF_PROG(clk_nsleep_fe) { count_syscall(DBT_CLOCK_SYS_CLOCK_NANOSLEEP); return 0; }

/* Variant "perf_event+tp_btf": typed raw_syscalls:sys_enter. */
SEC("?perf_event")
int clk_samp_btf(struct bpf_perf_event_data *ctx) { return on_sample(ctx); }
SEC("?tp_btf/sys_enter")
int BPF_PROG(clk_sys_btf, struct pt_regs *regs, long id)
{
	count_syscall(sys_index(id));
	return 0;
}

/* Variant "perf_event+raw_tp": the same without BTF typing. */
SEC("?perf_event")
int clk_samp_raw(struct bpf_perf_event_data *ctx) { return on_sample(ctx); }
SEC("?raw_tp/sys_enter")
int BPF_PROG(clk_sys_raw, struct pt_regs *regs, long id)
{
	count_syscall(sys_index(id));
	return 0;
}

/* Variant "perf_event+tracepoint": one tracepoint per clock syscall, so
 * other system calls run no program at all; needs tracefs and
 * CONFIG_FTRACE_SYSCALLS. */
SEC("?perf_event")
int clk_samp_tp(struct bpf_perf_event_data *ctx) { return on_sample(ctx); }
SEC("?tracepoint/syscalls/sys_enter_clock_gettime")
int clk_cgt_tp(void *ctx) { count_syscall(DBT_CLOCK_SYS_CLOCK_GETTIME); return 0; }
SEC("?tracepoint/syscalls/sys_enter_gettimeofday")
int clk_gtod_tp(void *ctx) { count_syscall(DBT_CLOCK_SYS_GETTIMEOFDAY); return 0; }
SEC("?tracepoint/syscalls/sys_enter_time")
int clk_time_tp(void *ctx) { count_syscall(DBT_CLOCK_SYS_TIME); return 0; }
SEC("?tracepoint/syscalls/sys_enter_clock_nanosleep")
int clk_nsleep_tp(void *ctx) { count_syscall(DBT_CLOCK_SYS_CLOCK_NANOSLEEP); return 0; }
