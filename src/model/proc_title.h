/* Process titles: the class a process's main thread takes from the title
 * it set in its argv (PostgreSQL, php-fpm, nginx, Oracle). Pure.
 *
 * Servers that fork a process per connection or per role rewrite argv so
 * that ps shows what each process does, while every comm stays the same
 * (`postgres`). The rule, applied to argv[0] of /proc/PID/cmdline
 * (trailing blanks dropped):
 *
 *  1. A client connection folds into one class `NAME: backend`. A title is
 *     a client's when one of its words after the first is an endpoint:
 *     `HOST(PORT)` (PostgreSQL: `postgres: bench bench 127.0.0.1(40112)
 *     idle`), `[local]` (a PostgreSQL Unix-socket client) or `(LOCAL=...)`
 *     (Oracle's dedicated servers: `oracleORCL (LOCAL=NO)`). NAME is the
 *     text before `: `, else the first word.
 *  2. Otherwise a title `NAME: ROLE` (NAME one word without `/`) names the
 *     class `NAME: ROLE`, ROLE cut before its first word holding a digit
 *     (`postgres: parallel worker for PID 4711` -> `postgres: parallel
 *     worker for PID`), so roles numbered per instance stay one class;
 *     `postgres: walwriter`, `php-fpm: pool www`, `nginx: worker process`
 *     are their own classes.
 *  3. Any other title (a plain argv: `/usr/lib/postgresql/15/bin/postgres
 *     -D ...`, `ora_pmon_ORCL`) gives no class: the thread keeps its comm,
 *     and the comm rules of thread_class.h apply as before. */
#ifndef DBTRACE_MODEL_PROC_TITLE_H
#define DBTRACE_MODEL_PROC_TITLE_H

#include <stddef.h>

/* The class of a process titled by the first string of cmdline (len bytes,
 * NUL-separated arguments as in /proc/PID/cmdline). Returns 1 with the
 * class in out (cut to outlen - 1), 0 if the title names no class (out ""),
 * -EINVAL on a NULL argument or outlen 0. */
int proc_title_class(const char *cmdline, size_t len, char *out, size_t outlen);

#endif
