#include "core/probe_report.h"

#include <stdarg.h>
#include <stdio.h>

void probe_note(struct probe_report *rep, const char *fmt, ...)
{
	va_list ap;

	if (rep->n_notes >= PROBE_MAX_NOTES)
		return;
	va_start(ap, fmt);
	vsnprintf(rep->notes[rep->n_notes++], PROBE_ERROR_MAX, fmt, ap);
	va_end(ap);
}
