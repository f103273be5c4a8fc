// SPDX-License-Identifier: GPL-2.0
#include "sysinfo/tuned.h"
#include "sysinfo/procfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sysinfo/cpuset.h"

/* tuned writes a line of profile names; a big file is not one of its. */
#define TUNED_FILE_MAX (64 * 1024)

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
	       c == '\f';
}

int dbt_tuned_read(const char *root, struct dbt_tuned *t)
{
	char *buf;
	size_t len;
	int err;

	memset(t, 0, sizeof(*t));
	err = procfile_slurp(root, "etc/tuned/active_profile", TUNED_FILE_MAX,
			     &buf, &len);
	if (err == -ENOENT || err == -ENOTDIR)
		return 0;
	if (err)
		return err;
	t->file_present = true;
	/* Only the first line counts; an embedded NUL ends the text too. */
	const char *p = buf, *end = buf + strnlen(buf, len);
	const char *nl = memchr(p, '\n', (size_t)(end - p));

	if (nl)
		end = nl;
	while (p < end && is_space(*p))
		p++;
	while (end > p && is_space(end[-1]))
		end--;
	size_t n = (size_t)(end - p);

	if (n >= sizeof(t->profile))
		n = sizeof(t->profile) - 1;
	memcpy(t->profile, p, n);
	t->profile[n] = '\0';
	free(buf);
	return 0;
}

bool dbt_tuned_has(const struct dbt_tuned *t, const char *name)
{
	size_t m = name ? strlen(name) : 0;
	const char *p = t->profile;
	const char *end = p + strnlen(p, sizeof(t->profile));

	if (!m)
		return false;
	while (p < end) {
		while (p < end && is_space(*p))
			p++;
		const char *q = p;

		while (q < end && !is_space(*q))
			q++;
		if ((size_t)(q - p) == m && memcmp(p, name, m) == 0)
			return true;
		p = q;
	}
	return false;
}
