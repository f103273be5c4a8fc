/* Every open goes through open_kind(): non-blocking, and only the kind of
 * file asked for (a regular file, or a directory), so a FIFO, a socket or
 * a device in a tree never blocks the reader nor wakes a driver. A tree
 * (any root but the live system's "/") is also read without leaving it:
 * sysinfo/beneath.h. What a tree's reading refuses or cuts short is said
 * in one note on stderr (log_info): the live kernel's files are what they
 * are, so there the notes are debug output. */
#define _GNU_SOURCE
#include "sysinfo/procfile.h"
#include "sysinfo/beneath.h"
#include "core/log.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int procfile_path(char *buf, size_t len, const char *root, const char *path)
{
	size_t rlen;
	int n;

	if (!path)
		return -EINVAL;
	while (*path == '/')
		path++;
	if (!root || !strcmp(root, "/"))
		root = "";
	rlen = strlen(root);
	while (rlen > 0 && root[rlen - 1] == '/')
		rlen--;
	n = snprintf(buf, len, "%.*s/%s", (int)rlen, root, path);
	if (n < 0)
		return -EINVAL;
	if ((size_t)n >= len)
		return -ENAMETOOLONG;
	return 0;
}

bool procfile_live(const char *root)
{
	return !root || !*root || !strcmp(root, "/");
}

/* One note about ROOT/path: for a person reading a tree's audit. */
static void __attribute__((format(printf, 3, 4))) note(const char *root, const char *path,
						       const char *fmt, ...)
{
	char full[PATH_MAX], what[192];
	va_list ap;

	if (procfile_path(full, sizeof(full), root, path))
		snprintf(full, sizeof(full), "%s", path);
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (procfile_live(root))
		log_debug("note: %s %s", full, what);
	else
		log_info("note: %s %s", full, what);
}

static const char *kind_name(mode_t m)
{
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISLNK(m))
		return "a symbolic link";
	return "not a regular file";
}

/* 0 when fd is what was asked for; else the note is made and the errno
 * returned: -EISDIR and -ENOTDIR as open(2) says them, -ENXIO (what
 * open(2) says for a socket) for FIFOs, sockets and devices. */
static int check_kind(int fd, bool want_dir, const char *root, const char *path)
{
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	if (want_dir)
		return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
	if (S_ISREG(st.st_mode))
		return 0;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	note(root, path, "is %s, not a regular file: not read", kind_name(st.st_mode));
	return -ENXIO;
}

/* A tree's file: resolved beneath the root as O_PATH (no open reaches a
 * driver or a FIFO), its kind checked, then reopened through
 * /proc/self/fd, which names that very inode. */
static int open_in_tree(const char *root, const char *path, int flags, bool want_dir)
{
	char self[64];
	int rootfd, pfd, fd, err;

	while (*path == '/')
		path++;
	rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return -errno;
	pfd = beneath_open(rootfd, path, O_PATH);
	if (pfd == -EXDEV)
		note(root, path, "leads out of the tree (a symbolic link or \"..\"): not followed");
	else if (pfd == -ELOOP)
		note(root, path, "has a loop of symbolic links: not followed");
	if (pfd < 0) {
		close(rootfd);
		return pfd;
	}
	err = check_kind(pfd, want_dir, root, path);
	if (err) {
		close(pfd);
		close(rootfd);
		return err;
	}
	snprintf(self, sizeof(self), "/proc/self/fd/%d", pfd);
	fd = open(self, flags | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0 && errno == ENOENT) {
		/* no /proc mounted: resolve again, and check what came */
		fd = beneath_open(rootfd, path, flags | O_NONBLOCK | O_NOCTTY);
		if (fd >= 0 && (err = check_kind(fd, want_dir, root, path))) {
			close(fd);
			fd = err;
		}
	} else if (fd < 0) {
		fd = -errno;
	}
	close(pfd);
	close(rootfd);
	return fd;
}

