/* Command line: subcommand and options parsed into one config struct that
 * is passed down; nothing here touches the kernel or prints. */
#ifndef DBTRACE_CLI_OPTIONS_H
#define DBTRACE_CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>
#include "core/family.h"
#include "core/probe_report.h"
#include "model/proc_group.h"
#include "model/thread_class.h"

#define DBT_MAX_PIDS 64
#define DBT_MAX_CLASS_OVERRIDES 32
#define DBT_MAX_PORTS 16
#define DBT_MAX_CAPTURES 8                   /* report: captures of several hosts */
#define DBT_MAX_CGROUPS 16
#define DBT_CGROUP_PATH_MAX 256
#define DBT_DEFAULT_LISTEN "127.0.0.1:9464"  /* serve: loopback unless asked */
#define DBT_DEFAULT_TOP_N 20                 /* serve, report, diff: rows per kind */
#define DBT_MAX_TOP_N 1000

enum dbt_command {
	DBT_CMD_NONE = 0,
	DBT_CMD_HELP,
	DBT_CMD_VERSION,
	DBT_CMD_PROBES,
	DBT_CMD_TOP,
	DBT_CMD_CAPTURE,
	DBT_CMD_CHECK,
	DBT_CMD_SERVE,
	DBT_CMD_REPORT,
	DBT_CMD_DIFF,
	DBT_CMD_RECORD,
};

/* Exit codes shared by every subcommand. */
enum dbt_exit {
	DBT_EXIT_OK = 0,
	DBT_EXIT_RUNTIME = 1,  /* not permitted, no BTF, I/O failure */
	DBT_EXIT_USAGE = 2,    /* bad option, duration, PID, output path */
	DBT_EXIT_PROBES = 3,   /* `probes`: a family could not attach */
};

struct dbt_subcommand;

struct dbt_config {
	enum dbt_command command;
	const struct dbt_subcommand *sub;  /* the table entry of command */
	double interval_s;      /* refresh / sampling interval */
	double duration_s;      /* 0: until interrupted */
	pid_t pids[DBT_MAX_PIDS];
	int n_pids;
	const char *output;     /* capture path, "-" for stdout, NULL: default */
	int verbose;
	bool batch;             /* top: plain text instead of ncurses */
	char sort_key;          /* top: column key, 0 for the default */
	bool view_classes;      /* top: start in the thread-class view */
	bool view_net;          /* top: start in the network view */
	bool view_time;         /* top: start in the wall-time budget view */
	bool all;               /* top, report: every thread class, none folded into "other" */
	unsigned short ports[DBT_MAX_PORTS];  /* --port: only these service ports in the port rows */
	int n_ports;
	const char *netns;      /* --netns as given */
	/* --netns resolved by main (sysinfo/netns.h): the namespace file and
	 * its inode; netns_inum 0: every namespace */
	char netns_path[256];
	uint32_t netns_inum;
	const char *comm;       /* only processes with this comm */
	struct tclass_override classes[DBT_MAX_CLASS_OVERRIDES];  /* --class NAME=GLOB */
	int n_classes;
	double runq_p99_us;     /* oversubscription threshold */
	double futex_pct;       /* lock_contention: futex share of a class's time; 0: default */
	double disk_pct;        /* io_bound: disk-wait share; 0: default */
	double net_wait_pct;    /* net_wait_dominant: net-wait share; 0: default */
	unsigned int sample_hz; /* clock family: CPU-clock samples per second per CPU */
	unsigned int families;  /* --families: bit per dbt_family_names entry; 0 = all */
	const char *attach[FAM_COUNT];  /* --attach FAMILY=PATH: the path alone (in argv); NULL: the plan's order */
	const char *btf_path;   /* --btf FILE: BTF of the running kernel, where it exposes none */
	double clock_vdso_pct;  /* gettimeofday_hotspot: vDSO share threshold, % of CPU samples */
	double clock_syscalls_per_s;  /* gettimeofday_hotspot: clock syscall rate threshold */
	bool count_clock_syscalls;    /* --clock-syscalls=count: exact counts, syscall tracepoints allowed */
	bool json;              /* check: print JSON */
	const char *root;       /* check: read /proc, /sys, /etc under this tree; NULL: "/" */
	const char *listen;     /* serve: HOST:PORT, [V6]:PORT or :PORT */
	int top_n;              /* serve, report, diff: classes, ports, devices kept */
	const char *files[DBT_MAX_CAPTURES];   /* report: the captures (the first in full); diff: before and after */
	int n_files;
	enum proc_group_by group_by;  /* --group-by: how processes form groups */
	const char *cgroups[DBT_MAX_CGROUPS];  /* --cgroup as given */
	int n_cgroups;
	/* --cgroup resolved by main (sysinfo/cgroup_path.h): v2 paths, "/..." */
	char cgroup_paths[DBT_MAX_CGROUPS][DBT_CGROUP_PATH_MAX];
	char **run_argv;        /* record: the command and its arguments, after -- */
	int run_argc;
	const char *report;     /* record: --report FILE.html, the report written beside the capture */
	/* record: the command's process, set by record once it has started it
	 * (no option sets it): its processes are one group, the load, which
	 * the findings do not judge as a server; 0: none */
	pid_t load_pid;
};

/* One subcommand: the one table of them (src/cmd/commands.c) drives the
 * parser, the help text and the dispatch, as bpftool's does. */
struct dbt_subcommand {
	const char *name;
	enum dbt_command id;           /* for the options that belong to one command */
	int (*run)(const struct dbt_config *cfg);  /* returns an enum dbt_exit */
	const char *args;              /* positional arguments for the help, or "" */
	const char *help;              /* one line */
};

struct dbt_command_table {
	const struct dbt_subcommand *items;
	size_t n;
};

/* Parses argv (argv[0] is the program name) against the commands of cmds.
 * Returns 0, or -EINVAL with a one-line message (no trailing newline) in
 * err. `--help` sets command = DBT_CMD_HELP and leaves the text to
 * dbt_usage(). cfg->sub points at the chosen entry of cmds. */
int dbt_parse_args(int argc, char **argv, const struct dbt_command_table *cmds,
		   struct dbt_config *cfg, char *err, size_t errlen);

/* Strict positive number of seconds: "1", "0.5", "2s", "1m"; rejects 0,
 * negatives, trailing garbage, NaN and values above a day. */
int dbt_parse_seconds(const char *text, double *out);

/* serve's --listen: "HOST:PORT", "[IPV6]:PORT" or ":PORT" (all
 * addresses); host "" for all. The host is not resolved here. */
int dbt_parse_listen(const char *text, char *host, size_t hostlen, unsigned short *port);

/* Strict positive PID. */
int dbt_parse_pid(const char *text, pid_t *out);

/* Writes the full --help text: the commands from cmds, the options from
 * the parser's own option table. Returns 0 or -EIO. */
int dbt_usage(const struct dbt_command_table *cmds, FILE *f);

#endif
