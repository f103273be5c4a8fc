/* Command-line parsing with argp. argp's own error printing and exits are
 * switched off: every error becomes one line in `err` and -EINVAL, so the
 * caller decides the exit code and the tests can exercise each case. */
#include "cli/options.h"

#include <argp.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SECONDS 86400.0
/* record's own options, numbered apart from the list below */
enum { OPT_REPORT = 0x200 };

enum { OPT_BATCH = 0x100, OPT_SORT, OPT_VIEW, OPT_COMM, OPT_CLASS, OPT_RUNQ,
       OPT_SAMPLE_HZ, OPT_CLOCK_PCT, OPT_CLOCK_SYS, OPT_PORT, OPT_JSON, OPT_ROOT,
       OPT_LISTEN, OPT_TOP_N, OPT_FAMILIES, OPT_GROUP_BY, OPT_CGROUP,
       OPT_FUTEX_PCT, OPT_DISK_PCT, OPT_NET_WAIT_PCT, OPT_ATTACH, OPT_ALL, OPT_BTF, OPT_NETNS };


/* The one description of every option: the parser reads it, and argp
 * formats it for --help (dbt_usage). */
static const struct argp_option options[] = {
	{ "interval", 'i', "SECONDS", 0, "refresh/sampling interval (default 1)", 0 },
	{ "duration", 'd', "SECONDS", 0, "stop after this long (default: until interrupted)", 0 },
	{ "pid", 'p', "PID", 0, "target process (repeatable)", 0 },
	{ "output", 'o', "FILE", 0, "capture, record: output file (default "
	  "dbtrace-YYYYmmdd-HHMMSS.json; capture: '-' for stdout); report: the HTML file "
	  "(default: the capture's name, .html)", 0 },
	{ "report", OPT_REPORT, "FILE.html", 0, "record: also write the HTML report of the capture", 0 },
	{ "verbose", 'v', NULL, 0, "show libbpf's messages and probe details", 0 },
	{ "batch", OPT_BATCH, NULL, 0, "top: plain-text tables, one per interval", 0 },
	{ "sort", OPT_SORT, "KEY", 0, "top: initial sort column key", 0 },
	{ "view", OPT_VIEW, "VIEW", 0, "top: start in the cpus (default), classes, time or net view", 0 },
	{ "all", OPT_ALL, NULL, 0, "top, report: a row for every thread class; by default the idle ones are "
	  "one \"other\" row", 0 },
	{ "families", OPT_FAMILIES, "LIST", 0, "probe families to load (default all): "
	  "softirq,sched,clock,net,loss", 0 },
	{ "attach", OPT_ATTACH, "FAMILY=PATH", 0, "try only this attach path for a family "
	  "(repeatable), e.g. sched=raw_tp to run a fallback where the preferred path loads; "
	  "`dbtrace probes` lists each family's paths", 0 },
	{ "btf", OPT_BTF, "FILE", 0, "the running kernel's BTF, for a kernel without "
	  "/sys/kernel/btf/vmlinux (e.g. from btfhub): programs are relocated against it; paths "
	  "that attach by the kernel's own BTF (tp_btf, fentry) are then refused", 0 },
	{ "port", OPT_PORT, "PORT", 0, "net: only this service port in the port rows (repeatable), "
	  "e.g. --port 3306", 0 },
	{ "netns", OPT_NETNS, "NAME|PATH", 0, "net: only sockets and devices of this network namespace "
	  "(an `ip netns` name or a file such as /proc/PID/ns/net): a container's or a pod's traffic, "
	  "or one end of two namespaces standing for two hosts", 0 },
	{ "comm", OPT_COMM, "NAME", 0, "only processes with this command name", 0 },
	{ "class", OPT_CLASS, "NAME=GLOB", 0, "name a thread class (repeatable), e.g. "
	  "workers='TNT_*'", 0 },
	{ "runq-p99-ms", OPT_RUNQ, "MS", 0, "oversubscription threshold (default 1)", 0 },
	{ "futex-pct", OPT_FUTEX_PCT, "PCT", 0, "lock_contention: futex share of a class's time "
	  "(default 30)", 0 },
	{ "disk-pct", OPT_DISK_PCT, "PCT", 0, "io_bound: disk-wait share of a class's time (default 30)", 0 },
	{ "net-wait-pct", OPT_NET_WAIT_PCT, "PCT", 0, "net_wait_dominant: network-wait share of a "
	  "class's time (default 50)", 0 },
	{ "sample-hz", OPT_SAMPLE_HZ, "HZ", 0, "clock: CPU samples/s per CPU (default 499, 1-10000)", 0 },
	{ "clock-vdso-pct", OPT_CLOCK_PCT, "PCT", 0, "gettimeofday_hotspot: vDSO share of a "
	  "process's CPU samples (default 10)", 0 },
	{ "clock-syscalls", OPT_CLOCK_SYS, "count|N", 0, "clock: 'count' counts every clock syscall "
	  "(fentry, else the syscall tracepoints: then every system call of every task pays); "
	  "default: fentry where it loads, else their share of CPU samples. A number N sets "
	  "gettimeofday_hotspot's clock syscalls/s threshold (default 10000)", 0 },
	{ "json", OPT_JSON, NULL, 0, "check, diff: print JSON", 0 },
	{ "root", OPT_ROOT, "DIR", 0, "check: read /proc, /sys and /etc under DIR (a copied tree), "
	  "its qdiscs from DIR/netlink/qdisc.bin", 0 },
	{ "listen", OPT_LISTEN, "HOST:PORT", 0, "serve: where /metrics listens (default "
	  DBT_DEFAULT_LISTEN "); :PORT for every address, [::1]:PORT for IPv6", 0 },
	{ "top-n", OPT_TOP_N, "N", 0, "serve, report, diff: thread classes, ports and devices kept, "
	  "busiest first (default 20, 1-1000)", 0 },
	{ "group-by", OPT_GROUP_BY, "parent|pid|cgroup", 0, "how processes form groups: parent "
	  "(default: a server's processes of one executable with their parent, e.g. PostgreSQL's "
	  "backends), pid (each process alone) or cgroup (one per cgroup v2 path)", 0 },
	{ "cgroup", OPT_CGROUP, "PATH", 0, "only the processes of this cgroup (repeatable): a path "
	  "under /sys/fs/cgroup or a systemd unit, e.g. postgresql@15-main.service", 0 },
	{ "help", 'h', NULL, 0, "show this help", 0 },
	{ 0 },
};

