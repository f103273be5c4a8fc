/* Reading small /proc and /sys files below a root directory, which the
 * tests point at fixture trees: the one way every sysinfo parser reaches
 * a file. root "", "/" or NULL means the live system; path may start with
 * '/' or not ("/proc/stat" and "proc/stat" name the same file).
 *
 * A tree (`check --root DIR`, copied from another host, perhaps hostile)
 * is read without leaving it: a symbolic link or ".." that points out of
 * it is not followed (-EXDEV; sysinfo/beneath.h). Everywhere, files are
 * opened non-blocking and must be regular files (directories for
 * procfile_opendir): a FIFO, socket or device is refused with -ENXIO and
 * never blocks a read nor reaches a driver. A file longer than a reader's
 * limit is cut there and read. Each refusal and cut of a tree is one
 * "note: ..." line on stderr (debug output for the live system). */
#ifndef DBTRACE_SYSINFO_PROCFILE_H
#define DBTRACE_SYSINFO_PROCFILE_H

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Joins root and path into buf. -ENAMETOOLONG when it does not fit,
 * -EINVAL for a NULL path. */
int procfile_path(char *buf, size_t len, const char *root, const char *path);

/* Whether root names the live system. */
bool procfile_live(const char *root);

/* Opens ROOT/path: open(2) flags (O_CLOEXEC and O_NONBLOCK are added),
 * a regular file, or a directory with O_DIRECTORY; an fd or a negative
 * errno. procfile_fopen: a stream to read, 0 or a negative errno. */
int procfile_open(const char *root, const char *path, int flags);
int procfile_fopen(const char *root, const char *path, FILE **out);

/* Reads ROOT/path whole into a malloc'd, NUL-terminated buffer (caller
 * frees); *len (when len is not NULL) excludes the NUL. /proc and /sys
 * files report size 0, so it reads until EOF, but never more than max
 * bytes: a longer file is cut there (with a note). *out is NULL on
 * error. */
int procfile_slurp(const char *root, const char *path, size_t max, char **out, size_t *len);

/* Reads the first line of ROOT/path without its newline. */
int procfile_line(const char *root, const char *path, char *buf, size_t len);

/* Opens the directory ROOT/path; 0 or a negative errno. */
int procfile_opendir(const char *root, const char *path, DIR **out);

/* The last part of the target of the symbolic link ROOT/path ("bond0" for
 * a master link to ../bond0) into buf; -ENAMETOOLONG when it does not
 * fit, else 0 or a negative errno. */
int procfile_link_name(const char *root, const char *path, char *buf, size_t len);

/* Whether ROOT/proc/PID exists (a live process or thread group). */
int procfile_pid_exists(const char *root, int pid);

/*
 * Walks a text file line by line without holding it whole: /proc/interrupts
 * on a 1920-CPU host is tens of MiB. fn gets each line without its '\n' and
 * not NUL-terminated; bytes past line_max are dropped and truncated is set.
 * A nonzero return from fn stops the walk and is returned. Past 1 GiB
 * the file is cut (with a note), its last line marked truncated.
 * procfile_each_line() opens file as given; procfile_each_line_at() opens
 * ROOT/path as every reader here does; procfile_each_line_buf() walks text
 * already in memory.
 */
typedef int (*procfile_line_fn)(void *ctx, const char *line, size_t len, bool truncated);
int procfile_each_line(const char *file, size_t line_max, procfile_line_fn fn, void *ctx);
int procfile_each_line_at(const char *root, const char *path, size_t line_max, procfile_line_fn fn,
			  void *ctx);
int procfile_each_line_buf(const char *buf, size_t len, size_t line_max, procfile_line_fn fn,
			   void *ctx);

#endif
