/* The Prometheus text format (version 0.0.4) of the running totals: one
 * HELP and TYPE line per family of the registry (render/prom_families.h),
 * then its samples, written with the pieces of render/prom_text.h; label
 * values escaped and cut to valid UTF-8. */
#include "render/prom_exposition.h"
#include "render/prom_families.h"
#include "render/prom_text.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at s, 0 when it is not one. */
static int utf8_len(const unsigned char *s)
{
	unsigned char c = s[0];
	int n;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	for (int i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* overlong forms, surrogates and code points above U+10FFFF */
	if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] > 0x9f) ||
	    (c == 0xf0 && s[1] < 0x90) || (c == 0xf4 && s[1] > 0x8f))
		return 0;
	return n;
}

/* Appends the escaped value to dst (bounded; whole characters only). */
static void escape_into(char *dst, size_t cap, size_t *at, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		char tmp[4];
		int n = utf8_len(p), k = 0;

		if (n == 1 && (*p == '\\' || *p == '"')) {
			tmp[k++] = '\\';
			tmp[k++] = (char)*p;
		} else if (n == 1 && *p == '\n') {
			tmp[k++] = '\\';
			tmp[k++] = 'n';
		} else if (n == 0) {
			tmp[k++] = '?';
			n = 1;
		} else {
			for (; k < n; k++)
				tmp[k] = (char)p[k];
		}
		if (*at + (size_t)k + 1 > cap)
			break;
		memcpy(dst + *at, tmp, (size_t)k);
		*at += (size_t)k;
		p += n;
	}
	dst[*at] = 0;
}

void prom_label_value(FILE *f, const char *s)
{
	char buf[1024];
	size_t at = 0;

	escape_into(buf, sizeof(buf), &at, s);
	fputs(buf, f);
}

void lset_clear(struct lset *l)
{
	l->n = 0;
	l->s[0] = 0;
}

void lset_add(struct lset *l, const char *key, const char *value)
{
	int w = snprintf(l->s + l->n, sizeof(l->s) - l->n, "%s%s=\"", l->n ? "," : "", key);

	if (w < 0 || (size_t)w >= sizeof(l->s) - l->n - 2)
		return;
	l->n += (size_t)w;
	escape_into(l->s, sizeof(l->s) - 1, &l->n, value);
	l->s[l->n++] = '"';
	l->s[l->n] = 0;
}

void lset_addf(struct lset *l, const char *key, const char *fmt, long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), fmt, v);
	lset_add(l, key, buf);
}

void prom_sample(FILE *f, const char *name, const struct lset *l, double v)
{
	if (l && l->n)
		fprintf(f, "%s{%s} %.12g\n", name, l->s, v);
	else
		fprintf(f, "%s %.12g\n", name, v);
}

void prom_sample_u64(FILE *f, const char *name, const struct lset *l, uint64_t v)
{
	if (l && l->n)
		fprintf(f, "%s{%s} %" PRIu64 "\n", name, l->s, v);
	else
		fprintf(f, "%s %" PRIu64 "\n", name, v);
}

void prom_histogram(FILE *f, const char *name, const struct lset *l, const struct prom_hist *h)
{
	const char *sep = l->n ? "," : "";
	uint64_t cum = 0;

	for (int i = 0; i < PROM_LE_N; i++) {
		cum += h->slots[i];
		fprintf(f, "%s_bucket{%s%sle=\"%.9g\"} %" PRIu64 "\n", name, l->s, sep,
			prom_le_s[i], cum);
	}
	cum += h->slots[PROM_LE_N];
	fprintf(f, "%s_bucket{%s%sle=\"+Inf\"} %" PRIu64 "\n", name, l->s, sep, cum);
	fprintf(f, "%s_sum{%s} %.12g\n", name, l->s, h->sum_s);
	fprintf(f, "%s_count{%s} %" PRIu64 "\n", name, l->s, cum);
}

/* Each family: its HELP and TYPE lines, then its samples. */
int prom_render(const struct prom_totals *t, const struct prom_build *b, const struct prom_self *self,
		FILE *f)
{
	const struct prom_out o = { t, b, self, f };

	for (int i = 0; i < prom_n_families; i++) {
		const struct prom_family *fam = &prom_families[i];

		fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", fam->name, fam->help, fam->name, fam->type);
		fam->samples(fam, &o);
	}
	return ferror(f) ? -EIO : 0;
}
