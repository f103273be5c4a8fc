// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark's floor: empty programs on every tracepoint dbtrace's
 * families attach to on the build host (6.18, which refuses fentry), plus
 * an empty CPU-clock sampler like the clock family's. Running them costs
 * what any tracer of these events pays before doing any work; `make
 * bench` measures dbtrace against it in the same run and prints the path
 * each family took, to compare with this list. Loaded by
 * tests/tools/bpf_floor.c, which switches on the programs whose
 * tracepoint the running kernel has. Keep the list in step with the
 * families' SEC()s: softirq and sched tp_btf, clock perf_event,
 * net tp_btf, loss tp_btf. The clock syscalls' tracepoints are here too, but only
 * `bpf_floor -s` attaches them (alone): dbtrace attaches no syscall hook
 * by default, and they are the cost of --clock-syscalls=count.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

/* softirq family */
SEC("?tp_btf/softirq_raise") int BPF_PROG(flr_sirq_raise) { return 0; }
SEC("?tp_btf/softirq_entry") int BPF_PROG(flr_sirq_entry) { return 0; }
SEC("?tp_btf/softirq_exit") int BPF_PROG(flr_sirq_exit) { return 0; }
SEC("?tp_btf/irq_handler_entry") int BPF_PROG(flr_hirq_entry) { return 0; }
SEC("?tp_btf/irq_handler_exit") int BPF_PROG(flr_hirq_exit) { return 0; }
/* sched family */
SEC("?tp_btf/sched_switch") int BPF_PROG(flr_switch) { return 0; }
/* clock family ("perf_event") */
SEC("?perf_event") int flr_sample(struct bpf_perf_event_data *ctx) { return 0; }
/* --clock-syscalls=count where fentry is refused ("perf_event+tracepoint"):
 * attached only by bpf_floor -s */
SEC("?tracepoint/syscalls/sys_enter_clock_gettime") int flr_cgt(void *ctx) { return 0; }
SEC("?tracepoint/syscalls/sys_enter_gettimeofday") int flr_gtod(void *ctx) { return 0; }
SEC("?tracepoint/syscalls/sys_enter_time") int flr_time(void *ctx) { return 0; }
SEC("?tracepoint/syscalls/sys_enter_clock_nanosleep") int flr_nsleep(void *ctx) { return 0; }
/* net family */
SEC("?tp_btf/net_dev_queue") int BPF_PROG(flr_dev_queue) { return 0; }
SEC("?tp_btf/net_dev_xmit") int BPF_PROG(flr_dev_xmit) { return 0; }
SEC("?tp_btf/tcp_sendmsg_locked") int BPF_PROG(flr_sendmsg) { return 0; }
SEC("?tp_btf/sock_recv_length") int BPF_PROG(flr_recv_len) { return 0; }
SEC("?tp_btf/sk_data_ready") int BPF_PROG(flr_data_ready) { return 0; }
/* loss family */
SEC("?tp_btf/tcp_retransmit_skb") int BPF_PROG(flr_retransmit) { return 0; }
SEC("?tp_btf/tcp_retransmit_synack") int BPF_PROG(flr_synack) { return 0; }
SEC("?tp_btf/kfree_skb") int BPF_PROG(flr_kfree_skb) { return 0; }
