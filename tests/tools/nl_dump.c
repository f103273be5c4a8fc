/* Writes the raw bytes of an rtnetlink dump reply to stdout, exactly as
 * recv() returns them, so the qdisc parser's unit tests run on real
 * kernel messages (tests/fixtures/netlink/). Plain sockets, no libmnl:
 * the fixtures must not depend on the code they test.
 *
 * usage: nl_dump qdisc            RTM_GETQDISC, every device
 *        nl_dump class IFINDEX    RTM_GETTCLASS of one device
 */
#include <errno.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct {
		struct nlmsghdr nh;
		struct tcmsg tc;
	} req;
	static char buf[65536];
	int fd, done = 0;

	if (argc < 2 || (strcmp(argv[1], "qdisc") && (strcmp(argv[1], "class") || argc < 3))) {
		fprintf(stderr, "usage: nl_dump qdisc | nl_dump class IFINDEX\n");
		return 2;
	}
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0) {
		perror("socket");
		return 1;
	}
	memset(&req, 0, sizeof(req));
	req.nh.nlmsg_len = sizeof(req);
	req.nh.nlmsg_type = strcmp(argv[1], "qdisc") ? RTM_GETTCLASS : RTM_GETQDISC;
	req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.nh.nlmsg_seq = 1;
	req.tc.tcm_family = AF_UNSPEC;
	if (argc > 2)
		req.tc.tcm_ifindex = atoi(argv[2]);
	if (send(fd, &req, sizeof(req), 0) < 0) {
		perror("send");
		return 1;
	}
	while (!done) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *nh;
		int len;

		if (n < 0 && errno == EINTR)
			continue;
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
