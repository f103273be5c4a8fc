/* /proc/net/softnet_stat: per CPU, the packets the receive backlog
 * (netif_rx, RPS) refused because it held more than netdev_max_backlog,
 * and the times NET_RX stopped with work left (its budget or time ran
 * out: a "time squeeze"). Read below a root directory so tests feed
 * fixture trees. Parsing is pure. */
#ifndef DBTRACE_SYSINFO_SOFTNET_H
#define DBTRACE_SYSINFO_SOFTNET_H

#include <stdbool.h>
#include <stdint.h>

/* One line: the counters of one CPU (each a 32-bit counter that wraps). */
struct softnet_cpu {
	int cpu;                       /* CPU number; see softnet_parse */
	bool cpu_listed;               /* the line gave its CPU number (5.10+) */
	uint32_t processed;            /* packets NET_RX handled */
	uint32_t dropped;              /* refused by a full backlog queue */
	uint32_t time_squeeze;         /* NET_RX runs that ended with work left */
	uint32_t received_rps;         /* RPS IPIs received */
	uint32_t flow_limit;           /* dropped by the flow limit */
};

/* Parses the text of /proc/net/softnet_stat into out (at most max lines).
 * The kernel prints one line of hex counters per online CPU; since 5.10
 * the 13th is the CPU's number. Older kernels do not say it: the line's
 * position is used, which is the CPU number only while no lower CPU is
 * offline. Returns the number of lines, or -EINVAL when a line has fewer
 * than the 11 counters every kernel since 4.x prints. */
int softnet_parse(const char *text, struct softnet_cpu *out, int max);

/* Reads ROOT/proc/net/softnet_stat. Returns the number of CPUs or -errno. */
int softnet_read(const char *root, struct softnet_cpu *out, int max);

#endif
