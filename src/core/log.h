/* The one place that prints diagnostics. Errors are one line on stderr,
 * prefixed "dbtrace: ". */
#ifndef DBTRACE_CORE_LOG_H
#define DBTRACE_CORE_LOG_H

/* Set once by main from -v; libbpf's own output is shown only when > 0. */
void log_set_verbosity(int level);
int log_verbosity(void);

void log_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));   /* shown always */
void log_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));  /* with -v */

/* "EPERM (Operation not permitted)" for a positive or negative errno. */
const char *log_errno_text(int err, char *buf, unsigned len);

#endif
