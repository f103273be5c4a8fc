#define _GNU_SOURCE
#include "sysinfo/cgroup_path.h"
#include "sysinfo/procfile.h"
#include "core/vec.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The cgroup v2 mount: /sys/fs/cgroup, or its unified/ on a host that
 * mounts v1 controllers there (systemd's hybrid layout). */
static const char *v2_mount(const char *root)
{
	FILE *f;

	if (!procfile_fopen(root, "sys/fs/cgroup/cgroup.controllers", &f)) {
		fclose(f);
		return "sys/fs/cgroup";
	}
	return "sys/fs/cgroup/unified";
}

/* Deepest level searched for a unit name: systemd nests user sessions
 * and containers a few levels down. */
#define SEARCH_DEPTH 8

static int is_dir(const char *root, const char *mount, const char *rel)
{
	char path[4096];
	DIR *d;

	if (snprintf(path, sizeof(path), "%s%s", mount, rel) >= (int)sizeof(path))
		return 0;
	if (procfile_opendir(root, path, &d))
		return 0;
	closedir(d);
	return 1;
}

/* Breadth first below "/" for a directory named name; its path in out. */
static int search(const char *root, const char *mount, const char *name, char *out, size_t outlen)
{
	char **level = NULL, **next = NULL;
	size_t n = 0, cap = 0, nn = 0, ncap = 0;
	int err = -ENOENT;

	if (VEC_RESERVE(level, cap, 1) || !(level[0] = strdup("")))
		return -ENOMEM;
	n = 1;
	for (int depth = 0; depth < SEARCH_DEPTH && n && err == -ENOENT; depth++) {
		for (size_t i = 0; i < n && err == -ENOENT; i++) {
			char path[4096];
			struct dirent *de;
			DIR *d;

			snprintf(path, sizeof(path), "%s%s", mount, level[i]);
			if (procfile_opendir(root, path, &d))
				continue;
			while ((de = readdir(d)) && err == -ENOENT) {
				char *child;

				if (de->d_type != DT_DIR || de->d_name[0] == '.')
					continue;
				if (asprintf(&child, "%s/%s", level[i], de->d_name) < 0) {
					err = -ENOMEM;
					break;
				}
				if (!strcmp(de->d_name, name)) {
					err = snprintf(out, outlen, "%s", child) >= (int)outlen ? -ENAMETOOLONG : 0;
					free(child);
				} else if (VEC_RESERVE(next, ncap, nn + 1)) {
					free(child);
					err = -ENOMEM;
				} else {
					next[nn++] = child;
				}
			}
			closedir(d);
		}
		for (size_t i = 0; i < n; i++)
			free(level[i]);
		free(level);
		level = next;
		n = nn;
		cap = ncap;
		next = NULL;
		nn = ncap = 0;
	}
	for (size_t i = 0; i < n; i++)
		free(level[i]);
	free(level);
	return err;
}

int dbt_cgroup_resolve(const char *root, const char *arg, char *out, size_t outlen)
{
	const char *mount = v2_mount(root);
	char rel[4096];
	size_t n;

	for (int i = 0; i < 2; i++) {
		/* "/sys/fs/cgroup/unified/A" then "/sys/fs/cgroup/A" */
		const char *m = i ? "/sys/fs/cgroup" : "/sys/fs/cgroup/unified";
		size_t ml = strlen(m);

		if (!strncmp(arg, m, ml) && (arg[ml] == '/' || !arg[ml])) {
			arg += ml;
			break;
		}
	}
	if (snprintf(rel, sizeof(rel), "%s%s", arg[0] == '/' ? "" : "/", arg) >= (int)sizeof(rel))
		return -ENAMETOOLONG;
	for (n = strlen(rel); n > 1 && rel[n - 1] == '/';)
		rel[--n] = '\0';
	if (!strstr(rel, "/..") && is_dir(root, mount, rel)) {
		if (snprintf(out, outlen, "%s", rel) >= (int)outlen)
			return -ENAMETOOLONG;
		return 0;
	}
	if (strchr(arg, '/') || !arg[0] || !strcmp(arg, ".") || !strcmp(arg, ".."))
		return -ENOENT;
	return search(root, mount, arg, out, outlen);
}
