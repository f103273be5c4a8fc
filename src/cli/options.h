/* Command line: subcommand and options parsed into one config struct that
 * is passed down; nothing here touches the kernel or prints. */
#ifndef DBTRACE_CLI_OPTIONS_H
#define DBTRACE_CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include "model/thread_class.h"

#define DBT_MAX_PIDS 64
#define DBT_MAX_CLASS_OVERRIDES 32

enum dbt_command {
	DBT_CMD_NONE = 0,
	DBT_CMD_HELP,
	DBT_CMD_VERSION,
	DBT_CMD_PROBES,
	DBT_CMD_TOP,
	DBT_CMD_CAPTURE,
};

/* Exit codes shared by every subcommand. */
enum dbt_exit {
	DBT_EXIT_OK = 0,
	DBT_EXIT_RUNTIME = 1,  /* not permitted, no BTF, I/O failure */
	DBT_EXIT_USAGE = 2,    /* bad option, duration, PID, output path */
	DBT_EXIT_PROBES = 3,   /* `probes`: a family could not attach */
};

struct dbt_config {
	enum dbt_command command;
	double interval_s;      /* refresh / sampling interval */
	double duration_s;      /* 0: until interrupted */
	pid_t pids[DBT_MAX_PIDS];
	int n_pids;
	const char *output;     /* capture path, "-" for stdout, NULL: default */
	int verbose;
	bool batch;             /* top: plain text instead of ncurses */
	char sort_key;          /* top: column key, 0 for the default */
	bool view_classes;      /* top: start in the thread-class view */
	const char *comm;       /* only processes with this comm */
	struct tclass_override classes[DBT_MAX_CLASS_OVERRIDES];  /* --class NAME=GLOB */
	int n_classes;
	double runq_p99_us;     /* oversubscription threshold */
	unsigned int sample_hz; /* clock family: CPU-clock samples per second per CPU */
	double clock_vdso_pct;  /* gettimeofday_hotspot: vDSO share threshold, % of CPU samples */
	double clock_syscalls_per_s;  /* gettimeofday_hotspot: clock syscall rate threshold */
};

/* Parses argv (argv[0] is the program name). Returns 0, or -EINVAL with a
 * one-line message (no trailing newline) in err. `--help` sets
 * command = DBT_CMD_HELP and leaves the text to dbt_usage(). */
int dbt_parse_args(int argc, char **argv, struct dbt_config *cfg, char *err, size_t errlen);

/* Strict positive number of seconds: "1", "0.5", "2s", "1m"; rejects 0,
 * negatives, trailing garbage, NaN and values above a day. */
int dbt_parse_seconds(const char *text, double *out);

/* Strict positive PID. */
int dbt_parse_pid(const char *text, pid_t *out);

/* Full --help text. */
const char *dbt_usage(void);

const char *dbt_command_name(enum dbt_command cmd);

#endif
