#include "render/text.h"

#include <stdarg.h>
#include <stdio.h>

size_t text_put(char *buf, size_t len, size_t at, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (at >= len)
		return at;
	va_start(ap, fmt);
	n = vsnprintf(buf + at, len - at, fmt, ap);
	va_end(ap);
	if (n < 0)
		return at;
	return at + (size_t)n >= len ? len - 1 : at + (size_t)n;
}
