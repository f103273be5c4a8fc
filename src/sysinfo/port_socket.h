/* Whether a process holds a TCP socket bound to a local port: the server
 * side of that port (its listener, or a connection it accepted), where a
 * client of the port holds sockets whose local port is an ephemeral one.
 * What `ss -tnp` shows, read the way it reads it: the sockets of the
 * port in the process's own network namespace (/proc/PID/net/tcp and
 * tcp6, any state), then the socket inodes among its open files
 * (/proc/PID/fd/N -> "socket:[INODE]"). The parsers are pure and tested
 * on fixture text; proc_serves_port() is the thin part. */
#ifndef DBTRACE_SYSINFO_PORT_SOCKET_H
#define DBTRACE_SYSINFO_PORT_SOCKET_H

#include <stdint.h>

/* The inodes of the sockets in a /proc/net/tcp or tcp6 table whose local
 * port is port, into inodes[] (at most max). Returns how many, or
 * -EINVAL for text that is not such a table. */
int tcp_table_port_inodes(const char *text, uint16_t port, uint32_t *inodes, int max);

/* The inode of a socket's /proc/PID/fd link text ("socket:[123]");
 * -EINVAL for anything else. */
int socket_link_inode(const char *link, uint32_t *inode);

/* 1 when process pid (below root: "" for the live system) holds a TCP
 * socket whose local port is port, 0 when it holds none, a negative errno
 * when its tables or files cannot be read (it exited, or no permission). */
int proc_serves_port(const char *root, int pid, uint16_t port);

#endif
