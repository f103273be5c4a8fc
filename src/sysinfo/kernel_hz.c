#include "sysinfo/kernel_hz.h"
#include "sysinfo/procfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* A distribution's config is 250-300 KiB. */
#define KCONFIG_MAX (4u << 20)

long kernel_hz_parse(const char *text, size_t len)
{
	static const char key[] = "CONFIG_HZ=";
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t ll = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (ll > sizeof(key) - 1 && ll < sizeof(key) + 8 && !memcmp(p, key, sizeof(key) - 1)) {
			char num[16], *stop;
			long v;

			memcpy(num, p + sizeof(key) - 1, ll - (sizeof(key) - 1));
			num[ll - (sizeof(key) - 1)] = 0;
			v = strtol(num, &stop, 10);
			return *stop || v <= 0 ? -ENOENT : v;
		}
		p = nl ? nl + 1 : end;
	}
	return -ENOENT;
}

/* The whole of a gzip file, or NULL. */
static char *gunzip_file(const char *path, size_t *len)
{
	gzFile z = gzopen(path, "rb");
	size_t cap = 1u << 18, n = 0;
	char *buf;

	if (!z)
		return NULL;
	buf = malloc(cap);
	while (buf) {
		int r;

		if (n == cap) {
			char *nb = cap < KCONFIG_MAX ? realloc(buf, cap * 2) : NULL;

			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
		r = gzread(z, buf + n, (unsigned)(cap - n));
		if (r < 0) {
			free(buf);
			buf = NULL;
		} else if (r == 0) {
			break;
		} else {
			n += (size_t)r;
		}
	}
	gzclose(z);
	*len = n;
	return buf;
}

long kernel_hz_read(const char *root, const char *release)
{
	char rel[300], path[4096], *text = NULL;
	size_t len = 0;
	long hz = -ENOENT;

	if (release && release[0] && !strchr(release, '/')) {
		snprintf(rel, sizeof(rel), "/boot/config-%s", release);
		if (!procfile_slurp(root, rel, KCONFIG_MAX, &text, &len)) {
			hz = kernel_hz_parse(text, len);
			free(text);
			if (hz > 0)
				return hz;
		}
	}
	if (procfile_path(path, sizeof(path), root, "/proc/config.gz"))
		return -ENOENT;
	text = gunzip_file(path, &len);
	if (text) {
		hz = kernel_hz_parse(text, len);
		free(text);
	}
	return hz;
}
