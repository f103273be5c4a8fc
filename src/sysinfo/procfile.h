/* Reading small /proc and /sys files below a root directory, which the
 * tests point at fixture trees. */
#ifndef DBTRACE_SYSINFO_PROCFILE_H
#define DBTRACE_SYSINFO_PROCFILE_H

#include <stddef.h>

/* Joins root and an absolute path ("" or NULL root means "/"). Returns
 * -ENAMETOOLONG when it does not fit. */
int procfile_path(char *buf, size_t len, const char *root, const char *path);

/* Reads ROOT/path into a NUL-terminated malloc'd buffer (caller frees).
 * Files in /proc report size 0, so this reads until EOF up to max bytes. */
int procfile_slurp(const char *root, const char *path, size_t max, char **out);

/* Reads the first line of ROOT/path without its newline. */
int procfile_line(const char *root, const char *path, char *buf, size_t len);

/* Whether ROOT/proc/PID exists (a live process or thread group). */
int procfile_pid_exists(const char *root, int pid);

#endif
