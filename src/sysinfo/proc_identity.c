#include "sysinfo/proc_identity.h"
#include "sysinfo/proc_scan.h"
#include "sysinfo/procfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int dbt_proc_cgroup_parse(const char *text, size_t len, char *buf, size_t buflen)
{
	for (size_t i = 0; i < len;) {
		const char *line = text + i, *nl = memchr(line, '\n', len - i);
		size_t n = nl ? (size_t)(nl - line) : len - i;

		if (n >= 3 && !memcmp(line, "0::", 3)) {
			if (n - 3 >= buflen)
				return -ENAMETOOLONG;
			memcpy(buf, line + 3, n - 3);
			buf[n - 3] = '\0';
			return 0;
		}
		i += n + 1;
	}
	return -ENOENT;
}

int dbt_proc_identity_read(const char *root, int pid, struct dbt_proc_identity *out)
{
	char path[64], full[DBT_PROC_PATH_MAX + 64], *text = NULL;
	struct dbt_proc_cpu st;
	size_t len = 0;
	ssize_t n;
	int err;

	memset(out, 0, sizeof(*out));
	out->pid = pid;
	snprintf(path, sizeof(path), "proc/%d/stat", pid);
	err = procfile_slurp(root, path, 4096, &text, &len);
	if (!err)
		err = dbt_proc_stat_parse(text, len, &st);
	free(text);
	if (err)
		return err;
	out->ppid = st.ppid;
	snprintf(out->comm, sizeof(out->comm), "%s", st.comm);

	/* the link's text only: in a tree it may point anywhere, and it is
	 * never followed */
	snprintf(path, sizeof(path), "proc/%d/exe", pid);
	if (!procfile_path(full, sizeof(full), root, path)) {
		n = readlink(full, out->exe, sizeof(out->exe) - 1);
		out->exe[n > 0 ? n : 0] = '\0';
	}

	snprintf(path, sizeof(path), "proc/%d/cmdline", pid);
	if (!procfile_slurp(root, path, DBT_PROC_TITLE_MAX - 1, &text, &len)) {
		memcpy(out->title, text, len);   /* len < DBT_PROC_TITLE_MAX */
		out->title[len] = '\0';
		free(text);
	}

	snprintf(path, sizeof(path), "proc/%d/cgroup", pid);
	if (!procfile_slurp(root, path, 64 * 1024, &text, &len)) {
		if (dbt_proc_cgroup_parse(text, len, out->cgroup, sizeof(out->cgroup)))
			out->cgroup[0] = '\0';
		free(text);
	}
	return 0;
}
