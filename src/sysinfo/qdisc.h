/* Root queueing discipline of each network device, with the parameters
 * that delay or cap traffic (netem delay, tbf and htb rates), read over
 * rtnetlink with libmnl. The parsing of netlink messages is pure and
 * tested on captured replies (tests/fixtures/netlink/); qdisc_dump() is
 * the thin part that talks to the kernel. */
#ifndef DBTRACE_SYSINFO_QDISC_H
#define DBTRACE_SYSINFO_QDISC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define QDISC_KIND_MAX 16

/* One qdisc. Parameters not given by its kind are 0. */
struct qdisc_info {
	uint32_t ifindex;
	uint32_t handle, parent;       /* parent 0xffffffff (TC_H_ROOT): the device's root */
	char kind[QDISC_KIND_MAX];     /* "tbf", "netem", "htb", "fq_codel", "noqueue", ... */
	char dev[16];                  /* device name; "" until qdisc_dump() names it */
	/* tbf: rate, peak rate, bucket and queue size. htb: the rate and ceil
	 * of its top-level class (the first by class id), and how many
	 * top-level classes there are. netem: its own rate limit, if any. */
	uint64_t rate_bps;             /* bit/s */
	uint64_t ceil_bps;             /* htb */
	uint64_t peakrate_bps;         /* tbf */
	uint64_t burst_bytes;          /* tbf */
	uint64_t limit;                /* tbf: bytes; netem: packets */
	int htb_top_classes;
	uint32_t htb_top_classid;
	/* netem */
	uint64_t delay_ns, jitter_ns;
	double loss_pct;
	double duplicate_pct;
};

struct qdisc_table {
	struct qdisc_info *q;
	int n;
	size_t cap;
};

void qdisc_table_free(struct qdisc_table *t);

/* Parses one reply buffer of a dump (a run of netlink messages as recv()
 * returns them; several buffers may be fed one after the other): each
 * RTM_NEWQDISC adds a qdisc, each RTM_NEWTCLASS of an htb class whose
 * parent is a root htb qdisc in t gives that qdisc its rate and ceil
 * (dump qdiscs before classes). Other messages are skipped. Returns 1
 * when the buffer ends with NLMSG_DONE, 0 when more should follow,
 * -EINVAL for a malformed buffer, -ENOMEM, or the kernel's -errno from an
 * NLMSG_ERROR. */
int qdisc_parse_reply(const void *buf, size_t len, struct qdisc_table *t);

/* The root qdisc of device ifindex, NULL when none is known. */
const struct qdisc_info *qdisc_table_root(const struct qdisc_table *t, uint32_t ifindex);

/* One line as a person reads it, close to `tc qdisc show`:
 * "tbf rate 10Mbit burst 100Kb limit 150Kb", "netem delay 1ms jitter
 * 100us loss 1%", "htb rate 100Mbit ceil 1Gbit", "fq_codel". Returns the
 * length (cut to len - 1). */
size_t qdisc_format(const struct qdisc_info *q, char *buf, size_t len);

/* "10Mbit", "844Mbit", "1.5Gbit", "64Kbit", "500bit" (tc's units, 1000-based). */
void qdisc_format_rate(uint64_t bps, char *buf, size_t len);

/* Whether the kind delays or caps traffic on purpose (netem, tbf, htb,
 * hfsc, cake, ...), as opposed to a plain FIFO or fair queue. */
bool qdisc_is_shaper(const struct qdisc_info *q);

/* Dumps the qdiscs (and htb classes) of the calling thread's network
 * namespace into t (emptied first) and names each root qdisc's device.
 * Returns 0 or -errno. */
int qdisc_dump(struct qdisc_table *t);

#endif
