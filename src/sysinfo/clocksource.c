// SPDX-License-Identifier: GPL-2.0
#include "sysinfo/clocksource.h"
#include "sysinfo/procfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>

#include "sysinfo/cpuset.h"

#define CS_DIR "sys/devices/system/clocksource/clocksource0/"
/* Both files are one short line; anything bigger is not sysfs. */
#define CS_FILE_MAX 4096
#define KLOG_LINE_MAX 4096

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
	       c == '\f';
}

/* Copies at most size-1 bytes of [p, p+n) and always terminates. */
static void copy_name(char *dst, size_t size, const char *p, size_t n)
{
	if (n >= size)
		n = size - 1;
	memcpy(dst, p, n);
	dst[n] = '\0';
}

static int read_current(const char *root, struct dbt_clocksource *cs)
{
	char *buf;
	size_t len;
	int err;

	err = procfile_slurp(root, CS_DIR "current_clocksource", CS_FILE_MAX,
			     &buf, &len);
	if (err)
		return err;
	const char *p = buf, *end = buf + len;

	while (p < end && is_space(*p))
		p++;
	const char *q = p;

	while (q < end && !is_space(*q) && *q != '\0')
		q++;
	copy_name(cs->current, sizeof(cs->current), p, (size_t)(q - p));
	free(buf);
	return 0;
}

static void read_available(const char *root, struct dbt_clocksource *cs)
{
	char *buf;
	size_t len;

	if (procfile_slurp(root, CS_DIR "available_clocksource", CS_FILE_MAX,
			   &buf, &len))
		return;
	cs->has_available = true;
	const char *p = buf, *end = buf + len;

	while (p < end && cs->n_available < DBT_CLOCKSOURCE_AVAIL_MAX) {
		while (p < end && (is_space(*p) || *p == '\0'))
			p++;
		const char *q = p;

		while (q < end && !is_space(*q) && *q != '\0')
			q++;
		if (q == p)
			break;
		copy_name(cs->available[cs->n_available],
			  sizeof(cs->available[0]), p, (size_t)(q - p));
		cs->n_available++;
		p = q;
	}
	free(buf);
}

int dbt_clocksource_read(const char *root, struct dbt_clocksource *cs)
{
	int err;

	memset(cs, 0, sizeof(*cs));
	err = read_current(root, cs);
	if (err)
		return err;
	/* Old or stripped-down kernels may lack it; current alone is enough. */
	read_available(root, cs);
	return 0;
}

bool dbt_clocksource_is_available(const struct dbt_clocksource *cs,
				  const char *name)
{
	for (unsigned int i = 0;
	     i < cs->n_available && i < DBT_CLOCKSOURCE_AVAIL_MAX; i++)
		if (strcmp(cs->available[i], name) == 0)
			return true;
	return false;
}

static const struct {
	const char *name;
	enum dbt_vdso vdso;
	const char *why;
} vdso_table[] = {
	{ "tsc", DBT_VDSO_YES,
	  "tsc is read with rdtsc inside the vDSO" },
	{ "kvm-clock", DBT_VDSO_YES,
	  "kvm-clock is read from the pvclock page inside the vDSO "
	  "(when the host sets the stable-TSC flag, as current KVM does)" },
	{ "hyperv_clocksource_tsc_page", DBT_VDSO_YES,
	  "the Hyper-V TSC page is read inside the vDSO" },
	{ "arch_sys_counter", DBT_VDSO_YES,
	  "the arm64 generic timer counter is read inside the vDSO" },
	{ "hpet", DBT_VDSO_NO,
	  "hpet has no vDSO path on current kernels (old ones mapped it, "
	  "at the cost of a slow MMIO read per call): each "
	  "clock_gettime/gettimeofday is a system call" },
	{ "acpi_pm", DBT_VDSO_NO,
	  "acpi_pm is an I/O-port timer the vDSO cannot read: each "
	  "clock_gettime/gettimeofday is a system call" },
	{ "jiffies", DBT_VDSO_NO,
	  "jiffies is a tick counter with no vDSO path: each "
	  "clock_gettime/gettimeofday is a system call" },
	{ "refined-jiffies", DBT_VDSO_NO,
	  "refined-jiffies is a tick counter with no vDSO path: each "
	  "clock_gettime/gettimeofday is a system call" },
	{ "xen", DBT_VDSO_UNRELIABLE,
	  "xen uses the vDSO only if the hypervisor marks its TSC stable, "
	  "which dbtrace cannot see from the guest: treat calls as "
	  "possibly real system calls" },
};

enum dbt_vdso dbt_clocksource_vdso(const char *name, const char **why)
{
	if (why)
		*why = "no vDSO verdict for this clocksource";
	if (!name || !*name) {
		if (why)
			*why = "clocksource unknown";
		return DBT_VDSO_UNKNOWN;
	}
	for (size_t i = 0; i < sizeof(vdso_table) / sizeof(vdso_table[0]); i++) {
		if (strcmp(name, vdso_table[i].name) == 0) {
			if (why)
				*why = vdso_table[i].why;
			return vdso_table[i].vdso;
		}
	}
	return DBT_VDSO_UNKNOWN;
}

