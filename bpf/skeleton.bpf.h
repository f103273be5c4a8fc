/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The benchmark's skeleton (`make skeleton`, bench/run.sh's `skeleton`
 * configuration): dbtrace built with DBT_SKELETON=1, whose sched, net and
 * softirq programs find each thread's and socket's record (and count
 * softirqs) and then stop, measuring nothing. It is what any tracer that
 * keeps dbtrace's per-thread and per-socket records pays on these hooks,
 * between the floor's empty programs and dbtrace: issue 29's targets
 * (sched_switch within +40 ns of the empty program, 1.25x the floor) are
 * set against it. In every other build DBT_SKELETON is 0, each
 * `if (DBT_SKELETON)` is compiled away, and the objects are the same
 * instruction for instruction.
 */
#ifndef DBTRACE_SKELETON_BPF_H
#define DBTRACE_SKELETON_BPF_H

#ifndef DBT_SKELETON
#define DBT_SKELETON 0
#endif

#endif
