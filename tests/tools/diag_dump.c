/* Writes the raw bytes of a sock_diag dump of TCP listeners to stdout,
 * exactly as recv() returns them, so the listener parser's unit tests run
 * on real kernel messages (tests/fixtures/netlink/). Plain sockets, no
 * libmnl: the fixtures must not depend on the code they test. The request
 * is the one src/sysinfo/listeners.c sends (state LISTEN, SKMEMINFO).
 *
 * usage: diag_dump 4|6            IPv4 or IPv6 TCP listeners
 */
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct {
		struct nlmsghdr nh;
		struct inet_diag_req_v2 r;
	} req;
	static char buf[65536];
	int fd, done = 0;

	if (argc < 2 || (strcmp(argv[1], "4") && strcmp(argv[1], "6"))) {
		fprintf(stderr, "usage: diag_dump 4|6\n");
		return 2;
	}
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (fd < 0) {
		perror("socket");
		return 1;
	}
	memset(&req, 0, sizeof(req));
	req.nh.nlmsg_len = sizeof(req);
	req.nh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
	req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.nh.nlmsg_seq = 1;
	req.r.sdiag_family = strcmp(argv[1], "4") ? AF_INET6 : AF_INET;
	req.r.sdiag_protocol = IPPROTO_TCP;
	req.r.idiag_states = 1u << 10;          /* TCP_LISTEN */
	req.r.idiag_ext = 1u << (INET_DIAG_SKMEMINFO - 1);
	if (send(fd, &req, sizeof(req), 0) < 0) {
		perror("send");
		return 1;
	}
	while (!done) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *nh;
		int len;

		if (n <= 0) {
			perror("recv");
			return 1;
		}
		fwrite(buf, 1, (size_t)n, stdout);
		len = (int)n;
		for (nh = (struct nlmsghdr *)buf; NLMSG_OK(nh, len); nh = NLMSG_NEXT(nh, len))
			if (nh->nlmsg_type == NLMSG_DONE || nh->nlmsg_type == NLMSG_ERROR)
				done = 1;
	}
	close(fd);
	return 0;
}
