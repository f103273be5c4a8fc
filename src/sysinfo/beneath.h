/* Opening a path inside a directory without ever leaving it, for the
 * trees copied from another host that `check --root` reads: a symbolic
 * link (absolute, or relative with enough "..") or a ".." that points out
 * of the tree is not followed, whatever the tree holds. Relative links
 * that stay inside (sysfs is made of them) are followed.
 *
 * openat2(2) with RESOLVE_BENEATH where the kernel allows it (5.6+; the
 * seccomp profiles of older container runtimes answer ENOSYS or EPERM),
 * else a walk one component at a time: each directory opened O_PATH with
 * O_NOFOLLOW, each link read and resolved here. */
#ifndef DBTRACE_SYSINFO_BENEATH_H
#define DBTRACE_SYSINFO_BENEATH_H

/* path relative to dirfd; flags as open(2) (O_CLOEXEC is added; O_PATH
 * works). An fd, or -EXDEV when resolving would leave the directory,
 * -ELOOP past 40 links, -ENAMETOOLONG, or another -errno. */
int beneath_open(int dirfd, const char *path, int flags);

/* The component walk alone, so the tests run it where openat2 exists. */
int beneath_open_walk(int dirfd, const char *path, int flags);

#endif
