#include "sysinfo/netdev.h"
#include "sysinfo/procfile.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* /proc/net/dev has one line per device, a few hundred bytes each: 1 MiB
 * holds thousands of devices (a host full of containers' veths). */
#define PROC_NET_DEV_MAX (1u << 20)

/* One device line: "  eth0: rx_bytes rx_packets errs drop fifo frame
 * compressed multicast tx_bytes tx_packets errs drop fifo colls carrier
 * compressed". Device names cannot contain ':' (dev_valid_name), so the
 * first one ends the name. Returns 1 for a device, 0 for another line,
 * -EINVAL for a truncated device line. */
static int parse_line(const char *line, size_t len, struct netdev_counters *d)
{
	const char *colon = memchr(line, ':', len), *p = line;
	uint64_t v[16];
	char buf[512];
	size_t nlen;
	int n = 0;

	if (!colon)
		return 0;
	while (p < colon && (*p == ' ' || *p == '\t'))
		p++;
	nlen = (size_t)(colon - p);
	/* the headers ("face |bytes ...") have a '|' and no ':' before it */
	if (!nlen || nlen >= sizeof(d->name) || memchr(p, '|', nlen) || memchr(p, ' ', nlen))
		return 0;
	if (len - (size_t)(colon + 1 - line) >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, colon + 1, len - (size_t)(colon + 1 - line));
	buf[len - (size_t)(colon + 1 - line)] = 0;
	for (char *s = buf, *end; n < 16; s = end, n++) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s < '0' || *s > '9')
			break;
		errno = 0;
		v[n] = strtoull(s, &end, 10);
		if (errno || end == s)
			break;
	}
	if (n < 16)
		return -EINVAL;
	memset(d, 0, sizeof(*d));
	memcpy(d->name, p, nlen);
	d->rx_bytes = v[0];
	d->rx_packets = v[1];
	d->rx_drop = v[3];
	d->tx_bytes = v[8];
	d->tx_packets = v[9];
	d->tx_drop = v[11];
	return 1;
}

int netdev_parse_proc(const char *text, struct netdev_counters *out, int max)
{
	const char *p = text;
	int n = 0;

	while (p && *p && n < max) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		int rc = parse_line(p, len, &out[n]);

		if (rc < 0)
			return rc;
		n += rc;
		p = nl ? nl + 1 : NULL;
	}
	return n;
}

int netdev_read_proc(const char *root, struct netdev_counters *out, int max)
{
	char *text;
	int n;

	n = procfile_slurp(root, "/proc/net/dev", PROC_NET_DEV_MAX, &text, NULL);
	if (n)
		return n;
	n = netdev_parse_proc(text, out, max);
	free(text);
	return n;
}

long netdev_parse_speed(const char *text)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(text, &end, 10);
	if (errno || end == text || (*end && *end != '\n') || v <= 0)
		return -1;
	return v;
}

long netdev_speed_mbps(const char *root, const char *name)
{
	char path[64 + NETDEV_NAME_MAX], line[32];

	if (!name[0] || strchr(name, '/'))
		return -1;
	snprintf(path, sizeof(path), "/sys/class/net/%s/speed", name);
	if (procfile_line(root, path, line, sizeof(line)))
		return -1;
	return netdev_parse_speed(line);
}
