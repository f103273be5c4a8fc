#define _GNU_SOURCE
#include "sysinfo/beneath.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The kernel's own limit on links followed in one lookup (MAXSYMLINKS). */
#define WALK_MAX_LINKS 40
/* Directories held open at once: deeper than any /proc or /sys path. */
#define WALK_MAX_DEPTH 64

int beneath_open(int dirfd, const char *path, int flags)
{
	struct open_how how = {
		.flags = (unsigned long long)(flags | O_CLOEXEC),
		/* magic links (/proc/PID/fd/N) jump anywhere */
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
	};
	long fd = syscall(SYS_openat2, dirfd, *path ? path : ".", &how, sizeof(how));

	if (fd >= 0)
		return (int)fd;
	/* no openat2 here (old kernel, or a seccomp filter that refuses it) */
	if (errno == ENOSYS || errno == EPERM || errno == E2BIG)
		return beneath_open_walk(dirfd, path, flags);
	return -errno;
}

struct walk {
	int dirs[WALK_MAX_DEPTH];      /* the directories entered, innermost last */
	int depth;
	int top;                       /* the directory the walk may not leave */
};

static int here(const struct walk *w)
{
	return w->depth ? w->dirs[w->depth - 1] : w->top;
}

/* rest = target "/" after: a relative link's components come next (no
 * "/" when nothing follows, or a file would be taken for a directory). */
static int splice_link(char *rest, size_t cap, const char *after, const char *target)
{
	char tmp[PATH_MAX];
	int n = snprintf(tmp, sizeof(tmp), "%s%s%s", target, *after ? "/" : "", after);

	if (n < 0 || (size_t)n >= sizeof(tmp) || (size_t)n >= cap)
		return -ENAMETOOLONG;
	memcpy(rest, tmp, (size_t)n + 1);
	return 0;
}

static int walk(struct walk *w, const char *path, int flags)
{
	char rest[PATH_MAX], name[NAME_MAX + 1], target[PATH_MAX];
	const char *p;
	int links = 0;
	size_t len = strlen(path);

	if (len >= sizeof(rest))
		return -ENAMETOOLONG;
	if (path[0] == '/')
		return -EXDEV;             /* as openat2: absolute is out of bounds */
	memcpy(rest, path, len + 1);
	p = rest;
	for (;;) {
		struct stat st;
		const char *end;
		bool last;
		ssize_t n;
		int fd;

		while (*p == '/')
			p++;
		if (!*p) {
			/* "", or a path ending in "/" or "..": the directory itself */
			fd = openat(here(w), ".", flags | O_CLOEXEC);
			return fd < 0 ? -errno : fd;
		}
		end = strchrnul(p, '/');
		if ((size_t)(end - p) > NAME_MAX)
			return -ENAMETOOLONG;
		memcpy(name, p, (size_t)(end - p));
		name[end - p] = 0;
		p = end;
		while (*p == '/')
			p++;
		last = !*p && *end != '/';
		if (!strcmp(name, "."))
			continue;
		if (!strcmp(name, "..")) {
			if (!w->depth)
				return -EXDEV;
			close(w->dirs[--w->depth]);
			continue;
		}
		if (fstatat(here(w), name, &st, AT_SYMLINK_NOFOLLOW))
			return -errno;
		if (S_ISLNK(st.st_mode)) {
			if (++links > WALK_MAX_LINKS)
				return -ELOOP;
			n = readlinkat(here(w), name, target, sizeof(target) - 1);
			if (n < 0)
				return -errno;
			target[n] = 0;
			if (target[0] == '/')
				return -EXDEV;
			if (splice_link(rest, sizeof(rest), p, target))
				return -ENAMETOOLONG;
			p = rest;
			continue;
		}
		if (last) {
			/* swapped for a link since the fstatat: ELOOP, not followed */
			fd = openat(here(w), name, flags | O_NOFOLLOW | O_CLOEXEC);
			return fd < 0 ? -errno : fd;
		}
		if (w->depth == WALK_MAX_DEPTH)
			return -ENAMETOOLONG;
		fd = openat(here(w), name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		w->dirs[w->depth++] = fd;
	}
}

int beneath_open_walk(int dirfd, const char *path, int flags)
{
	struct walk w = { .top = dirfd };
	int rc = walk(&w, path, flags);

	while (w.depth)
		close(w.dirs[--w.depth]);
	return rc;
}
