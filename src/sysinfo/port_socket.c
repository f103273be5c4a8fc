#include "sysinfo/port_socket.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sysinfo/procfile.h"

/* A busy server's table is long; sockets of one port past this many are
 * not needed to tell whether the process holds one. */
#define PORT_INODES 4096
#define TCP_TABLE_MAX (64u << 20)

int tcp_table_port_inodes(const char *text, uint16_t port, uint32_t *inodes, int max)
{
	const char *line = text;
	int n = 0;

	/* the header names its columns: "  sl  local_address rem_address ..." */
	if (!text || !strstr(text, "local_address"))
		return -EINVAL;
	while ((line = strchr(line, '\n')) != NULL) {
		unsigned int local_port, state;
		unsigned long inode;
		char local[64];

		line++;
		/* sl: local rem st tx:rx tr:when retrnsmt uid timeout inode */
		if (sscanf(line, "%*u: %63[0-9A-Fa-f]:%x %*[0-9A-Fa-f]:%*x %x %*x:%*x %*x:%*x %*x %*u %*u %lu",
			   local, &local_port, &state, &inode) != 4)
			continue;
		if (local_port != port || !inode)
			continue;
		if (n < max)
			inodes[n++] = (uint32_t)inode;
	}
	return n;
}

int socket_link_inode(const char *link, uint32_t *inode)
{
	unsigned long v;
	char end;

	if (sscanf(link, "socket:[%lu%c", &v, &end) != 2 || end != ']' || v > UINT32_MAX)
		return -EINVAL;
	*inode = (uint32_t)v;
	return 0;
}

static int port_inodes(const char *root, int pid, uint16_t port, uint32_t *inodes, int max)
{
	static const char *const tables[] = { "tcp", "tcp6" };
	int n = 0, read_any = 0, err = -ENOENT;

	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		char path[64], *text;
		int got;

		snprintf(path, sizeof(path), "/proc/%d/net/%s", pid, tables[i]);
		err = procfile_slurp(root, path, TCP_TABLE_MAX, &text, NULL);
		if (err)
			continue;   /* tcp6 is absent without IPv6 */
		read_any = 1;
		got = tcp_table_port_inodes(text, port, inodes + n, max - n);
		free(text);
		if (got > 0)
			n += got;
	}
	return read_any ? n : err;
}

int proc_serves_port(const char *root, int pid, uint16_t port)
{
	uint32_t *inodes = malloc(PORT_INODES * sizeof(*inodes));
	struct dirent *e;
	char path[64];
	DIR *d = NULL;
	int n, ret = 0;

	if (!inodes)
		return -ENOMEM;
	n = port_inodes(root, pid, port, inodes, PORT_INODES);
	if (n <= 0) {
		free(inodes);
		return n;
	}
	snprintf(path, sizeof(path), "/proc/%d/fd", pid);
	ret = procfile_opendir(root, path, &d);
	while (!ret && (e = readdir(d)) != NULL) {
		char link[64];
		uint32_t inode;
		ssize_t len;

		if (e->d_name[0] == '.')
			continue;
		/* the link's text, never followed */
		len = readlinkat(dirfd(d), e->d_name, link, sizeof(link) - 1);
		if (len <= 0)
			continue;
		link[len] = 0;
		if (socket_link_inode(link, &inode))
			continue;
		for (int i = 0; i < n; i++)
			if (inodes[i] == inode)
				ret = 1;
	}
	if (d)
		closedir(d);
	free(inodes);
	return ret;
}
