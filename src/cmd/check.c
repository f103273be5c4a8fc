/* `dbtrace check`: the static audit. Reads the host's settings (no eBPF),
 * judges them with the static rules and prints the findings; exit 0 when
 * clean, 1 when a warning or worse was found, 2 on bad input. With --root
 * every file-based reading comes from a copied tree, and the qdiscs from
 * ROOT/netlink/qdisc.bin (+ class.bin): saved rtnetlink dump replies. */
#include "cmd/cmd.h"
#include "core/log.h"
#include "findings/static_checks.h"
#include "render/check_report.h"
#include "session/proc_groups.h"
#include "sysinfo/netdev.h"
#include "sysinfo/procfile.h"
#include "sysinfo/proc_scan.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define CHECK_TARGETS 3
/* Saved netlink replies of a fixture tree are a few KiB. */
#define NETLINK_FILE_MAX (4 << 20)
/* Busy-process sampling on the live system: long enough to see a tenth of
 * a core at USER_HZ 100, short enough to keep the audit under a second. */
#define SAMPLE_NS 200000000L

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Online CPUs, else the CPU columns of /proc/interrupts (a copied tree
 * may lack sysfs' cpu directory). */
static bool read_online(const char *root, struct dbt_cpuset *set)
{
	struct dbt_interrupts it = { 0 };
	bool ok;

	if (!dbt_cpuset_read_list(root, "sys/devices/system/cpu/online", set))
		return true;
	dbt_cpuset_zero(set);
	ok = !dbt_interrupts_read(root, &it) && it.has_header && it.ncols;
	for (unsigned int i = 0; ok && i < it.ncols; i++)
		dbt_cpuset_set(set, it.col_cpu[i]);
	dbt_interrupts_free(&it);
	return ok;
}

/* Live system: the kernel's dump. Copied tree: its saved replies, qdiscs
 * before classes as qdisc_parse_reply() wants them. */
static int read_qdiscs(const char *root, bool live, struct qdisc_table *t)
{
	static const char *const files[] = { "netlink/qdisc.bin", "netlink/class.bin" };

	if (live)
		return qdisc_dump(t);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *buf;
		size_t len;
		int rc = procfile_slurp(root, files[i], NETLINK_FILE_MAX, &buf, &len);

		if (rc == -ENOENT && i > 0)
			continue;
		if (rc)
			return rc;
		rc = qdisc_parse_reply(buf, len, t);
		free(buf);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* The busiest groups of processes (-p: the groups of those), keyed by
 * their leaders. */
static int pick_targets(const struct dbt_config *cfg, const char *root, bool live,
			const struct proc_groups *g, int *pids)
{
	struct dbt_proc_cpu *a = NULL, *b = NULL;
	size_t na = 0, nb = 0, n = 0;
	long hz = sysconf(_SC_CLK_TCK);
	uint64_t min_ticks = 1;

	if (cfg->n_pids) {
		int k = 0;

		for (int i = 0; i < cfg->n_pids && i < DBT_MAX_PIDS; i++) {
			int key = proc_groups_key(g, (int)cfg->pids[i]), dup = 0;

			for (int j = 0; j < k; j++)
				dup |= pids[j] == key;
			if (!dup)
				pids[k++] = key;
		}
		return k;
	}
	if (dbt_proc_cpu_list(root, &a, &na))
		return 0;
	proc_groups_fold_cpu(g, a, &na);
	if (live) {
		struct timespec ts = { 0, SAMPLE_NS };

		nanosleep(&ts, NULL);
		if (dbt_proc_cpu_list(root, &b, &nb)) {
			free(a);
			return 0;
		}
		proc_groups_fold_cpu(g, b, &nb);
		/* a tenth of a core over the sample */
		min_ticks = (uint64_t)fmax(1.0, (double)(hz > 0 ? hz : 100) * SAMPLE_NS / 1e9 / 10);
		/* dbtrace itself is not a target */
		for (size_t i = 0; i < nb; i++)
			if (b[i].pid == getpid())
				b[i].ticks = 0;
		n = dbt_proc_top_cpu(a, na, b, nb, min_ticks, pids, CHECK_TARGETS);
	} else {
		n = dbt_proc_top_cpu(NULL, 0, a, na, min_ticks, pids, CHECK_TARGETS);
	}
	free(a);
	free(b);
	return (int)n;
}

int cmd_check(const struct dbt_config *cfg)
{
	const char *root = cfg->root ? cfg->root : "/";
	bool live = !cfg->root;
	struct static_input in = { 0 };
	struct dbt_nic_layout nics = { 0 };
	struct qdisc_table qd = { 0 };
	struct finding_list found = { 0 };
	struct misbind_target targets[DBT_MAX_PIDS];
	struct check_report rep = { 0 };
	struct proc_groups groups = { 0 };
	int pids[DBT_MAX_PIDS], n_pids, err, worst;
	long *mbps = NULL;
	double t0 = now_ms();
	char eb[96];
	struct stat st;

	if (!live && (stat(root, &st) || !S_ISDIR(st.st_mode))) {
		log_err("--root %s: not a directory", root);
		return DBT_EXIT_USAGE;
	}
	clock_env_read(cfg->root, &in.clock);
	in.have_online = read_online(cfg->root, &in.online);
	err = dbt_nic_layout_read(cfg->root, &nics);
	if (err)
		log_debug("network devices not read: %s", log_errno_text(err, eb, sizeof(eb)));
	else
		in.nics = &nics;
	if (in.nics && nics.n) {
		mbps = calloc(nics.n, sizeof(*mbps));
		for (size_t i = 0; mbps && i < nics.n; i++)
			mbps[i] = netdev_speed_mbps(cfg->root, nics.nics[i].dev);
		in.link_mbps = mbps;
	}
	err = read_qdiscs(cfg->root, live, &qd);
	if (err)
		log_debug("qdiscs not read: %s", log_errno_text(err, eb, sizeof(eb)));
	else
		in.qdiscs = &qd;
	in.have_irqbalance = !dbt_irqbalance_read(cfg->root, &in.irqbalance);
	in.have_cpufreq = !dbt_cpufreq_read(cfg->root, &in.cpufreq);
	in.have_thp = !dbt_thp_read(cfg->root, &in.thp);

	groups.by = cfg->group_by;
	err = cfg->group_by != PROC_GROUP_PID ? proc_groups_scan(&groups, cfg->root) : 0;
	if (err)
		log_debug("processes not grouped: %s", log_errno_text(err, eb, sizeof(eb)));
	n_pids = pick_targets(cfg, cfg->root, live, &groups, pids);
	for (int i = 0; i < n_pids; i++) {
		struct dbt_task_cpus tc;
		struct misbind_target *t = &targets[in.n_targets];

		if (proc_groups_task_cpus(&groups, cfg->root, pids[i], &tc))
			continue;	/* exited meanwhile */
		memset(t, 0, sizeof(*t));
		t->pid = pids[i];
		snprintf(t->comm, sizeof(t->comm), "%s", tc.comm);
		t->cpus = tc.allowed;
		t->n_threads = tc.n_threads;
		t->n_differ = tc.n_differ;
		t->oncpu_pct = NAN;
		in.n_targets++;
	}
	in.targets = targets;

	err = static_checks_run(&in, &found);
	if (err) {
		log_err("check failed: %s", log_errno_text(err, eb, sizeof(eb)));
		worst = -2;
	} else {
		rep.root = root;
		rep.in = &in;
		rep.findings = &found;
		rep.elapsed_ms = now_ms() - t0;
		err = cfg->json ? check_report_json(stdout, &rep) : check_report_text(stdout, &rep);
		worst = err ? -2 : static_checks_worst(&found);
		fflush(stdout);
	}
	findings_free(&found);
	proc_groups_free(&groups);
	qdisc_table_free(&qd);
	dbt_nic_layout_free(&nics);
	free(mbps);
	if (worst == -2)
		return DBT_EXIT_RUNTIME;
	return worst >= SEV_WARNING ? DBT_EXIT_RUNTIME : DBT_EXIT_OK;
}
