/* TCP listening sockets of one network namespace with their accept
 * queues, read over sock_diag (NETLINK_SOCK_DIAG, what `ss -lnt` uses):
 * for a listener the kernel reports the accept queue's length
 * (sk_ack_backlog) as idiag_rqueue, its limit (sk_max_ack_backlog: the
 * listen() backlog capped at somaxconn) as idiag_wqueue, and in
 * INET_DIAG_SKMEMINFO the socket's drop counter, which tcp_listendrop()
 * raises for every SYN or handshake-completing ACK the listener drops:
 * each accept-queue overflow, and the rarer drops for other reasons
 * (no memory for a request socket, ...). The parsing of netlink messages
 * is pure and tested on captured replies (tests/fixtures/netlink/);
 * listeners_dump() is the thin part that talks to the kernel. */
#ifndef DBTRACE_SYSINFO_LISTENERS_H
#define DBTRACE_SYSINFO_LISTENERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct listener_info {
	uint8_t family;                /* AF_INET or AF_INET6 */
	uint16_t port;                 /* host byte order */
	uint32_t queue;                /* connections waiting for accept() */
	uint32_t backlog;              /* the accept queue's limit */
	bool have_drops;               /* the reply had INET_DIAG_SKMEMINFO */
	uint32_t drops;                /* the socket's drop counter (wraps at 2^32) */
	uint32_t inode;
};

struct listener_table {
	struct listener_info *l;
	int n;
	size_t cap;
};

void listener_table_free(struct listener_table *t);

/* Parses one reply buffer of a dump (several may be fed in turn): each
 * inet_diag_msg of a socket in TCP_LISTEN adds a listener. Returns 1 when
 * the buffer ends with NLMSG_DONE, 0 when more should follow, -EINVAL for
 * a malformed buffer, -ENOMEM, or the kernel's -errno from NLMSG_ERROR. */
int listeners_parse_reply(const void *buf, size_t len, struct listener_table *t);

/* Dumps the IPv4 and IPv6 TCP listeners of the calling thread's network
 * namespace into t (emptied first). Returns 0 or -errno. */
int listeners_dump(struct listener_table *t);

#endif
