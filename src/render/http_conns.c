#include "render/http_conns.h"
#include "core/vec.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int http_conns_add(struct http_conns *t, struct http_conn *c)
{
	if (VEC_RESERVE(t->items, t->cap, t->n + 1))
		return -ENOMEM;
	t->items[t->n++] = c;
	return 0;
}

void http_conns_remove(struct http_conns *t, const struct http_conn *c)
{
	for (size_t i = 0; i < t->n; i++) {
		if (t->items[i] != c)
			continue;
		memmove(&t->items[i], &t->items[i + 1], (t->n - i - 1) * sizeof(*t->items));
		t->n--;
		return;
	}
}

size_t http_conns_live(const struct http_conns *t)
{
	size_t n = 0;

	for (size_t i = 0; i < t->n; i++)
		n += !t->items[i]->shed;
	return n;
}

struct http_conn *http_conns_over_limit(const struct http_conns *t, size_t limit)
{
	struct http_conn *oldest = NULL;

	if (http_conns_live(t) <= limit)
		return NULL;
	for (size_t i = 0; i < t->n; i++) {
		struct http_conn *c = t->items[i];

		if (c->shed || c->busy)
			continue;
		if (!oldest || c->since_ns < oldest->since_ns)
			oldest = c;
	}
	return oldest;
}

struct http_conn *http_conns_expired(const struct http_conns *t, uint64_t now_ns,
				     uint64_t deadline_ns)
{
	for (size_t i = 0; i < t->n; i++) {
		struct http_conn *c = t->items[i];

		if (!c->shed && now_ns > c->since_ns && now_ns - c->since_ns >= deadline_ns)
			return c;
	}
	return NULL;
}

void http_conns_free(struct http_conns *t)
{
	free(t->items);
	memset(t, 0, sizeof(*t));
}
