#define _GNU_SOURCE
#include "sysinfo/netns.h"
#include "sysinfo/proc_scan.h"
#include "sysinfo/procfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <linux/nsfs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

static uint32_t inode_of(const char *root, const char *rel)
{
	char full[4096];
	struct stat st;

	if (procfile_path(full, sizeof(full), root, rel) || stat(full, &st))
		return 0;
	return (uint32_t)st.st_ino;
}

uint32_t netns_self(const char *root)
{
	return inode_of(root, "/proc/self/ns/net");
}

/* Looks in ROOT/run/netns (bind mounts made by `ip netns add`). */
static int scan_run(const char *root, uint32_t inum, char *path, size_t pathlen, char *name,
		    size_t namelen)
{
	char rel[512];
	struct dirent *de;
	DIR *d;
	int rc = -ENOENT;

	if (procfile_opendir(root, "/run/netns", &d))
		return -ENOENT;
	while (rc && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(rel, sizeof(rel), "/run/netns/%.200s", de->d_name);
		if (inode_of(root, rel) != inum || procfile_path(path, pathlen, root, rel))
			continue;
		snprintf(name, namelen, "%s", de->d_name);
		rc = 0;
	}
	closedir(d);
	return rc;
}

struct pid_scan {
	const char *root;
	uint32_t inum;
	char *path;
	size_t pathlen;
};

/* 1 (stop) at the first process inside the namespace. */
static int pid_in_ns(void *ctx, int pid)
{
	struct pid_scan *s = ctx;
	char rel[64];

	snprintf(rel, sizeof(rel), "/proc/%d/ns/net", pid);
	return inode_of(s->root, rel) == s->inum && !procfile_path(s->path, s->pathlen, s->root, rel);
}

int netns_find(const char *root, uint32_t inum, char *path, size_t pathlen, char *name,
	       size_t namelen)
{
	struct pid_scan s = { root, inum, path, pathlen };
	struct stat st;

	if (!inum || !pathlen || !namelen)
		return -ENOENT;
	/* the hint: a process may have moved or exited, so check it again */
	if (path[0] && !stat(path, &st) && (uint32_t)st.st_ino == inum)
		return 0;
	path[0] = 0;
	if (!scan_run(root, inum, path, pathlen, name, namelen))
		return 0;
	name[0] = 0;
	if (dbt_proc_for_each_pid(root, pid_in_ns, &s) == 1)
		return 0;
	path[0] = 0;
	return -ENOENT;
}

int netns_run(const char *path, int (*fn)(void *ctx), void *ctx)
{
	int self, target, rc;

	self = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (self < 0)
		return -errno;
	target = open(path, O_RDONLY | O_CLOEXEC);
	if (target < 0) {
		rc = -errno;
		close(self);
		return rc;
	}
	if (setns(target, CLONE_NEWNET)) {
		rc = -errno;
		close(target);
		close(self);
		return rc;
	}
	close(target);
	rc = fn(ctx);
	if (setns(self, CLONE_NEWNET))
		rc = -ENOTRECOVERABLE;
	close(self);
	return rc;
}

int netns_resolve(const char *text, char *path, size_t pathlen, uint32_t *inum)
{
	struct stat st;
	int fd, type;

	if (!text[0])
		return -ENOENT;
	if (strchr(text, '/'))
		snprintf(path, pathlen, "%s", text);
	else
		snprintf(path, pathlen, "/run/netns/%s", text);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -ENOENT;
	/* nsfs says what a namespace file is (4.11) */
	type = ioctl(fd, NS_GET_NSTYPE);
	if (type != CLONE_NEWNET || fstat(fd, &st)) {
		close(fd);
		return -EINVAL;
	}
	close(fd);
	*inum = (uint32_t)st.st_ino;
	return 0;
}
