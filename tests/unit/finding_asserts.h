/* Looking up findings and their evidence in the findings tests. Include
 * after <cmocka.h>. */
#ifndef DBTRACE_TESTS_FINDING_ASSERTS_H
#define DBTRACE_TESTS_FINDING_ASSERTS_H

#include <string.h>
#include "findings/finding.h"

/* The first finding with this id, or NULL. */
static inline const struct finding *find_id(const struct finding_list *l, const char *id)
{
	for (int i = 0; i < l->n; i++)
		if (!strcmp(l->items[i].id, id))
			return &l->items[i];
	return NULL;
}

/* The evidence entry under key; fails the test when there is none. */
static inline const struct finding_evidence *ev(const struct finding *f, const char *key)
{
	for (int i = 0; i < f->n_ev; i++)
		if (!strcmp(f->ev[i].key, key))
			return &f->ev[i];
	fail_msg("no evidence %s in %s", key, f->id);
	return NULL;
}

#endif
