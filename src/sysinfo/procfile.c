#include "sysinfo/procfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int procfile_path(char *buf, size_t len, const char *root, const char *path)
{
	int n;

	if (!root || !strcmp(root, "/"))
		root = "";
	n = snprintf(buf, len, "%s%s", root, path);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return 0;
}

int procfile_slurp(const char *root, const char *path, size_t max, char **out)
{
	char full[4096];
	size_t cap = 4096, used = 0;
	char *buf;
	int fd, err;

	err = procfile_path(full, sizeof(full), root, path);
	if (err)
		return err;
	fd = open(full, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	buf = malloc(cap);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		ssize_t n;

		if (used + 1 >= cap) {
			char *bigger;

			if (cap >= max) {
				err = -EFBIG;
				break;
			}
			cap = cap * 2 > max ? max : cap * 2;
			bigger = realloc(buf, cap);
			if (!bigger) {
				err = -ENOMEM;
				break;
			}
			buf = bigger;
		}
		n = read(fd, buf + used, cap - used - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			break;
		}
		if (n == 0)
			break;
		used += (size_t)n;
	}
	close(fd);
	if (err) {
		free(buf);
		return err;
	}
	buf[used] = 0;
	*out = buf;
	return 0;
}

int procfile_line(const char *root, const char *path, char *buf, size_t len)
{
	char full[4096];
	FILE *f;
	int err;

	if (!len)
		return -EINVAL;
	err = procfile_path(full, sizeof(full), root, path);
	if (err)
		return err;
	f = fopen(full, "re");
	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f)) {
		buf[0] = 0;
		err = ferror(f) ? -EIO : 0;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return err;
}

int procfile_pid_exists(const char *root, int pid)
{
	char rel[64], full[4096];

	snprintf(rel, sizeof(rel), "/proc/%d", pid);
	if (procfile_path(full, sizeof(full), root, rel))
		return 0;
	return access(full, F_OK) == 0;
}
