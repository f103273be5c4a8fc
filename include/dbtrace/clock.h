/* SPDX-License-Identifier: GPL-2.0 */
/*
 * clock probe family: types shared by bpf/clock.bpf.c and
 * src/collect/clock.c.
 *
 * A perf_event program on a software CPU-clock event of every CPU looks at
 * the task each sample interrupted and counts, per thread, whether its
 * user IP was inside its vDSO (and in which vDSO function), whether it was
 * in the kernel inside a clock system call, or elsewhere. A second program
 * on the syscall entry counts the real clock system calls per thread.
 * Counters live in an LRU hash keyed by tid and are read once per
 * interval; no event per sample reaches user space.
 */
#ifndef DBTRACE_CLOCK_H
#define DBTRACE_CLOCK_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

/* LRU capacity: counters for at least 64k threads. */
#define DBT_CLOCK_MAX_THREADS 65536

/* vDSO function slots. Slot 0 is vDSO code outside every named function
 * (or a vDSO image other than the one user space parsed, e.g. a 32-bit
 * task's); slots 1.. are the functions user space found in the vDSO's
 * symbol table, their offset ranges handed to the program as read-only
 * data before load. */
#define DBT_CLOCK_FN_SLOTS 8

/* The clock system calls counted, in this order. Their numbers come from
 * user space (<sys/syscall.h> of the same architecture), not from a table
 * here: -1 means the architecture has no such call (time on arm64). */
enum dbt_clock_sys {
	DBT_CLOCK_SYS_CLOCK_GETTIME = 0,
	DBT_CLOCK_SYS_GETTIMEOFDAY,
	DBT_CLOCK_SYS_TIME,
	DBT_CLOCK_SYS_CLOCK_NANOSLEEP,
	DBT_CLOCK_SYS_N,
};

/* One vDSO function: [start, end) as offsets from the start of the vDSO
 * text mapping (mm->context.vdso). end == 0: unused slot. */
struct dbt_clock_range {
	__u64 start;
	__u64 end;
};

/* Cumulative per-thread counters (map clock_threads, key: tid). An entry
 * whose tid was reused by another process is reset by the kernel side, so
 * user space sees counters go down and starts that thread from zero. */
struct dbt_clock_thread {
	__u32 pid;                     /* thread group id */
	__u32 pad;
	char comm[16];                 /* refreshed at every sample */
	__u64 samples;                 /* CPU-clock samples while it ran */
	__u64 user_samples;            /* ... of which in user mode */
	__u64 vdso[DBT_CLOCK_FN_SLOTS]; /* ... of which inside the vDSO, by slot */
	__u64 sys_samples;             /* in the kernel inside a clock syscall */
	__u64 syscalls[DBT_CLOCK_SYS_N]; /* clock syscall entries */
};

/* Per-CPU counters of the family itself. */
struct dbt_clock_stats {
	__u64 samples;                 /* every sample, idle included */
	__u64 idle_samples;            /* pid 0: nobody's time */
	__u64 kthread_samples;         /* no mm: no vDSO, no user IP */
	__u64 inserts;                 /* new thread entries: evicted = inserts - live */
	__u64 update_failed;           /* an entry could not be made: data lost */
};

#endif /* DBTRACE_CLOCK_H */
