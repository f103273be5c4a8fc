#include "findings/finding.h"
#include "core/log.h"
#include "core/vec.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *finding_severity_name(enum finding_severity s)
{
	switch (s) {
	case SEV_INFO: return "info";
	case SEV_WARNING: return "warning";
	case SEV_CRITICAL: return "critical";
	}
	return "info";
}

static struct finding_evidence *next_ev(struct finding *f, const char *key)
{
	struct finding_evidence *e;

	/* a rule that outgrew the room is dbtrace's bug, not the user's:
	 * said with -v (a full room once hid a joined rto_waits) */
	if (f->n_ev >= FINDING_MAX_EVIDENCE) {
		log_debug("finding %s: no room for evidence %s (%d pieces at most)", f->id, key,
			  FINDING_MAX_EVIDENCE);
		return NULL;
	}
	e = &f->ev[f->n_ev++];
	memset(e, 0, sizeof(*e));
	snprintf(e->key, sizeof(e->key), "%s", key);
	return e;
}

void finding_num(struct finding *f, const char *key, double v)
{
	struct finding_evidence *e = next_ev(f, key);

	if (e)
		e->num = v;
}

void finding_text(struct finding *f, const char *key, const char *fmt, ...)
{
	struct finding_evidence *e = next_ev(f, key);
	va_list ap;

	if (!e)
		return;
	e->is_text = true;
	va_start(ap, fmt);
	vsnprintf(e->text, sizeof(e->text), fmt, ap);
	va_end(ap);
}

int findings_merge(struct finding_list *l, const struct finding *f)
{
	int err;

	for (int i = 0; i < l->n; i++) {
		struct finding *g = &l->items[i];
		int first = g->first_interval, last = g->last_interval;

		if (strcmp(g->id, f->id) || g->pid != f->pid || strcmp(g->class_name, f->class_name))
			continue;
		*g = *f;
		g->first_interval = first < f->first_interval ? first : f->first_interval;
		g->last_interval = last > f->last_interval ? last : f->last_interval;
		return 0;
	}
	err = VEC_RESERVE(l->items, l->cap, (size_t)l->n + 1);
	if (err)
		return err;
	l->items[l->n++] = *f;
	return 0;
}

void findings_clear(struct finding_list *l)
{
	l->n = 0;
}

void findings_free(struct finding_list *l)
{
	free(l->items);
	memset(l, 0, sizeof(*l));
}
