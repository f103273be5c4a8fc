// SPDX-License-Identifier: GPL-2.0
#include "sysinfo/thp.h"
#include "sysinfo/procfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sysinfo/cpuset.h"

/* The kernel prints a handful of words; anything large is not its file. */
#define THP_FILE_MAX 4096

int dbt_thp_parse_choice(const char *buf, size_t n, char *out, size_t len)
{
	const char *open = memchr(buf, '[', n), *close;
	size_t w;

	if (len)
		out[0] = '\0';
	if (!open)
		return -EINVAL;
	close = memchr(open, ']', n - (size_t)(open - buf));
	if (!close || close == open + 1)
		return -EINVAL;
	w = (size_t)(close - open - 1);
	if (w >= len)
		return -ENAMETOOLONG;
	memcpy(out, open + 1, w);
	out[w] = '\0';
	return 0;
}

static int read_choice(const char *root, const char *rel, char *out, size_t len,
		       bool *has)
{
	char *buf;
	size_t n;
	int err;

	*has = false;
	err = procfile_slurp(root, rel, THP_FILE_MAX, &buf, &n);
	if (err == -ENOENT || err == -ENOTDIR)
		return 0;
	if (err)
		return err;
	err = dbt_thp_parse_choice(buf, n, out, len);
	free(buf);
	*has = err == 0;
	/* A file without brackets says nothing we can judge; not an error. */
	return err == -EINVAL ? 0 : err;
}

int dbt_thp_read(const char *root, struct dbt_thp *out)
{
	int err;

	memset(out, 0, sizeof(*out));
	err = read_choice(root, "sys/kernel/mm/transparent_hugepage/enabled",
			  out->enabled, sizeof(out->enabled), &out->has_enabled);
	if (err)
		return err;
	return read_choice(root, "sys/kernel/mm/transparent_hugepage/defrag",
			   out->defrag, sizeof(out->defrag), &out->has_defrag);
}
