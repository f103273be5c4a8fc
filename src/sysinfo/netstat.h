/* The TCP stack's own counters and limits in one network namespace:
 * /proc/net/netstat and /proc/net/snmp (counters named in a header line
 * followed by a line of values: "TcpExt: ListenOverflows ..."), and the
 * sysctls that bound its queues. Read below a root directory (tests feed
 * fixture trees); /proc/net is the calling process's namespace. Parsing
 * is pure. */
#ifndef DBTRACE_SYSINFO_NETSTAT_H
#define DBTRACE_SYSINFO_NETSTAT_H

#include <stdbool.h>
#include <stdint.h>

/* Cumulative since the namespace was made. */
struct tcp_netstat {
	bool have;                     /* /proc/net/netstat was read */
	uint64_t listen_overflows;     /* TcpExt ListenOverflows: accept queue full */
	uint64_t listen_drops;         /* TcpExt ListenDrops: every drop at a listener, overflows included */
	uint64_t memory_pressures;     /* TcpExt TCPMemoryPressures: entries into tcp_mem pressure */
	uint64_t memory_pressure_ms;   /* TcpExt TCPMemoryPressuresChrono: time under it */
	uint64_t abort_on_memory;      /* TcpExt TCPAbortOnMemory: connections reset for memory */
	uint64_t timeouts;             /* TcpExt TCPTimeouts: RTO expirations */
	uint64_t loss_probes;          /* TcpExt TCPLossProbes: TLPs sent */
	uint64_t retrans_segs;         /* Tcp RetransSegs (/proc/net/snmp): segments retransmitted */
};

/* The queue limits of a namespace; -1 where unknown. */
struct net_limits {
	long somaxconn;                /* net.core.somaxconn: caps listen()'s backlog (per namespace) */
	long tcp_max_syn_backlog;      /* net.ipv4.tcp_max_syn_backlog (per namespace) */
	long netdev_max_backlog;       /* net.core.netdev_max_backlog (host-wide) */
};

/* The value of KEY in section SECTION ("TcpExt", "Tcp") of text in the
 * /proc/net/netstat form: a line "SECTION: name name ..." followed by
 * "SECTION: value value ...". Returns 0 with *out set, -ENOENT when the
 * key is not there, -EINVAL when the value line is short or not a number. */
int netstat_value(const char *text, const char *section, const char *key, uint64_t *out);

/* Fills out from the texts of /proc/net/netstat and /proc/net/snmp
 * (either may be NULL); counters missing from the kernel stay 0. */
void netstat_parse(const char *netstat, const char *snmp, struct tcp_netstat *out);

/* Reads ROOT/proc/net/netstat and ROOT/proc/net/snmp. Returns 0, or
 * -errno when netstat could not be read (out->have false). */
int netstat_read(const char *root, struct tcp_netstat *out);

/* Reads the limits below ROOT/proc/sys/net. Never fails: unknown is -1. */
void net_limits_read(const char *root, struct net_limits *out);

#endif
