/* Building a line of text piece by piece into a fixed buffer: the one
 * copy of the bounded append the table formatters share. Pure. */
#ifndef DBTRACE_RENDER_TEXT_H
#define DBTRACE_RENDER_TEXT_H

#include <stddef.h>

/* Appends with snprintf semantics at offset at, never past len (the text
 * is cut and stays terminated). Returns the new offset, at most len - 1. */
size_t text_put(char *buf, size_t len, size_t at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
