/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Blocked time by reason, for bpf/sched.bpf.c's switch program
 * (struct dbt_sched_blocked in the thread's record).
 *
 * Measured, not sampled. At a switch-out that blocks (not preempted, and
 * __state not TASK_RUNNING: __schedule() dequeues the task), the reason
 * is decided from the task: its I/O-wait flag (in_iowait: disk), kernel
 * thread (kernel), else the syscall it is in, from the registers saved at
 * its kernel entry (orig_ax, taken as a syscall only when ax still holds
 * the -ENOSYS the syscall entry pushes: an exception such as a page fault
 * leaves its error code in orig_ax and the user's rax in ax). The clock is
 * read then, and again at the thread's next switch-out, whatever it is:
 * the time between, less what its on-CPU and run-queue totals grew by
 * (the run now ending and the wait before it, both the kernel's own
 * clocks), is the time it was blocked. So the kernel's wakeup needs no
 * probe, and a CPU-bound thread that is only ever preempted never reads
 * the clock.
 *
 * Why not the kernel's per-task clocks for the block itself: at the
 * sched_switch tracepoint (before context_switch()) the leaving task's
 * sched_info.last_arrival is its switch-in, and the arriving task's
 * last_queued its wakeup, but both are rq_clock (sched_clock per CPU),
 * not a clock the other CPU's switch-out read, and no per-task field
 * holds the time it blocked (sched_info_depart runs after the tracepoint).
 *
 * read/readv count as `net` only on a socket: the fd's inode mode,
 * five dependent loads, paid on blocking reads only.
 */
#ifndef DBTRACE_SCHED_BLOCKED_BPF_H
#define DBTRACE_SCHED_BLOCKED_BPF_H

#include "core_fixes.bpf.h"
#include "maps.bpf.h"
#include "dbtrace/sched_blocked.h"

#define DBT_PF_KTHREAD 0x00200000
#define DBT_S_IFMT 00170000
#define DBT_S_IFSOCK 0140000

/* Whether fd of task t is a socket. The typed path walks to the fd
 * array with plain loads; the array slot and the file are read with
 * helpers. The answer for the last file seen is kept (a connection thread
 * reads one socket over and over): then the slot is the only read. */
static __always_inline bool fd_is_socket(struct dbt_sched_blocked *b, struct task_struct *t,
					 __u64 fd, const bool typed)
{
	struct files_struct *files = KREAD(typed, t, files);
	struct fdtable *fdt;
	struct file **fds, *f;
	umode_t mode;

	if (!files)
		return false;
	fdt = KREAD(typed, files, fdt);
	if (!fdt || fd >= KREAD(typed, fdt, max_fds))
		return false;
	fds = KREAD(typed, fdt, fd);
	if (bpf_probe_read_kernel(&f, sizeof(f), &fds[fd]) || !f)
		return false;
	if ((__u64)f == b->sock_file)
		return b->sock_is;
	mode = BPF_CORE_READ(f, f_inode, i_mode);
	b->sock_file = (__u64)f;
	b->sock_is = (mode & DBT_S_IFMT) == DBT_S_IFSOCK;
	return b->sock_is;
}

static __always_inline __u32 syscall_reason(struct dbt_sched_blocked *b, struct task_struct *t,
					    long nr, __u64 arg0, const bool typed)
{
	switch (nr) {
	case DBT_NR_futex:
	case DBT_NR_futex_waitv:
		return DBT_BLK_FUTEX;
	case DBT_NR_recvfrom:
	case DBT_NR_recvmsg:
	case DBT_NR_recvmmsg:
	case DBT_NR_poll:
	case DBT_NR_ppoll:
	case DBT_NR_select:
	case DBT_NR_pselect6:
	case DBT_NR_epoll_wait:
	case DBT_NR_epoll_pwait:
	case DBT_NR_epoll_pwait2:
	case DBT_NR_accept:
	case DBT_NR_accept4:
		return DBT_BLK_NET;
	case DBT_NR_read:
	case DBT_NR_readv:
		return fd_is_socket(b, t, arg0, typed) ? DBT_BLK_NET : DBT_BLK_PIPE_OTHER;
	case DBT_NR_nanosleep:
	case DBT_NR_clock_nanosleep:
		return DBT_BLK_SLEEP;
	}
	return DBT_BLK_PIPE_OTHER;
}

/* Why t is blocking now; *nr its syscall or -1, *arg0 the syscall's
 * first argument. */
static __always_inline __u32 block_reason(struct dbt_sched_blocked *b, struct task_struct *t,
					  __s32 *nr, __u64 *arg0p, const bool typed)
{
	long sys;
	__u64 arg0;

	*nr = -1;
	if (typed ? BPF_CORE_READ_BITFIELD(t, in_iowait) : BPF_CORE_READ_BITFIELD_PROBED(t, in_iowait))
		return DBT_BLK_DISK;
	if (KREAD(typed, t, flags) & DBT_PF_KTHREAD)
		return DBT_BLK_KERNEL;
	if (!dbt_regs_syscall(dbt_current_regs(t, typed), &sys, &arg0))
		return DBT_BLK_KERNEL;
	*nr = (__s32)sys;
	*arg0p = arg0;
	return syscall_reason(b, t, sys, arg0, typed);
}

/* Set by user space where the runqueue clocks of the CPUs may disagree
 * (sysinfo/clocksource.h, dbt_sched_clock_per_cpu: the kernel marked the
 * TSC unstable, as emulated guests do at boot): a block begun on one CPU
 * and ended on another is then timed by the monotonic clock. */
const volatile bool blk_clock_mono = false;

/* The clock a block is timed with: the runqueue's (rq->clock), which
 * __schedule() brought up to date just before this tracepoint (or, when it
 * skips the update after a wakeup's preemption check, at that wakeup, a
 * few microseconds before). It is the clock the kernel's run_delay and
 * sum_exec_runtime come from, and reading it costs three plain loads,
 * where bpf_ktime_get_ns() costs 60-75 ns in the VMs measured. Only
 * differences of it are used. The runqueue is reached from the task
 * leaving the CPU (its fair-class runqueue's rq, set for a task of any
 * class) rather than from the per-CPU `runqueues` symbol, whose address
 * the verifier finds only with CONFIG_KALLSYMS_ALL. Without group
 * scheduling (no se.cfs_rq), or where each CPU keeps a clock of its own
 * (blk_clock_mono), the monotonic clock instead. Measured in the
 * PREEMPT_RT guest (TSC marked unstable at boot): the two CPUs' runqueue
 * clocks lay 9 us to 1.1 ms apart from one interval to the next, the
 * monotonic clock 0-3 us (the same sampling); a class whose threads block
 * on one CPU and wake on the other had its blocked time 43% of its wall
 * time too long in one fresh-clone run. */
static __always_inline __u64 switch_clock(struct task_struct *t, const bool typed)
{
	struct cfs_rq *cfs;

	if (blk_clock_mono || !bpf_core_field_exists(t->se.cfs_rq))
		return bpf_ktime_get_ns();
	cfs = KREAD(typed, t, se.cfs_rq);
	return typed ? cfs->rq->clock : BPF_CORE_READ(cfs, rq, clock);
}

/* Charges the block in progress, if any, at this switch-out (th's totals
 * already brought up to date). Returns the clock it read, or 0; a futex
 * wait that ended sets *futex_wait to its length (for its histogram). */
static __always_inline __u64 blocked_settle(struct dbt_sched_blocked *b, struct task_struct *t,
					    __u64 oncpu, __u64 runq, __u64 *futex_wait, const bool typed)
{
	__u64 now, d, ran;
	__u32 r;

	if (!b->since_ns)
		return 0;
	now = switch_clock(t, typed);
	d = now - b->since_ns;
	ran = (oncpu - b->since_oncpu_ns) + (runq - b->since_runq_ns);
	d = d > ran ? d - ran : 0;
	r = b->reason;
	dbt_mask(r, 7);
	if (r < DBT_BLK_REASONS)
		b->ns[r] += d;
	if (r == DBT_BLK_FUTEX) {
		int slot = -1;

		*futex_wait = d;
		for (int i = 0; i < DBT_BLK_FUTEX_SLOTS; i++) {
			if (b->futex_ns[i] && b->futex_addr[i] == b->futex_uaddr) {
				slot = i;
				break;
			}
			if (!b->futex_ns[i] && slot < 0)
				slot = i;
		}
		if (slot >= 0 && slot < DBT_BLK_FUTEX_SLOTS) {
			b->futex_addr[slot] = b->futex_uaddr;
			b->futex_ns[slot] += d;
		}
	}
	if (r == DBT_BLK_PIPE_OTHER) {
		int slot = -1;

		for (int i = 0; i < DBT_BLK_SYSCALL_SLOTS; i++) {
			if (b->sys_ns[i] && b->sys_nr[i] == b->nr) {
				slot = i;
				break;
			}
			if (!b->sys_ns[i] && slot < 0)
				slot = i;
		}
		/* slots full: the time shows only in the reason's total */
		if (slot >= 0 && slot < DBT_BLK_SYSCALL_SLOTS) {
			b->sys_nr[slot] = b->nr;
			b->sys_ns[slot] += d;
		}
	}
	b->since_ns = 0;
	return now;
}

/* The thread prev leaving the CPU, its record th already updated: charges
 * the block that ended, and starts one if it blocks now. */
static __always_inline void blocked_switch_out(struct dbt_sched_thread *th, struct task_struct *prev,
					       bool preempt, bool dead, const bool typed)
{
	struct dbt_sched_blocked *b = &th->blk;
	__u64 futex_wait = 0;
	__u64 now = blocked_settle(b, prev, th->oncpu_ns, th->runq_ns, &futex_wait, typed);

	if (futex_wait)
		name_hist_add(th, DBT_SCHED_HIST_FUTEX, futex_wait);

	if (dead) {
		/* the monotonic clock: user space sets it beside seen_ns */
		b->exit_ns = bpf_ktime_get_ns();
		return;
	}
	if (preempt || !dbt_task_state(prev, typed))
		return;
	b->futex_uaddr = 0;
	b->reason = block_reason(b, prev, &b->nr, &b->futex_uaddr, typed);
	b->since_ns = now ? now : switch_clock(prev, typed);
	b->since_oncpu_ns = th->oncpu_ns;
	b->since_runq_ns = th->runq_ns;
	b->blocks++;
}

#endif
