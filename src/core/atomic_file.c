#define _GNU_SOURCE
#include "core/atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int fail(char *err, size_t len, const char *what, const char *path, int e)
{
	snprintf(err, len, "cannot write %s: %s (%s)", path, strerror(e), what);
	return -e;
}

int atomic_file_open(struct atomic_file *af, const char *path, char *err, size_t errlen)
{
	char dir[4096], copy[4096];
	int fd;

	memset(af, 0, sizeof(*af));
	if (strlen(path) >= sizeof(af->path) - 16) {
		snprintf(err, errlen, "output path too long");
		return -ENAMETOOLONG;
	}
	snprintf(af->path, sizeof(af->path), "%s", path);
	snprintf(copy, sizeof(copy), "%s", path);
	snprintf(dir, sizeof(dir), "%s", dirname(copy));
	fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR)) {
		/* file systems without O_TMPFILE: a hidden name, removed on abort */
		int n;

		snprintf(copy, sizeof(copy), "%s", path);
		/* mkostemp() fills in the six X */
		n = snprintf(af->tmp, sizeof(af->tmp), "%.2000s/.%.2000s.XXXXXX", dir, basename(copy));
		if (n < 0 || (size_t)n >= sizeof(af->tmp)) {
			snprintf(err, errlen, "output path too long");
			return -ENAMETOOLONG;
		}
		fd = mkostemp(af->tmp, O_CLOEXEC);
		af->named_tmp = fd >= 0;
	}
	if (fd < 0)
		return fail(err, errlen, "cannot create a file in its directory", path, errno);
	fchmod(fd, 0644);
	af->f = fdopen(fd, "w");
	if (!af->f) {
		int e = errno;

		close(fd);
		if (af->named_tmp)
			unlink(af->tmp);
		return fail(err, errlen, "fdopen", path, e);
	}
	return 0;
}

static int publish(struct atomic_file *af)
{
	char link_name[sizeof(af->path) + 32], fdpath[64];
	int n;

	if (af->named_tmp) {
		if (rename(af->tmp, af->path))
			return -errno;
		af->named_tmp = false;
		return 0;
	}
	/* an O_TMPFILE has no name: link it under a temporary one, then
	 * rename over the target so readers never see a half state */
	n = snprintf(link_name, sizeof(link_name), "%s.tmp.%d", af->path, (int)getpid());
	if (n < 0 || (size_t)n >= sizeof(link_name))
		return -ENAMETOOLONG;
	snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", fileno(af->f));
	unlink(link_name);
	if (linkat(AT_FDCWD, fdpath, AT_FDCWD, link_name, AT_SYMLINK_FOLLOW))
		return -errno;
	if (rename(link_name, af->path)) {
		int e = -errno;

		unlink(link_name);
		return e;
	}
	return 0;
}

int atomic_file_commit(struct atomic_file *af)
{
	int rc;

	if (fflush(af->f))
		rc = -errno;
	else if (ferror(af->f))
		rc = -EIO;
	else if (fsync(fileno(af->f)))
		rc = -errno;
	else
		rc = publish(af);
	if (rc) {
		atomic_file_abort(af);
		return rc;
	}
	/* the data is on disk (fsync): closing cannot lose it */
	fclose(af->f);
	af->f = NULL;
	return 0;
}

void atomic_file_abort(struct atomic_file *af)
{
	if (af->f)
		fclose(af->f);
	af->f = NULL;
	if (af->named_tmp)
		unlink(af->tmp);
	af->named_tmp = false;
}
