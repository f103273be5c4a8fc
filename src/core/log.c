#define _GNU_SOURCE
#include "core/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Written once by main before any other thread exists. */
static int verbosity;

void log_set_verbosity(int level)
{
	verbosity = level;
}

int log_verbosity(void)
{
	return verbosity;
}

static void vlog(const char *fmt, va_list ap)
{
	fputs("dbtrace: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void log_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(fmt, ap);
	va_end(ap);
}

void log_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(fmt, ap);
	va_end(ap);
}

void log_debug(const char *fmt, ...)
{
	va_list ap;

	if (verbosity <= 0)
		return;
	va_start(ap, fmt);
	vlog(fmt, ap);
	va_end(ap);
}

const char *log_errno_text(int err, char *buf, unsigned len)
{
	const char *name;

	if (err < 0)
		err = -err;
	name = strerrorname_np(err);
	snprintf(buf, len, "%s (%s)", name ? name : "E?", strerror(err));
	return buf;
}