static int open_kind(const char *root, const char *path, int flags, bool want_dir)
{
	char full[PATH_MAX];
	int fd, err;

	if (!procfile_live(root))
		return open_in_tree(root, path, flags, want_dir);
	err = procfile_path(full, sizeof(full), root, path);
	if (err)
		return err;
	fd = open(full, flags | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -errno;
	err = check_kind(fd, want_dir, root, path);
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

int procfile_open(const char *root, const char *path, int flags)
{
	if (!path)
		return -EINVAL;
	return open_kind(root, path, flags, flags & O_DIRECTORY);
}

/* 0 when fd became the stream (fdopen, fdopendir), else fd is closed and
 * the error returned. */
static int wrapped(int fd, const void *stream)
{
	int err = -errno;

	if (stream)
		return 0;
	close(fd);
	return err;
}

int procfile_fopen(const char *root, const char *path, FILE **out)
{
	int fd = procfile_open(root, path, O_RDONLY);

	*out = NULL;
	if (fd < 0)
		return fd;
	*out = fdopen(fd, "r");
	return wrapped(fd, *out);
}

/* Reads an open file to EOF, or its first max bytes: *cut says whether
 * there was more. */
static int read_all(int fd, size_t max, char **out, size_t *out_len, bool *cut)
{
	/* Room for max bytes, one more to tell "exactly max" from "more",
	 * and the NUL. Not core/vec.h: this buffer grows by doubling too, but
	 * stops at hard rather than overshooting it, and starts at a page
	 * since nearly every read wants one. */
	size_t hard = max + 2, cap = 4096, len = 0;
	char *buf;

	*cut = false;
	if (max > SIZE_MAX - 2)
		return -EINVAL;
	if (cap > hard)
		cap = hard;
	buf = malloc(cap);
	if (!buf)
		return -ENOMEM;
	/* Every pass reads at least one byte or ends; len > max ends it. */
	for (unsigned int eintr = 0;;) {
		ssize_t n;

		if (len + 1 >= cap) {
			size_t ncap = cap * 2 > hard ? hard : cap * 2;
			char *nbuf = realloc(buf, ncap);

			if (!nbuf) {
				free(buf);
				return -ENOMEM;
			}
			buf = nbuf;
			cap = ncap;
		}
		n = read(fd, buf + len, cap - 1 - len);
		if (n < 0) {
			int err = -errno;

			if (err == -EINTR && ++eintr < 100)
				continue;
			free(buf);
			return err;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len > max) {
			len = max;
			*cut = true;
			break;
		}
	}
	buf[len] = '\0';
	*out = buf;
	*out_len = len;
	return 0;
}

int procfile_slurp(const char *root, const char *path, size_t max, char **out, size_t *len)
{
	size_t n = 0;
	bool cut;
	int fd, err;

	*out = NULL;
	if (len)
		*len = 0;
	fd = procfile_open(root, path, O_RDONLY);
	if (fd < 0)
		return fd;
	err = read_all(fd, max, out, &n, &cut);
	close(fd);
	if (!err && cut)
		note(root, path, "is larger than %zu bytes: only its first %zu bytes were read", max, max);
	if (!err && len)
		*len = n;
	return err;
}

int procfile_line(const char *root, const char *path, char *buf, size_t len)
{
	FILE *f;
	int err;

	if (!len)
		return -EINVAL;
	err = procfile_fopen(root, path, &f);
	if (err)
		return err;
	if (!fgets(buf, (int)len, f)) {
		buf[0] = 0;
		err = ferror(f) ? -EIO : 0;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return err;
}

int procfile_opendir(const char *root, const char *path, DIR **out)
{
	int fd = path ? open_kind(root, path, O_RDONLY | O_DIRECTORY, true) : -EINVAL;

	*out = NULL;
	if (fd < 0)
		return fd;
	*out = fdopendir(fd);
	return wrapped(fd, *out);
}

/* The directory holding ROOT/path, opened O_PATH (beneath the root for a
 * tree), and the name in it. */
static int open_parent(const char *root, const char *path, char *name, size_t len)
{
	char rel[PATH_MAX];
	const char *slash;
	int fd;

	while (*path == '/')
		path++;
	slash = strrchr(path, '/');
	if (strlen(slash ? slash + 1 : path) >= len || (size_t)(slash - path) >= sizeof(rel))
		return -ENAMETOOLONG;
	snprintf(name, len, "%s", slash ? slash + 1 : path);
	snprintf(rel, sizeof(rel), "%.*s", slash ? (int)(slash - path) : 0, path);
	fd = open_kind(root, rel, O_PATH | O_DIRECTORY, true);
	return fd;
}

int procfile_link_name(const char *root, const char *path, char *buf, size_t len)
{
	char name[NAME_MAX + 1], link[PATH_MAX];
	const char *base;
	ssize_t n;
	int dfd;

	if (!path)
		return -EINVAL;
	dfd = open_parent(root, path, name, sizeof(name));
	if (dfd < 0)
		return dfd;
	n = readlinkat(dfd, name, link, sizeof(link) - 1);
	close(dfd);
	if (n < 0)
		return -errno;
	link[n] = '\0';
	base = strrchr(link, '/');
	base = base ? base + 1 : link;
	if (strlen(base) >= len)
		return -ENAMETOOLONG;
	memcpy(buf, base, strlen(base) + 1);
	return 0;
}

int procfile_pid_exists(const char *root, int pid)
{
	char rel[64], full[PATH_MAX];
	int fd;

	snprintf(rel, sizeof(rel), "/proc/%d", pid);
	if (procfile_live(root))
		return !procfile_path(full, sizeof(full), root, rel) && access(full, F_OK) == 0;
	fd = open_kind(root, rel, O_PATH | O_DIRECTORY, true);
	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

int procfile_each_line_buf(const char *buf, size_t len, size_t line_max, procfile_line_fn fn,
			   void *ctx)
{
	if (!buf)
		return 0;
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *lend = nl ? nl : end;
		size_t n = (size_t)(lend - p);
		bool trunc = n > line_max;
		int ret = fn(ctx, p, trunc ? line_max : n, trunc);

		if (ret)
			return ret;
		p = nl ? nl + 1 : end;
	}
	return 0;
}

/* Feeds fd's lines to fn, the first total_max bytes of it (*cut: there
 * was more; the line cut there is marked truncated). */
static int each_line_fd(int fd, size_t line_max, procfile_line_fn fn, void *ctx, bool *cut)
{
	const size_t chunk_size = 64 * 1024;
	/* Guards against endless files (a path to /dev/zero). */
	const unsigned long long total_max = 1ULL << 30;
	unsigned long long total = 0;
	char *chunk = NULL, *line = NULL;
	size_t len = 0;
	bool trunc = false;
	int err = 0;

	*cut = false;
	if (line_max > total_max)
		return -EINVAL;
	chunk = malloc(chunk_size);
	line = malloc(line_max + 1);
	if (!chunk || !line) {
		err = -ENOMEM;
		goto out;
	}
	for (unsigned int eintr = 0;;) {
		ssize_t got = read(fd, chunk, chunk_size);

		if (got < 0) {
			if (errno == EINTR && ++eintr < 100)
				continue;
			err = -errno;
			goto out;
		}
		if (got == 0)
			break;
		if (total + (unsigned long long)got > total_max) {
			got = (ssize_t)(total_max - total);
			*cut = true;
		}
		total += (unsigned long long)got;
		const char *p = chunk, *end = chunk + got;

		while (p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			const char *pend = nl ? nl : end;
			size_t n = (size_t)(pend - p);

			if (n > line_max - len) {
				n = line_max - len;
				trunc = true;
			}
			memcpy(line + len, p, n);
			len += n;
			if (!nl)
				break;
			line[len] = '\0';
			err = fn(ctx, line, len, trunc);
			if (err)
				goto out;
			len = 0;
			trunc = false;
			p = nl + 1;
		}
		if (*cut)
			break;
	}
	/* A last line without '\n' (grepped dumps, truncated copies). */
	if (len || trunc) {
		line[len] = '\0';
		err = fn(ctx, line, len, trunc || *cut);
	}
out:
	free(chunk);
	free(line);
	return err;
}

int procfile_each_line(const char *file, size_t line_max, procfile_line_fn fn, void *ctx)
{
	bool cut;
	int fd, err;

	/* a path as given: not a tree's (no root to stay beneath), but
	 * still never a FIFO or a device */
	fd = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -errno;
	err = check_kind(fd, false, NULL, file);
	if (!err)
		err = each_line_fd(fd, line_max, fn, ctx, &cut);
	close(fd);
	if (!err && cut)
		note(NULL, file, "is larger than 1 GiB: only its first 1 GiB was read");
	return err;
}

int procfile_each_line_at(const char *root, const char *path, size_t line_max, procfile_line_fn fn,
			  void *ctx)
{
	bool cut;
	int fd = procfile_open(root, path, O_RDONLY), err;

	if (fd < 0)
		return fd;
	err = each_line_fd(fd, line_max, fn, ctx, &cut);
	close(fd);
	if (!err && cut)
		note(root, path, "is larger than 1 GiB: only its first 1 GiB was read");
	return err;
}
