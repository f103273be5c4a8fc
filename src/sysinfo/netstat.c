#include "sysinfo/netstat.h"
#include "sysinfo/procfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A few KiB each; the limit only guards against a runaway file. */
#define NETSTAT_MAX (1u << 20)

/* The line after p, or NULL. */
static const char *next_line(const char *p)
{
	const char *nl = strchr(p, '\n');

	return nl ? nl + 1 : NULL;
}

/* Whether the line at p starts with "SECTION:". */
static bool is_section(const char *p, const char *section, size_t slen)
{
	return !strncmp(p, section, slen) && p[slen] == ':';
}

/* The index-th word (0-based) after the "SECTION:" prefix of the line at
 * p, as [*w, *w + *wlen); false when the line is shorter. */
static bool word_at(const char *p, size_t slen, int index, const char **w, size_t *wlen)
{
	const char *s = p + slen + 1;

	for (int i = 0;; i++) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s || *s == '\n')
			return false;
		*w = s;
		while (*s && *s != ' ' && *s != '\t' && *s != '\n')
			s++;
		*wlen = (size_t)(s - *w);
		if (i == index)
			return true;
	}
}

int netstat_value(const char *text, const char *section, const char *key, uint64_t *out)
{
	size_t slen = strlen(section), klen = strlen(key);

	for (const char *p = text; p && *p; p = next_line(p)) {
		const char *vals, *w;
		size_t wlen;
		int index = -1;

		if (!is_section(p, section, slen))
			continue;
		for (int i = 0; word_at(p, slen, i, &w, &wlen); i++) {
			if (wlen == klen && !memcmp(w, key, klen)) {
				index = i;
				break;
			}
		}
		vals = next_line(p);
		if (index < 0 || !vals || !is_section(vals, section, slen))
			continue;
		if (!word_at(vals, slen, index, &w, &wlen))
			return -EINVAL;
		{
			char num[24], *end;

			if (wlen >= sizeof(num))
				return -EINVAL;
			memcpy(num, w, wlen);
			num[wlen] = 0;
			errno = 0;
			/* Tcp's MaxConn is -1: signed in the kernel's table */
			*out = num[0] == '-' ? 0 : strtoull(num, &end, 10);
			if (num[0] != '-' && (errno || *end))
				return -EINVAL;
		}
		return 0;
	}
	return -ENOENT;
}

static void take(const char *text, const char *section, const char *key, uint64_t *out)
{
	if (text && netstat_value(text, section, key, out))
		*out = 0;
}

void netstat_parse(const char *netstat, const char *snmp, struct tcp_netstat *out)
{
	memset(out, 0, sizeof(*out));
	out->have = netstat != NULL;
	take(netstat, "TcpExt", "ListenOverflows", &out->listen_overflows);
	take(netstat, "TcpExt", "ListenDrops", &out->listen_drops);
	take(netstat, "TcpExt", "TCPMemoryPressures", &out->memory_pressures);
	take(netstat, "TcpExt", "TCPMemoryPressuresChrono", &out->memory_pressure_ms);
	take(netstat, "TcpExt", "TCPAbortOnMemory", &out->abort_on_memory);
	take(netstat, "TcpExt", "TCPTimeouts", &out->timeouts);
	take(netstat, "TcpExt", "TCPLossProbes", &out->loss_probes);
	take(snmp, "Tcp", "RetransSegs", &out->retrans_segs);
}

int netstat_read(const char *root, struct tcp_netstat *out)
{
	char *netstat = NULL, *snmp = NULL;
	int err = procfile_slurp(root, "/proc/net/netstat", NETSTAT_MAX, &netstat, NULL);

	if (err) {
		memset(out, 0, sizeof(*out));
		return err;
	}
	if (procfile_slurp(root, "/proc/net/snmp", NETSTAT_MAX, &snmp, NULL))
		snmp = NULL;
	netstat_parse(netstat, snmp, out);
	free(netstat);
	free(snmp);
	return 0;
}

static long sysctl_long(const char *root, const char *path)
{
	char line[32], *end;
	long v;

	if (procfile_line(root, path, line, sizeof(line)))
		return -1;
	errno = 0;
	v = strtol(line, &end, 10);
	return errno || end == line || v < 0 ? -1 : v;
}

void net_limits_read(const char *root, struct net_limits *out)
{
	out->somaxconn = sysctl_long(root, "/proc/sys/net/core/somaxconn");
	out->tcp_max_syn_backlog = sysctl_long(root, "/proc/sys/net/ipv4/tcp_max_syn_backlog");
	out->netdev_max_backlog = sysctl_long(root, "/proc/sys/net/core/netdev_max_backlog");
}
