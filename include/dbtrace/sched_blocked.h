/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sched family's blocked-time record (bpf/sched_blocked.bpf.h): why
 * and how long a thread was blocked, decided at the switch-out that
 * blocks it and charged when it next leaves a CPU. Shared by the BPF
 * side, the collector and the model.
 */
#ifndef DBTRACE_SCHED_BLOCKED_H
#define DBTRACE_SCHED_BLOCKED_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif
#include "dbtrace/hist.h"

/* Why a thread blocked. The order is the capture's and the view's. */
enum dbt_block_reason {
	DBT_BLK_FUTEX,        /* futex, futex_waitv: locks, condition variables */
	DBT_BLK_NET,          /* recv*, poll, select, epoll_wait, accept, read on a socket */
	DBT_BLK_DISK,         /* task->in_iowait: the kernel's I/O wait */
	DBT_BLK_SLEEP,        /* nanosleep, clock_nanosleep */
	DBT_BLK_PIPE_OTHER,   /* any other syscall (see sys_nr) */
	DBT_BLK_KERNEL,       /* outside any syscall: page faults, kernel threads */
	DBT_BLK_REASONS
};

/* Syscalls whose pipe_other time a thread keeps apart; the rest is summed. */
#define DBT_BLK_SYSCALL_SLOTS 3
/* Futex words whose wait time a thread keeps apart. */
#define DBT_BLK_FUTEX_SLOTS 2
/* The futex wait histogram is not kept here: 992 fine buckets a thread
 * would not fit 64k threads; it lives beside the run-queue delay's, per
 * process and thread name (map sched_runq, kind DBT_SCHED_HIST_FUTEX). */

/* Appended to struct dbt_sched_thread. seen_ns and exit_ns are
 * CLOCK_MONOTONIC ns (read once at a thread's first sight and its exit);
 * since_ns is the runqueue clock, read only on switch-outs that block or
 * that end the first run after a block (a preempted CPU-bound thread
 * reads no clock), and user space moves it onto CLOCK_MONOTONIC with the
 * offset in struct dbt_sched_cur. */
struct dbt_sched_blocked {
	/* what every blocking switch-out touches first, in two cache lines */
	__u64 since_ns;               /* blocked since, on the runqueue clock (struct dbt_sched_cur); 0: not blocked */
	/* its on-CPU and run-queue totals (oncpu_ns, runq_ns) at since_ns:
	 * what they grew by until the next switch-out was not blocked time */
	__u64 since_oncpu_ns, since_runq_ns;
	__u32 reason;                 /* of the block in progress */
	__s32 nr;                     /* its syscall; -1: none */
	__u64 ns[DBT_BLK_REASONS];    /* blocked time charged, per reason */
	__u64 blocks;                 /* blocking switch-outs */
	/* futex waits: the word of the one in progress (the syscall's
	 * first argument; futex_waitv's is its array of waiters), the time
	 * on the first words met (a slot keeps its word for the thread's
	 * life; free while futex_ns is 0) */
	__u64 futex_uaddr;
	__u64 futex_addr[DBT_BLK_FUTEX_SLOTS];
	__u64 futex_ns[DBT_BLK_FUTEX_SLOTS];
	__s32 sys_nr[DBT_BLK_SYSCALL_SLOTS];   /* pipe_other syscalls; free while sys_ns is 0 */
	__u32 sock_is;                /* whether sock_file, the last file read, is a socket */
	__u64 sys_ns[DBT_BLK_SYSCALL_SLOTS];
	__u64 sock_file;
	__u64 seen_ns;                /* counted from: its birth, or dbtrace's first sight of it */
	__u64 exit_ns;                /* its final switch-out; 0: alive */
};

#endif /* DBTRACE_SCHED_BLOCKED_H */