bool dbt_sched_clock_per_cpu(const struct dbt_clocksource *cs,
			     const struct dbt_clocksource_log *log)
{
	static const char *const stable[] = { "tsc", "kvm-clock", "xen", "hyperv_clocksource_tsc_page",
					      "hyperv_clocksource_msr", "arch_sys_counter" };
	static const char *const after_tsc[] = { "hpet", "acpi_pm", "jiffies", "refined-jiffies" };

	for (size_t i = 0; i < sizeof(stable) / sizeof(stable[0]); i++)
		if (!strcmp(cs->current, stable[i]))
			return false;
	for (size_t i = 0; i < sizeof(after_tsc) / sizeof(after_tsc[0]); i++)
		if (!strcmp(cs->current, after_tsc[i]))
			return true;
	return log && log->n_unstable > 0;
}

const char *dbt_vdso_str(enum dbt_vdso v)
{
	switch (v) {
	case DBT_VDSO_YES:
		return "yes";
	case DBT_VDSO_NO:
		return "no";
	case DBT_VDSO_UNRELIABLE:
		return "unreliable";
	case DBT_VDSO_UNKNOWN:
		break;
	}
	return "unknown";
}

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* Case-insensitive search in a length-bounded, unterminated line. */
static const char *find(const char *hay, size_t n, const char *needle)
{
	size_t m = strlen(needle);

	if (m > n)
		return NULL;
	for (size_t i = 0; i + m <= n; i++) {
		size_t j = 0;

		while (j < m && lower(hay[i + j]) == lower(needle[j]))
			j++;
		if (j == m)
			return hay + i;
	}
	return NULL;
}

struct scan_state {
	struct dbt_clocksource_log *log;
	/* The watchdog line for tsc is echoed by tsc's own "Marking TSC
	 * unstable due to clocksource watchdog": one event, two lines. */
	bool tsc_watchdog_pending;
};

static void note_unstable(struct scan_state *st, const char *line, size_t len)
{
	struct dbt_clocksource_log *log = st->log;

	if (log->n_unstable == 0)
		copy_name(log->first_unstable, sizeof(log->first_unstable),
			  line, len);
	if (log->n_unstable < ~0u)
		log->n_unstable++;
}

static int scan_line(void *ctx, const char *line, size_t len, bool truncated)
{
	struct scan_state *st = ctx;
	struct dbt_clocksource_log *log = st->log;
	const char *p, *end = line + len;

	log->n_lines++;
	if (find(line, len, "Marking TSC unstable")) {
		bool echo = st->tsc_watchdog_pending &&
			    find(line, len, "clocksource watchdog");

		st->tsc_watchdog_pending = false;
		if (!echo)
			note_unstable(st, line, len);
		return 0;
	}
	/*
	 * "Marking clocksource 'tsc' as unstable" (4.x+) and
	 * "Clocksource tsc unstable (delta = ...)" (3.x and older).
	 */
	p = find(line, len, "clocksource");
	if (p && find(p, (size_t)(end - p), "unstable")) {
		st->tsc_watchdog_pending = find(p, (size_t)(end - p), "'tsc'") ||
					   find(p, (size_t)(end - p), " tsc ");
		note_unstable(st, line, len);
		return 0;
	}
	/* "Switched to" on current kernels, "Switching to" on old ones. */
	static const char *const sw[] = { "Switched to clocksource ",
					  "Switching to clocksource " };
	for (size_t i = 0; i < 2; i++) {
		p = find(line, len, sw[i]);
		if (!p)
			continue;
		const char *name = p + strlen(sw[i]), *q = name;

		while (q < end && !is_space(*q) && *q != '\0')
			q++;
		/* A name running into the line cut may itself be cut. */
		if (q == end && truncated)
			break;
		if (q > name) {
			copy_name(log->last_switch, sizeof(log->last_switch),
				  name, (size_t)(q - name));
			if (log->n_switches < ~0u)
				log->n_switches++;
		}
		break;
	}
	return 0;
}

void dbt_clocksource_scan_log_buf(const char *buf, size_t len,
				  struct dbt_clocksource_log *log)
{
	struct scan_state st = { .log = log };

	memset(log, 0, sizeof(*log));
	procfile_each_line_buf(buf, len, KLOG_LINE_MAX, scan_line, &st);
}

int dbt_clocksource_scan_log(const char *path, struct dbt_clocksource_log *log)
{
	struct scan_state st = { .log = log };

	memset(log, 0, sizeof(*log));
	return procfile_each_line(path, KLOG_LINE_MAX, scan_line, &st);
}

int dbt_clocksource_scan_klog(struct dbt_clocksource_log *log)
{
	/* SYSLOG_ACTION_SIZE_BUFFER and SYSLOG_ACTION_READ_ALL */
	int size = klogctl(10, NULL, 0), n;
	char *buf;

	memset(log, 0, sizeof(*log));
	if (size < 0)
		return -errno;
	if (size == 0)
		return 0;
	buf = malloc((size_t)size);
	if (!buf)
		return -ENOMEM;
	n = klogctl(3, buf, size);
	if (n < 0) {
		int err = -errno;

		free(buf);
		return err;
	}
	dbt_clocksource_scan_log_buf(buf, (size_t)n, log);
	free(buf);
	return 0;
}
