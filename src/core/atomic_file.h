/* A file that appears under its name only when complete: written to an
 * unnamed temporary file in the target's directory (O_TMPFILE; a hidden
 * temporary name where the file system lacks it) and linked over the
 * target at the end. A failed or killed writer leaves the old file, or
 * none. The capture's JSON writer and `report` both write through it. */
#ifndef DBTRACE_CORE_ATOMIC_FILE_H
#define DBTRACE_CORE_ATOMIC_FILE_H

#include <stdbool.h>
#include <stdio.h>

struct atomic_file {
	FILE *f;                        /* write here; NULL once closed */
	bool named_tmp;                 /* fallback: tmp is a real name to rename */
	char path[4096];
	char tmp[4096];
};

/* Opens the temporary file for path (the caller has checked that path is
 * not a directory or a device). Returns 0 or a negative errno; err then
 * holds one line. */
int atomic_file_open(struct atomic_file *af, const char *path, char *err, size_t errlen);

/* Flushes, syncs and gives the file its name, replacing what was there.
 * Closes it in every case; on failure nothing appears. 0 or -errno. */
int atomic_file_commit(struct atomic_file *af);

/* Drops everything written. Safe after a commit and when called twice. */
void atomic_file_abort(struct atomic_file *af);

#endif
