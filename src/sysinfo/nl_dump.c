#include "sysinfo/nl_dump.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <stdbool.h>
#include <stdint.h>

/* mnl_nlmsg_ok() compares (int)nlmsg_len with what is left: a length of
 * 2 GiB or more is negative there and passes, and mnl_nlmsg_next() then
 * jumps that far (found by fuzz_qdisc). Compared unsigned here. */
static bool msg_ok(const struct nlmsghdr *nlh, int rem)
{
	return rem >= (int)sizeof(*nlh) && nlh->nlmsg_len >= sizeof(*nlh) &&
	       nlh->nlmsg_len <= (unsigned int)rem;
}

int nl_dump_walk(const void *buf, size_t len, nl_dump_msg_fn on_msg, void *ctx)
{
	const struct nlmsghdr *nlh = buf;
	int rem = len > (size_t)INT32_MAX ? INT32_MAX : (int)len, err;

	while (msg_ok(nlh, rem)) {
		if (nlh->nlmsg_type == NLMSG_DONE)
			return 1;
		if (nlh->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);

			if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*e))
				return -EINVAL;
			if (e->error)
				return e->error < 0 ? e->error : -e->error;
			return 1;   /* an ack */
		}
		err = on_msg(nlh, ctx);
		if (err)
			return err;
		nlh = mnl_nlmsg_next(nlh, &rem);
	}
	return rem ? -EINVAL : 0;
}
