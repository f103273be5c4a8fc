/* Network namespaces by inode number: the net family sees devices of
 * every namespace (containers, veth pairs), and their counters and qdiscs
 * can only be read from inside the namespace. These functions find a
 * namespace file for an inode and run a reader inside it. */
#ifndef DBTRACE_SYSINFO_NETNS_H
#define DBTRACE_SYSINFO_NETNS_H

#include <stddef.h>
#include <stdint.h>

/* Inode of ROOT/proc/self/ns/net (NULL root: the caller's); 0 if unknown. */
uint32_t netns_self(const char *root);

/* Finds a file naming namespace inum: ROOT/run/netns/NAME (`ip netns`)
 * first, then ROOT/proc/PID/ns/net of any process in it. On success path
 * holds it and name the `ip netns` name or "" (a namespace only processes
 * hold). A hint path from an earlier call is tried first. Returns 0 or
 * -ENOENT. Opens nothing: holding a namespace file would keep a deleted
 * namespace alive. */
int netns_find(const char *root, uint32_t inum, char *path, size_t pathlen, char *name,
	       size_t namelen);

/* --netns NAME|PATH: the namespace file (NAME: /run/netns/NAME, as `ip
 * netns` names them; a text with a '/': that path, e.g. /proc/PID/ns/net)
 * into path, and its inode. Returns 0, -ENOENT (no such file) or -EINVAL
 * (a file that is not a network namespace). */
int netns_resolve(const char *text, char *path, size_t pathlen, uint32_t *inum);

/* Runs fn(ctx) with the calling thread inside the namespace at path and
 * switches back. Returns fn's result, or -errno when the switch failed
 * (fn then does not run). A failure to switch back is fatal to correctness
 * and reported as -ENOTRECOVERABLE. */
int netns_run(const char *path, int (*fn)(void *ctx), void *ctx);

#endif
