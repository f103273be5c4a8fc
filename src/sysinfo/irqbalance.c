// SPDX-License-Identifier: GPL-2.0
#include "sysinfo/irqbalance.h"
#include "sysinfo/procfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysinfo/proc_scan.h"

#define COMM_FILE_MAX 64
#define CONFIG_FILE_MAX (64 * 1024)

struct find_ctx {
	const char *root;
	int pid;
};

static int match_comm(void *ctx, int pid)
{
	struct find_ctx *f = ctx;
	char rel[64], *buf;
	size_t len;
	bool hit;

	snprintf(rel, sizeof(rel), "proc/%d/comm", pid);
	if (procfile_slurp(f->root, rel, COMM_FILE_MAX, &buf, &len))
		return 0;	/* exited since readdir */
	hit = len >= 10 && !memcmp(buf, "irqbalance", 10) &&
	      (len == 10 || buf[10] == '\n');
	free(buf);
	if (!hit)
		return 0;
	f->pid = pid;
	return 1;
}

/* The value of KEY on one line, unquoted, into val; false if the line
 * does not set KEY. */
static bool line_value(const char *line, size_t len, const char *key,
		       char *val, size_t vlen)
{
	size_t k = strlen(key), i = 0, n;

	while (i < len && (line[i] == ' ' || line[i] == '\t'))
		i++;
	if (len - i >= 7 && !strncmp(line + i, "export ", 7))
		i += 7;
	if (len - i <= k || memcmp(line + i, key, k) || line[i + k] != '=')
		return false;
	i += k + 1;
	n = len - i;
	/* strip a trailing comment and blanks, then one pair of quotes */
	for (size_t j = 0; j < n; j++)
		if (line[i + j] == '#') {
			n = j;
			break;
		}
	while (n && (line[i + n - 1] == ' ' || line[i + n - 1] == '\t' ||
		     line[i + n - 1] == '\r'))
		n--;
	if (n >= 2 && (line[i] == '"' || line[i] == '\'') && line[i + n - 1] == line[i]) {
		i++;
		n -= 2;
	}
	if (n >= vlen)
		n = vlen - 1;
	memcpy(val, line + i, n);
	val[n] = '\0';
	return true;
}

void dbt_irqbalance_parse_config(const char *buf, size_t len, struct dbt_cpuset *banned)
{
	char list[512] = "", mask[512] = "", val[512];
	bool has_list = false, has_mask = false;
	const char *p = buf, *end = buf + len;

	dbt_cpuset_zero(banned);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		/* the last assignment wins, as when the shell sources it */
		if (line_value(p, n, "IRQBALANCE_BANNED_CPULIST", val, sizeof(val))) {
			snprintf(list, sizeof(list), "%s", val);
			has_list = true;
		} else if (line_value(p, n, "IRQBALANCE_BANNED_CPUS", val, sizeof(val))) {
			snprintf(mask, sizeof(mask), "%s", val);
			has_mask = true;
		}
		p += n + 1;
	}
	/* irqbalance prefers the list when both are set */
	if (has_list && !dbt_cpuset_parse_list(banned, list))
		return;
	if (has_mask && !dbt_cpuset_parse_mask(banned, mask))
		return;
	dbt_cpuset_zero(banned);
}

int dbt_irqbalance_read(const char *root, struct dbt_irqbalance *out)
{
	static const char *const configs[] = { "etc/sysconfig/irqbalance",
					       "etc/default/irqbalance" };
	struct find_ctx f = { .root = root };
	int rc;

	memset(out, 0, sizeof(*out));
	rc = dbt_proc_for_each_pid(root, match_comm, &f);
	if (rc < 0)
		return rc;
	out->running = f.pid > 0;
	out->pid = f.pid;
	for (size_t i = 0; i < sizeof(configs) / sizeof(configs[0]); i++) {
		char *buf;
		size_t len;

		if (procfile_slurp(root, configs[i], CONFIG_FILE_MAX, &buf, &len))
			continue;
		dbt_irqbalance_parse_config(buf, len, &out->banned);
		free(buf);
		out->has_config = true;
		snprintf(out->config_path, sizeof(out->config_path), "%s", configs[i]);
		break;
	}
	return 0;
}
