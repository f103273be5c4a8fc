/* What each hook dbtrace can attach costs, in words a user can weigh.
 * The figures are measured on the development VM (docs/benchmarks.md). */
#include "core/probe_report.h"

#include <string.h>

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

bool probe_hook_taxes_syscalls(const char *hook)
{
	/* any syscall tracepoint sets SYSCALL_WORK_SYSCALL_TRACEPOINT on
	 * every task: all system calls leave the fast path while it is on */
	return starts(hook, "tracepoint/syscalls/") || strstr(hook, "sys_enter") != NULL ||
	       strstr(hook, "sys_exit") != NULL;
}

/* The event's own name: what follows the last '/' of the section. */
static const char *event_of(const char *hook)
{
	const char *slash = strrchr(hook, '/');

	return slash ? slash + 1 : hook;
}

const char *probe_hook_cost(const char *hook)
{
	static const struct {
		const char *event;
		const char *cost;
	} events[] = {
		{ "sched_switch", "every context switch" },
		{ "softirq_raise", "every softirq raised" },
		{ "softirq_entry", "every softirq handler run" },
		{ "softirq_exit", "every softirq handler run" },
		{ "irq_handler_entry", "every hard interrupt" },
		{ "irq_handler_exit", "every hard interrupt" },
		{ "net_dev_queue", "every packet sent" },
		{ "net_dev_xmit", "every packet sent" },
		{ "tcp_sendmsg", "every TCP send call" },
		{ "tcp_sendmsg_locked", "every TCP send call" },
		{ "tcp_recvmsg", "every TCP receive call" },
		{ "sock_recv_length", "every socket receive call" },
		{ "sk_data_ready", "every time a socket gets data" },
		{ "sock_def_readable", "every time a socket gets data" },
		{ "tcp_retransmit_skb", "every TCP retransmit (rare)" },
		{ "tcp_retransmit_synack", "every SYN-ACK retransmit (rare)" },
		/* consume_skb is apart: kfree_skb is a packet dropped */
		{ "kfree_skb", "every dropped packet" },
	};
	const char *ev = event_of(hook);

	if (probe_hook_taxes_syscalls(hook))
		return "SLOW PATH: every system call of every task takes the traced path "
		       "(+45% on a syscall-bound load)";
	if (starts(hook, "fentry/") || starts(hook, "fexit/"))
		return starts(ev, "__x64_sys_") || starts(ev, "__arm64_sys_") ?
			"only calls of this system call" : "only calls of this function";
	if (starts(hook, "perf_event"))
		return "each CPU-clock sample (--sample-hz per CPU)";
	if (starts(hook, "iter/"))
		return "once per interval, in dbtrace's own process";
	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++)
		if (!strcmp(ev, events[i].event))
			return events[i].cost;
	return "each event";
}