static error_t parse_opt(int key, char *arg, struct argp_state *state);

static const struct argp parser = { options, parse_opt, NULL, NULL, NULL, NULL, NULL };

int dbt_usage(const struct dbt_command_table *cmds, FILE *f)
{
	fputs("Usage: dbtrace COMMAND [OPTIONS]\n"
	      "       dbtrace record [OPTIONS] -- PROGRAM [ARGS...]\n"
	      "Shows where the operating system costs a database benchmark throughput.\n"
	      "\nCommands:\n", f);
	for (size_t i = 0; i < cmds->n; i++) {
		const struct dbt_subcommand *c = &cmds->items[i];
		char head[40];

		snprintf(head, sizeof(head), "%s%s%s", c->name, c->args[0] ? " " : "", c->args);
		fprintf(f, "  %-22s %s\n", head, c->help);
	}
	fputs("\nOptions:\n", f);
	argp_help(&parser, f, ARGP_HELP_LONG, (char *)"dbtrace");
	fputs("\nSECONDS accepts a suffix: 500ms, 2s, 1m. Exit codes: 0 ok, 1 runtime\n"
	      "error (privileges, BTF, I/O), 2 bad usage, 3 a probe family did not attach;\n"
	      "check: 0 clean, 1 a warning (or worse) was found, 2 bad usage;\n"
	      "record: the program's own (128+N when a signal N ended it), 127 not found,\n"
	      "126 not executable, else dbtrace's 1 or 2.\n", f);
	return ferror(f) ? -EIO : 0;
}

