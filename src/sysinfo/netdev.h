/* Network interface counters and link speed: /proc/net/dev and
 * /sys/class/net/NAME/speed below a root directory, so tests read fixture
 * trees. Parsing is pure; the read functions are thin. */
#ifndef DBTRACE_SYSINFO_NETDEV_H
#define DBTRACE_SYSINFO_NETDEV_H

#include <stddef.h>
#include <stdint.h>

#define NETDEV_NAME_MAX 16             /* IFNAMSIZ */

/* One device's cumulative counters, as /proc/net/dev lists them. */
struct netdev_counters {
	char name[NETDEV_NAME_MAX];
	uint64_t rx_bytes, rx_packets, rx_drop;
	uint64_t tx_bytes, tx_packets, tx_drop;
};

/* Parses the text of /proc/net/dev into out (at most max devices, in the
 * file's order). Lines that are not device lines (the two headers) are
 * skipped; a device line with fewer than the 16 counters is an error.
 * Returns the number of devices or -EINVAL. */
int netdev_parse_proc(const char *text, struct netdev_counters *out, int max);

/* Reads ROOT/proc/net/dev (NULL or "/" root: the live system, i.e. the
 * network namespace of the calling process). Returns the number of
 * devices or -errno. */
int netdev_read_proc(const char *root, struct netdev_counters *out, int max);

/* Parses the content of a sysfs speed file: Mbit/s, or -1 for unknown
 * (the kernel writes -1 when the link is down or the driver does not
 * say; empty or garbage text is unknown too). */
long netdev_parse_speed(const char *text);

/* Link speed of ROOT/sys/class/net/NAME/speed in Mbit/s, -1 when unknown:
 * virtual devices (lo, bridges) fail the read with EINVAL, a link that is
 * down reads -1. Never an error: an unknown speed is a normal answer. */
long netdev_speed_mbps(const char *root, const char *name);

#endif
