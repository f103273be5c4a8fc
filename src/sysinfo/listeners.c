#include "sysinfo/listeners.h"
#include "sysinfo/nl_dump.h"
#include "core/vec.h"

#include <arpa/inet.h>
#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/inet_diag.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#define TCP_LISTEN_STATE 10            /* include/net/tcp_states.h */

void listener_table_free(struct listener_table *t)
{
	free(t->l);
	memset(t, 0, sizeof(*t));
}

static int parse_msg(const struct nlmsghdr *nlh, struct listener_table *t)
{
	const struct inet_diag_msg *m = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *a;
	struct listener_info *l;

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*m))
		return -EINVAL;
	if (m->idiag_state != TCP_LISTEN_STATE)
		return 0;
	if (VEC_RESERVE(t->l, t->cap, (size_t)t->n + 1))
		return -ENOMEM;
	l = &t->l[t->n++];
	memset(l, 0, sizeof(*l));
	l->family = m->idiag_family;
	l->port = ntohs(m->id.idiag_sport);
	l->queue = m->idiag_rqueue;
	l->backlog = m->idiag_wqueue;
	l->inode = m->idiag_inode;
	mnl_attr_for_each(a, nlh, sizeof(*m)) {
		uint32_t mem[SK_MEMINFO_VARS];
		size_t len;

		if (mnl_attr_get_type(a) != INET_DIAG_SKMEMINFO)
			continue;
		len = mnl_attr_get_payload_len(a);
		/* older kernels report fewer fields: SK_MEMINFO_DROPS came in 4.0 */
		if (len < (SK_MEMINFO_DROPS + 1) * sizeof(uint32_t))
			continue;
		memset(mem, 0, sizeof(mem));
		memcpy(mem, mnl_attr_get_payload(a), len < sizeof(mem) ? len : sizeof(mem));
		l->drops = mem[SK_MEMINFO_DROPS];
		l->have_drops = true;
	}
	return 0;
}

static int on_listener_msg(const struct nlmsghdr *nlh, void *ctx)
{
	return nlh->nlmsg_type == SOCK_DIAG_BY_FAMILY ? parse_msg(nlh, ctx) : 0;
}

int listeners_parse_reply(const void *buf, size_t len, struct listener_table *t)
{
	return nl_dump_walk(buf, len, on_listener_msg, t);
}

/* --- the socket I/O ---------------------------------------------------- */

static int dump_family(struct mnl_socket *nl, uint8_t family, uint32_t seq, struct listener_table *t)
{
	char buf[MNL_SOCKET_BUFFER_SIZE > 32768 ? MNL_SOCKET_BUFFER_SIZE : 32768];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct inet_diag_req_v2 *req;
	int rc;

	nlh->nlmsg_type = SOCK_DIAG_BY_FAMILY;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nlh->nlmsg_seq = seq;
	req = mnl_nlmsg_put_extra_header(nlh, sizeof(*req));
	req->sdiag_family = family;
	req->sdiag_protocol = IPPROTO_TCP;
	req->idiag_states = 1u << TCP_LISTEN_STATE;
	req->idiag_ext = 1u << (INET_DIAG_SKMEMINFO - 1);
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	do {
		ssize_t n = mnl_socket_recvfrom(nl, buf, sizeof(buf));

		if (n < 0)
			return errno == EINTR ? -EINTR : -errno;
		rc = listeners_parse_reply(buf, (size_t)n, t);
	} while (rc == 0);
	return rc < 0 ? rc : 0;
}

int listeners_dump(struct listener_table *t)
{
	uint32_t seq = (uint32_t)time(NULL);
	struct mnl_socket *nl;
	int err;

	t->n = 0;
	nl = mnl_socket_open(NETLINK_SOCK_DIAG);
	if (!nl)
		return -errno;
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		err = -errno;
		goto out;
	}
	err = dump_family(nl, AF_INET, seq, t);
	/* a kernel without IPv6 answers ENOENT: its IPv4 listeners still count */
	if (!err) {
		int e6 = dump_family(nl, AF_INET6, seq + 1, t);

		if (e6 && e6 != -ENOENT && e6 != -EAFNOSUPPORT)
			err = e6;
	}
out:
	mnl_socket_close(nl);
	return err;
}
