/* One walk over the raw replies of an rtnetlink or sock_diag dump, as
 * recv() returned them: the length guard, the end and error messages,
 * and every other message handed to the caller. qdisc.c and listeners.c
 * parse their dumps through it. Pure. */
#ifndef DBTRACE_SYSINFO_NL_DUMP_H
#define DBTRACE_SYSINFO_NL_DUMP_H

#include <linux/netlink.h>
#include <stddef.h>

/* Called for each message that is neither NLMSG_DONE nor NLMSG_ERROR;
 * returns 0, or a negative errno that ends the walk. */
typedef int (*nl_dump_msg_fn)(const struct nlmsghdr *nlh, void *ctx);

/* Returns 1 at NLMSG_DONE or an ack, the kernel's negative errno for an
 * NLMSG_ERROR, 0 when buf ended cleanly before the dump did (more to
 * receive), -EINVAL for a truncated or malformed message, or on_msg's
 * error. */
int nl_dump_walk(const void *buf, size_t len, nl_dump_msg_fn on_msg, void *ctx);

#endif
