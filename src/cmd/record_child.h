/* The program `dbtrace record` runs: found on PATH before any probe
 * loads, forked parked once they are attached, released (exec'd) when
 * the window opens, and stopped with its process group when dbtrace
 * stops it. It runs in a process group of its own, so the signals
 * dbtrace forwards and the stop at -d reach every process it started. */
#ifndef DBTRACE_CMD_RECORD_CHILD_H
#define DBTRACE_CMD_RECORD_CHILD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct record_child {
	pid_t pid;                     /* also its process group */
	int pidfd;                     /* readable once it has exited */
	int go_fd;                     /* a byte written here execs it */
	int err_fd;                    /* a failed exec's errno, EOF after a good one */
	bool reaped;
	int status;                    /* its wait status, once reaped */
};

/* The file name would run, as execvp() finds it: a name with a '/' as
 * it is, else the first executable regular file of that name on PATH.
 * Returns 0 with the path in buf, -ENOENT (not found), -EACCES (found,
 * not executable) or -ENAMETOOLONG. */
int record_child_find(const char *name, char *buf, size_t len);

/* Forks the child, parked before its exec of path with argv (signals
 * unblocked, in its own process group). Returns 0 or a negative errno. */
int record_child_start(struct record_child *c, const char *path, char *const argv[]);
/* Lets it exec. Returns 0 or a negative errno. */
int record_child_release(struct record_child *c);
/* Sends sig to its process group. */
void record_child_signal(const struct record_child *c, int sig);
/* Reaps it if it has exited. Returns true once reaped. */
bool record_child_reap(struct record_child *c);
/* Stops its process group: SIGTERM, and SIGKILL after grace_s; reaped
 * after. Parked, it is just let go without its exec. */
void record_child_stop(struct record_child *c, double grace_s);
/* After reaping: the errno of a failed exec, 0 when it ran. */
int record_child_exec_errno(const struct record_child *c);
/* Its exit code as a shell gives it (128+N after signal N) and how it
 * ended in words ("exit 3", "killed by SIGTERM"). */
int record_child_exit_code(const struct record_child *c, char *how, size_t len);
void record_child_close(struct record_child *c);

#endif