struct parse_ctx {
	struct dbt_config *cfg;
	const struct dbt_command_table *cmds;
	char *err;
	size_t errlen;
	int argc;
	char **argv;
	bool help;      /* getopt permutes: -h may come before the command */
	char **given;   /* argv as given: getopt permutes argv itself */
};

int dbt_parse_seconds(const char *text, double *out)
{
	char *end;
	double v, scale = 1.0;

	if (!text || !*text)
		return -EINVAL;
	errno = 0;
	v = strtod(text, &end);
	if (errno || end == text)
		return -EINVAL;
	if (!strcmp(end, "ms"))
		scale = 0.001;
	else if (!strcmp(end, "m"))
		scale = 60.0;
	else if (*end && strcmp(end, "s"))
		return -EINVAL;
	v *= scale;
	if (!isfinite(v) || v <= 0 || v > MAX_SECONDS)
		return -EINVAL;
	*out = v;
	return 0;
}

int dbt_parse_pid(const char *text, pid_t *out)
{
	char *end;
	long v;

	if (!text || !*text)
		return -EINVAL;
	errno = 0;
	v = strtol(text, &end, 10);
	if (errno || *end || v <= 0 || v > 0x3fffffff)  /* PID_MAX_LIMIT is 2^22 */
		return -EINVAL;
	*out = (pid_t)v;
	return 0;
}

int dbt_parse_listen(const char *text, char *host, size_t hostlen, unsigned short *port)
{
	const char *colon, *h = text;
	size_t hlen;
	char *end;
	long v;

	if (!text || !*text)
		return -EINVAL;
	if (*text == '[') {
		const char *close = strchr(text, ']');

		if (!close || close[1] != ':' || close == text + 1)
			return -EINVAL;
		h = text + 1;
		hlen = (size_t)(close - h);
		colon = close + 1;
	} else {
		colon = strrchr(text, ':');
		if (!colon || memchr(text, ':', (size_t)(colon - text)))
			return -EINVAL;   /* no port, or a bare IPv6 address */
		hlen = (size_t)(colon - text);
	}
	if (hlen >= hostlen)
		return -EINVAL;
	errno = 0;
	v = strtol(colon + 1, &end, 10);
	if (errno || end == colon + 1 || *end || v < 1 || v > 65535 || colon[1] == '+' || colon[1] == '-')
		return -EINVAL;
	memcpy(host, h, hlen);
	host[hlen] = 0;
	*port = (unsigned short)v;
	return 0;
}

/* A plain number in [lo, hi]: no suffix, no NaN. */
static int parse_number(const char *text, double lo, double hi, double *out)
{
	char *end;
	double v;

	if (!text || !*text)
		return -EINVAL;
	errno = 0;
	v = strtod(text, &end);
	if (errno || end == text || *end || !isfinite(v) || v < lo || v > hi)
		return -EINVAL;
	*out = v;
	return 0;
}

static int fail(struct parse_ctx *ctx, const char *fmt, const char *what)
{
	snprintf(ctx->err, ctx->errlen, fmt, what);
	return EINVAL;
}

/* Names the argument getopt stopped at, for unknown options and missing
 * values, since argp's own messages are muted. */
static void describe_bad_arg(struct parse_ctx *ctx, const struct argp_state *state)
{
	int idx = state->next > 0 ? state->next - 1 : 0;
	const char *arg = idx < ctx->argc ? ctx->argv[idx] : "";

	for (const struct argp_option *o = options; o->name; o++) {
		char shortopt[3] = { '-', (char)o->key, 0 };

		if (!o->arg)
			continue;
		if ((o->key < 0x100 && !strcmp(arg, shortopt)) ||
		    (!strncmp(arg, "--", 2) && !strcmp(arg + 2, o->name))) {
			snprintf(ctx->err, ctx->errlen, "option '%s' needs a value", arg);
			return;
		}
	}
	snprintf(ctx->err, ctx->errlen, "unknown option '%s' (see dbtrace --help)", arg);
}

