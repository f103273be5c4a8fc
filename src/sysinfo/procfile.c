#include "sysinfo/procfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

int procfile_open(const char *root, const char *path, int flags)
{
	char full[PATH_MAX];
	int fd, err;

	err = procfile_path(full, sizeof(full), root, path);
	if (err)
		return err;
	fd = open(full, flags | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
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

/* Reads an open file to EOF: at most max bytes, else -EFBIG. */
static int read_all(int fd, size_t max, char **out, size_t *out_len)
{
	/* Room for max bytes, one more to tell "exactly max" from "too big",
	 * and the NUL. Not core/vec.h: this buffer grows by doubling too, but
	 * stops at hard rather than overshooting it, and starts at a page
	 * since nearly every read wants one. */
	size_t hard = max + 2, cap = 4096, len = 0;
	char *buf;

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
			free(buf);
			return -EFBIG;
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
	int fd, err;

	*out = NULL;
	if (len)
		*len = 0;
	fd = procfile_open(root, path, O_RDONLY);
	if (fd < 0)
		return fd;
	err = read_all(fd, max, out, &n);
	close(fd);
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
	int fd = procfile_open(root, path, O_RDONLY | O_DIRECTORY);

	*out = NULL;
	if (fd < 0)
		return fd;
	*out = fdopendir(fd);
	return wrapped(fd, *out);
}

int procfile_link_name(const char *root, const char *path, char *buf, size_t len)
{
	char full[PATH_MAX], link[PATH_MAX];
	const char *base;
	ssize_t n;
	int err;

	err = procfile_path(full, sizeof(full), root, path);
	if (err)
		return err;
	n = readlink(full, link, sizeof(link) - 1);
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

	snprintf(rel, sizeof(rel), "/proc/%d", pid);
	if (procfile_path(full, sizeof(full), root, rel))
		return 0;
	return access(full, F_OK) == 0;
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

int procfile_each_line(const char *file, size_t line_max, procfile_line_fn fn, void *ctx)
{
	const size_t chunk_size = 64 * 1024;
	/* Guards against endless files (a path to /dev/zero, a FIFO). */
	const unsigned long long total_max = 1ULL << 30;
	unsigned long long total = 0;
	char *chunk = NULL, *line = NULL;
	size_t len = 0;
	bool trunc = false;
	int fd, err = 0;

	if (line_max > total_max)
		return -EINVAL;
	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
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
		total += (unsigned long long)got;
		if (total > total_max) {
			err = -EFBIG;
			goto out;
		}
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
	}
	/* A last line without '\n' (grepped dumps, truncated copies). */
	if (len || trunc) {
		line[len] = '\0';
		err = fn(ctx, line, len, trunc);
	}
out:
	free(chunk);
	free(line);
	close(fd);
	return err;
}