/* record's first argument and all after it are the command, which must
 * follow "--" as given (getopt moves arguments about, and without "--"
 * it would take the command's own options for dbtrace's). */
static error_t take_command(struct parse_ctx *ctx, struct argp_state *state, char *arg)
{
	int at = -1;

	for (int i = 1; i < ctx->argc && at < 0; i++)
		if (ctx->given[i] == arg)
			at = i;
	if (at < 2 || strcmp(ctx->given[at - 1], "--"))
		return fail(ctx, "record runs the program given after --: dbtrace record [OPTIONS] -- "
			    "PROGRAM [ARGS...] (not '%s')", arg);
	if (!*arg)
		return fail(ctx, "empty program name after --%s", "");
	ctx->cfg->run_argv = &state->argv[state->next - 1];
	ctx->cfg->run_argc = state->argc - state->next + 1;
	state->next = state->argc;   /* the rest is the command's */
	return 0;
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct parse_ctx *ctx = state->input;
	struct dbt_config *cfg = ctx->cfg;

	switch (key) {
	case 'i':
		if (dbt_parse_seconds(arg, &cfg->interval_s))
			return fail(ctx, "bad interval '%s': need a positive number of seconds", arg);
		break;
	case 'd':
		if (dbt_parse_seconds(arg, &cfg->duration_s))
			return fail(ctx, "bad duration '%s': need a positive number of seconds", arg);
		break;
	case 'p':
		if (cfg->n_pids >= DBT_MAX_PIDS)
			return fail(ctx, "too many -p options (at most %s)", "64");
		if (dbt_parse_pid(arg, &cfg->pids[cfg->n_pids]))
			return fail(ctx, "bad PID '%s'", arg);
		cfg->n_pids++;
		break;
	case 'o':
		if (!*arg)
			return fail(ctx, "empty output path%s", "");
		cfg->output = arg;
		break;
	case OPT_REPORT:
		if (!*arg)
			return fail(ctx, "empty --report path%s", "");
		cfg->report = arg;
		break;
	case 'v':
		cfg->verbose++;
		break;
	case OPT_BATCH:
		cfg->batch = true;
		break;
	case OPT_ALL:
		cfg->all = true;
		break;
	case OPT_SORT:
		if (strlen(arg) != 1)
			return fail(ctx, "bad sort key '%s': one character from the table header", arg);
		cfg->sort_key = arg[0];
		break;
	case OPT_VIEW:
		cfg->view_classes = !strcmp(arg, "classes");
		cfg->view_net = !strcmp(arg, "net");
		cfg->view_time = !strcmp(arg, "time");
		if (!cfg->view_classes && !cfg->view_net && !cfg->view_time && strcmp(arg, "cpus"))
			return fail(ctx, "bad view '%s': cpus, classes, time or net", arg);
		break;
	case OPT_COMM:
		if (!*arg || strlen(arg) > 15)
			return fail(ctx, "bad comm '%s': 1 to 15 characters, as in /proc/PID/comm", arg);
		cfg->comm = arg;
		break;
	case OPT_GROUP_BY:
		if (proc_group_by_parse(arg, &cfg->group_by))
			return fail(ctx, "bad --group-by '%s': parent, pid or cgroup", arg);
		break;
	case OPT_CGROUP:
		if (cfg->n_cgroups >= DBT_MAX_CGROUPS)
			return fail(ctx, "too many --cgroup options (at most %s)", "16");
		if (!*arg || strlen(arg) >= DBT_CGROUP_PATH_MAX)
			return fail(ctx, "bad --cgroup '%s': a cgroup path or a systemd unit name", arg);
		cfg->cgroups[cfg->n_cgroups++] = arg;
		break;
	case OPT_CLASS:
		if (cfg->n_classes >= DBT_MAX_CLASS_OVERRIDES)
			return fail(ctx, "too many --class options (at most %s)", "32");
		{
			char why[160];

			if (tclass_parse_override(arg, &cfg->classes[cfg->n_classes], why, sizeof(why))) {
				snprintf(ctx->err, ctx->errlen, "bad --class: %s", why);
				return EINVAL;
			}
		}
		cfg->n_classes++;
		break;
	case OPT_RUNQ: {
		double s;

		if (dbt_parse_seconds(arg, &s))
			return fail(ctx, "bad run-queue threshold '%s': milliseconds > 0", arg);
		cfg->runq_p99_us = s * 1000.0;
		break;
	}
	case OPT_SAMPLE_HZ: {
		double v;

		if (parse_number(arg, 1, 10000, &v) || v != floor(v))
			return fail(ctx, "bad sample rate '%s': a whole number of Hz from 1 to 10000", arg);
		cfg->sample_hz = (unsigned int)v;
		break;
	}
	case OPT_FUTEX_PCT:
	case OPT_DISK_PCT:
	case OPT_NET_WAIT_PCT: {
		double *v = key == OPT_FUTEX_PCT ? &cfg->futex_pct
			    : key == OPT_DISK_PCT ? &cfg->disk_pct : &cfg->net_wait_pct;

		if (parse_number(arg, 0, 100, v) || *v <= 0)
			return fail(ctx, "bad share '%s': a percentage above 0, up to 100", arg);
		break;
	}
	case OPT_CLOCK_PCT:
		if (parse_number(arg, 0, 100, &cfg->clock_vdso_pct))
			return fail(ctx, "bad vDSO share '%s': a percentage from 0 to 100", arg);
		break;
	case OPT_CLOCK_SYS:
		if (!strcmp(arg, "count")) {
			cfg->count_clock_syscalls = true;
			break;
		}
		if (parse_number(arg, 0, 1e9, &cfg->clock_syscalls_per_s))
			return fail(ctx, "bad --clock-syscalls '%s': count, or a rate in calls per second, 0 or more", arg);
		break;
	case OPT_PORT: {
		double v;

		if (cfg->n_ports >= DBT_MAX_PORTS)
			return fail(ctx, "too many --port options (at most %s)", "16");
		if (parse_number(arg, 1, 65535, &v) || v != floor(v))
			return fail(ctx, "bad port '%s': a whole number from 1 to 65535", arg);
		cfg->ports[cfg->n_ports++] = (unsigned short)v;
		break;
	}
	case OPT_NETNS:
		cfg->netns = arg;
		break;
	case OPT_JSON:
		cfg->json = true;
		break;
	case OPT_FAMILIES: {
		char list[128], *tok, *save;

		if (strlen(arg) >= sizeof(list))
			return fail(ctx, "bad --families '%s': too long", arg);
		snprintf(list, sizeof(list), "%s", arg);
		cfg->families = 0;
		for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			int f;

			for (f = 0; f < FAM_COUNT && strcmp(tok, dbt_family_names[f]); f++)
				;
			if (f == FAM_COUNT)
				return fail(ctx, "bad --families '%s': names from softirq,sched,clock,net,loss", arg);
			cfg->families |= 1u << f;
		}
		if (!cfg->families)
			return fail(ctx, "bad --families '%s': name at least one family", arg);
		break;
	}
	case OPT_ATTACH: {
		const char *eq = strchr(arg, '='), *path;
		int f;

		if (!eq)
			return fail(ctx, "bad --attach '%s': FAMILY=PATH, e.g. sched=raw_tp", arg);
		for (f = 0; f < FAM_COUNT; f++)
			if (strlen(dbt_family_names[f]) == (size_t)(eq - arg) &&
			    !strncmp(arg, dbt_family_names[f], (size_t)(eq - arg)))
				break;
		if (f == FAM_COUNT)
			return fail(ctx, "bad --attach '%s': a family from softirq,sched,clock,net,loss", arg);
		path = eq + 1;
		if (!*path || strlen(path) >= PROBE_PATH_MAX || strspn(path, "abcdefghijklmnopqrstuvwxyz_+") != strlen(path))
			return fail(ctx, "bad --attach '%s': a path such as tp_btf, raw_tp, perf_event", arg);
		cfg->attach[f] = path;
		break;
	}
	case OPT_BTF:
		if (!*arg)
			return fail(ctx, "empty --btf file%s", "");
		cfg->btf_path = arg;
		break;
	case OPT_ROOT:
		if (!*arg)
			return fail(ctx, "empty --root directory%s", "");
		cfg->root = arg;
		break;
	case OPT_LISTEN: {
		char host[256];
		unsigned short port;

		if (dbt_parse_listen(arg, host, sizeof(host), &port))
			return fail(ctx, "bad --listen '%s': HOST:PORT, [IPV6]:PORT or :PORT, port 1-65535", arg);
		cfg->listen = arg;
		break;
	}
	case OPT_TOP_N: {
		double v;

		if (parse_number(arg, 1, DBT_MAX_TOP_N, &v) || v != floor(v))
			return fail(ctx, "bad --top-n '%s': a whole number from 1 to 1000", arg);
		cfg->top_n = (int)v;
		break;
	}
	case 'h':
		ctx->help = true;
		break;
	case ARGP_KEY_ARG:
		if (cfg->command == DBT_CMD_RECORD)
			return take_command(ctx, state, arg);
		if (cfg->command == DBT_CMD_REPORT || cfg->command == DBT_CMD_DIFF) {
			if (cfg->n_files >= (cfg->command == DBT_CMD_DIFF ? 2 : DBT_MAX_CAPTURES))
				return fail(ctx, "unexpected argument '%s'", arg);
			if (!*arg)
				return fail(ctx, "empty capture file name%s", "");
			cfg->files[cfg->n_files++] = arg;
			break;
		}
		if (cfg->command != DBT_CMD_NONE)
			return fail(ctx, "unexpected argument '%s'", arg);
		for (size_t i = 0; i < ctx->cmds->n; i++)
			if (!strcmp(arg, ctx->cmds->items[i].name)) {
				cfg->command = ctx->cmds->items[i].id;
				cfg->sub = &ctx->cmds->items[i];
			}
		if (cfg->command == DBT_CMD_NONE)
			return fail(ctx, "unknown command '%s' (see dbtrace --help)", arg);
		break;
	case ARGP_KEY_ERROR:
		if (!ctx->err[0])
			describe_bad_arg(ctx, state);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* dbt_parse_args() with ctx's copy of argv as given. */
static int parse(struct parse_ctx *ctx, int argc, char **argv)
{
	struct dbt_config *cfg = ctx->cfg;
	const struct dbt_command_table *cmds = ctx->cmds;
	char *err = ctx->err;
	size_t errlen = ctx->errlen;
	int rc;

	cfg->interval_s = 1.0;
	cfg->runq_p99_us = 1000.0;
	cfg->sample_hz = 499;
	cfg->clock_vdso_pct = 10.0;
	cfg->clock_syscalls_per_s = 10000.0;
	rc = argp_parse(&parser, argc, argv, ARGP_NO_EXIT | ARGP_NO_ERRS | ARGP_NO_HELP, NULL, ctx);
	if (rc) {
		if (!err[0])
			snprintf(err, errlen, "cannot parse the command line");
		return -EINVAL;
	}
	if (ctx->help || cfg->command == DBT_CMD_HELP) {
		cfg->command = DBT_CMD_HELP;
		cfg->sub = NULL;
		for (size_t i = 0; i < cmds->n; i++)
			if (cmds->items[i].id == DBT_CMD_HELP)
				cfg->sub = &cmds->items[i];
		if (!cfg->sub) {
			snprintf(err, errlen, "no help command in the command table");
			return -EINVAL;
		}
		return 0;
	}
	if (cfg->command == DBT_CMD_NONE) {
		snprintf(err, errlen, "no command given (see dbtrace --help)");
		return -EINVAL;
	}
	if (cfg->root && cfg->command != DBT_CMD_CHECK) {
		snprintf(err, errlen, "--root is an option of check only");
		return -EINVAL;
	}
	if (cfg->json && cfg->command != DBT_CMD_CHECK && cfg->command != DBT_CMD_DIFF) {
		snprintf(err, errlen, "--json is an option of check and diff only");
		return -EINVAL;
	}
	if (cfg->all && cfg->command != DBT_CMD_TOP && cfg->command != DBT_CMD_REPORT) {
		snprintf(err, errlen, "--all is an option of top and report only");
		return -EINVAL;
	}
	if (cfg->listen && cfg->command != DBT_CMD_SERVE) {
		snprintf(err, errlen, "--listen is an option of serve only");
		return -EINVAL;
	}
	if (cfg->top_n && cfg->command != DBT_CMD_SERVE && cfg->command != DBT_CMD_REPORT &&
	    cfg->command != DBT_CMD_DIFF) {
		snprintf(err, errlen, "--top-n is an option of serve, report and diff only");
		return -EINVAL;
	}
	if (cfg->output && cfg->command == DBT_CMD_REPORT && !strcmp(cfg->output, "-")) {
		snprintf(err, errlen, "report writes a file: give -o FILE.html");
		return -EINVAL;
	}
	if (cfg->command == DBT_CMD_REPORT && cfg->n_files < 1) {
		snprintf(err, errlen, "report needs a capture file: dbtrace report CAPTURE.json [OTHER_HOST.json...] "
			 "[-o FILE.html]");
		return -EINVAL;
	}
	if (cfg->command == DBT_CMD_DIFF && cfg->n_files != 2) {
		snprintf(err, errlen, "diff needs two capture files: dbtrace diff BEFORE.json AFTER.json");
		return -EINVAL;
	}
	if (cfg->command == DBT_CMD_RECORD && !cfg->run_argc) {
		snprintf(err, errlen, "record needs a program to run: dbtrace record [OPTIONS] -- PROGRAM [ARGS...]");
		return -EINVAL;
	}
	if (cfg->report && cfg->command != DBT_CMD_RECORD) {
		snprintf(err, errlen, "--report is an option of record only (for a capture: dbtrace report CAPTURE)");
		return -EINVAL;
	}
	if (cfg->command == DBT_CMD_RECORD && cfg->output && !strcmp(cfg->output, "-")) {
		snprintf(err, errlen, "record: the program writes to standard output too: give -o FILE.json");
		return -EINVAL;
	}
	if (cfg->command == DBT_CMD_SERVE && !cfg->listen)
		cfg->listen = DBT_DEFAULT_LISTEN;
	if (!cfg->top_n)
		cfg->top_n = DBT_DEFAULT_TOP_N;
	if (cfg->duration_s && cfg->duration_s < cfg->interval_s &&
	    (cfg->command == DBT_CMD_TOP || cfg->command == DBT_CMD_CAPTURE ||
	     cfg->command == DBT_CMD_SERVE || cfg->command == DBT_CMD_RECORD)) {
		snprintf(err, errlen, "duration %.3gs is shorter than the interval %.3gs",
			 cfg->duration_s, cfg->interval_s);
		return -EINVAL;
	}
	return 0;
}

int dbt_parse_args(int argc, char **argv, const struct dbt_command_table *cmds,
		   struct dbt_config *cfg, char *err, size_t errlen)
{
	struct parse_ctx ctx = { cfg, cmds, err, errlen, argc, argv, false, NULL };
	int rc;

	memset(cfg, 0, sizeof(*cfg));
	if (errlen)
		err[0] = 0;
	ctx.given = malloc(sizeof(*ctx.given) * (argc > 0 ? (size_t)argc : 1));
	if (!ctx.given) {
		snprintf(err, errlen, "out of memory");
		return -EINVAL;
	}
	if (argc > 0)
		memcpy(ctx.given, argv, sizeof(*argv) * (size_t)argc);
	rc = parse(&ctx, argc, argv);
	free(ctx.given);
	return rc;
}
