// SPDX-License-Identifier: GPL-2.0
/*
 * Thread classes: pure naming model. The rule is described in
 * thread_class.h; this file only implements it.
 */
#include "model/thread_class.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tclass_classifier {
	size_t n;
	struct tclass_override ovr[];
};

/* ---------------------------------------------------------------- parsing */

static bool is_ctrl(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

/* Printable, bounded rendering of user text for error messages: control
 * bytes, quotes and backslashes escaped, cut with "..." after ~40 bytes. */
static void quote_text(char *dst, size_t dstlen, const char *src)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0, i;

	if (dstlen == 0)
		return;
	for (i = 0; src[i] != '\0'; i++) {
		unsigned char c = (unsigned char)src[i];
		char tmp[4];
		size_t k = 0, j;

		if (i >= 40) {
			if (o + 3 < dstlen) {
				memcpy(dst + o, "...", 3);
				o += 3;
			}
			break;
		}
		if (is_ctrl(c) || c == '\'' || c == '\\') {
			tmp[k++] = '\\';
			tmp[k++] = 'x';
			tmp[k++] = hex[c >> 4];
			tmp[k++] = hex[c & 0xf];
		} else {
			tmp[k++] = (char)c;
		}
		if (o + k >= dstlen)
			break;
		for (j = 0; j < k; j++)
			dst[o++] = tmp[j];
	}
	dst[o] = '\0';
}

/* Writes "--class '<text>': <why>" into err; returns err_code. */
static int parse_fail(char *err, size_t errlen, const char *text,
		      const char *why, int err_code)
{
	char q[200];

	if (err == NULL || errlen == 0)
		return err_code;
	if (text == NULL) {
		snprintf(err, errlen, "--class: %s", why);
		return err_code;
	}
	quote_text(q, sizeof(q), text);
	snprintf(err, errlen, "--class '%s': %s", q, why);
	return err_code;
}

static bool has_ctrl(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (is_ctrl((unsigned char)s[i]))
			return true;
	return false;
}

int tclass_parse_override(const char *text, struct tclass_override *out,
			  char *err, size_t errlen)
{
	const char *eq, *glob;
	size_t name_len, glob_len;

	if (err != NULL && errlen > 0)
		err[0] = '\0';
	if (text == NULL)
		return parse_fail(err, errlen, NULL,
				  "missing value, expected NAME=GLOB", -EINVAL);
	if (out == NULL)
		return parse_fail(err, errlen, text, "no place for the result",
				  -EINVAL);
	eq = strchr(text, '=');
	if (eq == NULL)
		return parse_fail(err, errlen, text,
				  "missing '=', expected NAME=GLOB", -EINVAL);
	name_len = (size_t)(eq - text);
	glob = eq + 1;
	if (name_len == 0)
		return parse_fail(err, errlen, text,
				  "empty class name, expected NAME=GLOB",
				  -EINVAL);
	if (*glob == '\0')
		return parse_fail(err, errlen, text,
				  "empty glob, expected NAME=GLOB", -EINVAL);
	if (name_len >= TCLASS_NAME_MAX) {
		char why[96];

		snprintf(why, sizeof(why),
			 "class name too long (%zu characters, at most %d)",
			 name_len, TCLASS_NAME_MAX - 1);
		return parse_fail(err, errlen, text, why, -ENAMETOOLONG);
	}
	glob_len = strnlen(glob, TCLASS_GLOB_MAX);
	if (glob_len >= TCLASS_GLOB_MAX) {
		char why[96];

		snprintf(why, sizeof(why), "glob too long (at most %d characters)",
			 TCLASS_GLOB_MAX - 1);
		return parse_fail(err, errlen, text, why, -ENAMETOOLONG);
	}
	if (has_ctrl(text, name_len))
		return parse_fail(err, errlen, text,
				  "control character in class name", -EINVAL);
	if (has_ctrl(glob, glob_len))
		return parse_fail(err, errlen, text,
				  "control character in glob", -EINVAL);

	memset(out, 0, sizeof(*out));
	memcpy(out->name, text, name_len);
	memcpy(out->glob, glob, glob_len);
	return 0;
}

/* ------------------------------------------------------------- classifier */

static bool override_valid(const struct tclass_override *o)
{
	size_t nl = strnlen(o->name, sizeof(o->name));
	size_t gl = strnlen(o->glob, sizeof(o->glob));

	return nl > 0 && nl < sizeof(o->name) && gl > 0 &&
	       gl < sizeof(o->glob) && !has_ctrl(o->name, nl) &&
	       !has_ctrl(o->glob, gl);
}

int tclass_classifier_new(const struct tclass_override *ovr, size_t n,
			  struct tclass_classifier **out)
{
	struct tclass_classifier *c;
	size_t i;

	if (out == NULL)
		return -EINVAL;
	*out = NULL;
	if (n > TCLASS_MAX_OVERRIDES)
		return -E2BIG;
	if (n > 0 && ovr == NULL)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!override_valid(&ovr[i]))
			return -EINVAL;
	c = calloc(1, sizeof(*c) + n * sizeof(c->ovr[0]));
	if (c == NULL)
		return -ENOMEM;
	c->n = n;
	if (n > 0)
		memcpy(c->ovr, ovr, n * sizeof(c->ovr[0]));
	*out = c;
	return 0;
}

void tclass_classifier_free(struct tclass_classifier *c)
{
	free(c);
}

size_t tclass_classifier_count(const struct tclass_classifier *c)
{
	return c != NULL ? c->n : 0;
}

/* Index of the first override matching comm, or -1. comm is already cut
 * to TCLASS_NAME_MAX - 1 characters and NUL-terminated. */
static int match_override(const struct tclass_classifier *c, const char *comm)
{
	size_t i;

	if (c == NULL)
		return -1;
	for (i = 0; i < c->n; i++)
		if (fnmatch(c->ovr[i].glob, comm, 0) == 0)
			return (int)i;
	return -1;
}

/* ------------------------------------------------------------- splitting */

/* Where a comm's varying number is: [ds, de), if var. */
struct split {
	uint16_t len;	/* characters read, <= TCLASS_NAME_MAX - 1 */
	uint16_t ds, de;
	bool var;	/* has a number that may vary */
	bool cut15;	/* comm may have been cut by the kernel: tail unknown */
	bool numcut;	/* the number itself may have been cut */
};

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static struct split split_comm(const char *s)
{
	struct split sp = { 0 };
	size_t len = strnlen(s, TCLASS_NAME_MAX - 1);
	size_t de, ds;

	sp.len = (uint16_t)len;
	de = len;
	while (de > 0 && !is_digit(s[de - 1]))
		de--;
	if (de == 0)
		return sp;	/* no digit at all */
	ds = de;
	while (ds > 0 && is_digit(s[ds - 1]))
		ds--;
	if (len - de > TCLASS_MAX_TAIL)
		return sp;	/* long tail: the number is identity */
	sp.ds = (uint16_t)ds;
	sp.de = (uint16_t)de;
	sp.var = true;
	/* Kernel comms keep 15 characters; MySQL's performance schema
	 * formats its OS names into 15 bytes, keeping 14. */
	sp.cut15 = len == TCLASS_COMM_LEN - 1 || len == TCLASS_NAME_MAX - 1;
	sp.numcut = de == len && (sp.cut15 || len == TCLASS_COMM_LEN - 2);
	return sp;
}

/* Copy at most TCLASS_NAME_MAX - 1 characters of comm, NUL-terminated. */
static void copy_cut(char dst[TCLASS_NAME_MAX], const char *comm, size_t len)
{
	memcpy(dst, comm, len);
	dst[len] = '\0';
}

static int put_name(char *out, size_t outlen, const char *a, size_t alen,
		    const char *b, size_t blen, const char *c, size_t clen)
{
	if (alen + blen + clen >= outlen) {
		if (outlen > 0)
			out[0] = '\0';
		return -ENOSPC;
	}
	memcpy(out, a, alen);
	memcpy(out + alen, b, blen);
	memcpy(out + alen + blen, c, clen);
	out[alen + blen + clen] = '\0';
	return 0;
}

int tclass_stem(const char *comm, char *out, size_t outlen)
{
	struct split sp;
	int err;

	if (comm == NULL || out == NULL)
		return -EINVAL;
	sp = split_comm(comm);
	if (!sp.var)
		return put_name(out, outlen, comm, sp.len, "", 0, "", 0);
	err = put_name(out, outlen, comm, sp.ds, "*", 1, comm + sp.de,
		       (size_t)(sp.len - sp.de));
	return err < 0 ? err : 1;
}

int tclass_name_alone(const struct tclass_classifier *c, const char *comm,
		      char *out, size_t outlen)
{
	char cut[TCLASS_NAME_MAX];
	size_t len;
	int o, err;

	if (comm == NULL || out == NULL)
		return -EINVAL;
	len = strnlen(comm, TCLASS_NAME_MAX - 1);
	copy_cut(cut, comm, len);
	o = match_override(c, cut);
	if (o >= 0) {
		const char *name = c->ovr[o].name;

		err = put_name(out, outlen, name, strlen(name), "", 0, "", 0);
		return err < 0 ? err : 1;
	}
	return put_name(out, outlen, cut, len, "", 0, "", 0);
}

/* ------------------------------------------------------------- assigning */

struct rec {
	const char *s;
	struct split sp;
	uint32_t idx;
};

/* A name as bytes: the class of one thread while building the table. */
struct nref {
	const char *p;
	uint16_t len;
	bool ovr;
};

static int cmp_bytes(const char *a, size_t al, const char *b, size_t bl)
{
	int r = memcmp(a, b, al < bl ? al : bl);

	if (r != 0)
		return r < 0 ? -1 : 1;
	if (al != bl)
		return al < bl ? -1 : 1;
	return 0;
}

static size_t eff_tail_len(const struct rec *r)
{
	return r->sp.cut15 ? 0 : (size_t)(r->sp.len - r->sp.de);
}

/* Same candidate pool: same prefix, same tail (not compared if cut). */
static int cmp_pool(const struct rec *a, const struct rec *b)
{
	int r = cmp_bytes(a->s, a->sp.ds, b->s, b->sp.ds);

	if (r != 0)
		return r;
	return cmp_bytes(a->s + a->sp.de, eff_tail_len(a), b->s + b->sp.de,
			 eff_tail_len(b));
}

static int cmp_number(const struct rec *a, const struct rec *b)
{
	return cmp_bytes(a->s + a->sp.ds, (size_t)(a->sp.de - a->sp.ds),
			 b->s + b->sp.ds, (size_t)(b->sp.de - b->sp.ds));
}

static int cmp_tail(const struct rec *a, const struct rec *b)
{
	return cmp_bytes(a->s + a->sp.de, (size_t)(a->sp.len - a->sp.de),
			 b->s + b->sp.de, (size_t)(b->sp.len - b->sp.de));
}

/* Pool, then number, then whole comm, then input order. */
static int cmp_rec(const void *pa, const void *pb)
{
	const struct rec *a = pa, *b = pb;
	int r;

	r = cmp_pool(a, b);
	if (r == 0)
		r = cmp_number(a, b);
	if (r == 0)
		r = cmp_tail(a, b);
	if (r == 0 && a->idx != b->idx)
		r = a->idx < b->idx ? -1 : 1;
	return r;
}

struct order_ctx_item {
	struct nref n;
	uint32_t idx;
};

static int cmp_order(const void *pa, const void *pb)
{
	const struct order_ctx_item *a = pa, *b = pb;
	int r = cmp_bytes(a->n.p, a->n.len, b->n.p, b->n.len);

	if (r == 0 && a->idx != b->idx)
		r = a->idx < b->idx ? -1 : 1;
	return r;
}

/* Decide one candidate pool recs[gs, ge). Returns true if its number is a
 * thread index; sets *tail_len to the tail kept in the class name. */
static bool pool_is_indexed(const struct rec *recs, size_t gs, size_t ge,
			    size_t *tail_len)
{
	size_t distinct = 0, max_same = 0, run = 0, i, lcp;

	for (i = gs; i < ge; i++) {
		bool new_number = i == gs || cmp_number(&recs[i - 1], &recs[i]);
		bool same_comm = !new_number && cmp_tail(&recs[i - 1], &recs[i]) == 0;

		if (new_number)
			distinct++;
		if (!same_comm)
			run = 0;
		if (!recs[i].sp.numcut) {
			run++;
			if (run > max_same)
				max_same = run;
		}
	}
	if (distinct < 2 || max_same > distinct)
		return false;

	lcp = (size_t)(recs[gs].sp.len - recs[gs].sp.de);
	for (i = gs + 1; i < ge && lcp > 0; i++) {
		const char *t0 = recs[gs].s + recs[gs].sp.de;
		const char *t = recs[i].s + recs[i].sp.de;
		size_t tl = (size_t)(recs[i].sp.len - recs[i].sp.de), k = 0;

		while (k < lcp && k < tl && t0[k] == t[k])
			k++;
		lcp = k;
	}
	*tail_len = lcp;
	return true;
}

void tclass_result_free(struct tclass_result *r)
{
	if (r == NULL)
		return;
	free(r->classes);
	free(r->class_of);
	memset(r, 0, sizeof(*r));
}

int tclass_assign(const struct tclass_classifier *c,
		  const struct tclass_thread *threads, size_t n,
		  struct tclass_result *out)
{
	struct rec *recs = NULL;
	struct nref *names = NULL;
	struct order_ctx_item *order = NULL;
	char (*pool)[TCLASS_NAME_MAX] = NULL;
	size_t nvar = 0, npool = 0, nclasses = 0, i, gs, ge, k;
	int err = 0;

	if (out == NULL)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if (n > 0 && threads == NULL)
		return -EINVAL;
	if (n > TCLASS_MAX_THREADS)
		return -E2BIG;
	for (i = 0; i < n; i++)
		if (threads[i].comm == NULL)
			return -EINVAL;
	if (n == 0)
		return 0;

	recs = calloc(n, sizeof(*recs));
	names = calloc(n, sizeof(*names));
	order = calloc(n, sizeof(*order));
	out->class_of = calloc(n, sizeof(*out->class_of));
	if (recs == NULL || names == NULL || order == NULL ||
	    out->class_of == NULL) {
		err = -ENOMEM;
		goto cleanup;
	}

	/* Overrides, and each comm as its own name until proven a pool. */
	for (i = 0; i < n; i++) {
		const char *s = threads[i].comm;
		struct split sp = split_comm(s);
		int o = -1;

		if (c != NULL && c->n > 0) {
			char cut[TCLASS_NAME_MAX];

			copy_cut(cut, s, sp.len);
			o = match_override(c, cut);
		}
		if (o >= 0) {
			names[i].p = c->ovr[o].name;
			names[i].len = (uint16_t)strlen(c->ovr[o].name);
			names[i].ovr = true;
			continue;
		}
		names[i].p = s;
		names[i].len = sp.len;
		if (sp.var) {
			recs[nvar].s = s;
			recs[nvar].sp = sp;
			recs[nvar].idx = (uint32_t)i;
			nvar++;
		}
	}

	/* Candidate pools are runs of equal prefix and tail. */
	if (nvar > 1)
		qsort(recs, nvar, sizeof(*recs), cmp_rec);
	for (gs = 0; gs < nvar; gs = ge) {
		size_t tl;

		for (ge = gs + 1; ge < nvar && cmp_pool(&recs[gs], &recs[ge]) == 0;
		     ge++)
			;
		if (ge - gs >= 2 && pool_is_indexed(recs, gs, ge, &tl))
			npool++;
	}
	if (npool > 0) {
		pool = calloc(npool, sizeof(*pool));
		if (pool == NULL) {
			err = -ENOMEM;
			goto cleanup;
		}
	}
	k = 0;
	for (gs = 0; gs < nvar; gs = ge) {
		const struct rec *r0 = &recs[gs];
		size_t tl, j;

		for (ge = gs + 1; ge < nvar && cmp_pool(&recs[gs], &recs[ge]) == 0;
		     ge++)
			;
		if (ge - gs < 2 || !pool_is_indexed(recs, gs, ge, &tl))
			continue;
		/* prefix + '*' + tail fits: the number has >= 1 digit. */
		put_name(pool[k], sizeof(pool[k]), r0->s, r0->sp.ds, "*", 1,
			 r0->s + r0->sp.de, tl);
		for (j = gs; j < ge; j++) {
			names[recs[j].idx].p = pool[k];
			names[recs[j].idx].len =
				(uint16_t)(r0->sp.ds + 1 + tl);
		}
		k++;
	}

	/* Class table: distinct names, sorted. */
	for (i = 0; i < n; i++) {
		order[i].n = names[i];
		order[i].idx = (uint32_t)i;
	}
	qsort(order, n, sizeof(*order), cmp_order);
	for (i = 0; i < n; i++)
		if (i == 0 || cmp_bytes(order[i - 1].n.p, order[i - 1].n.len,
					order[i].n.p, order[i].n.len) != 0)
			nclasses++;
	out->classes = calloc(nclasses, sizeof(*out->classes));
	if (out->classes == NULL) {
		err = -ENOMEM;
		goto cleanup;
	}
	k = 0;
	for (i = 0; i < n; i++) {
		struct tclass_class *cl;

		if (i > 0 && cmp_bytes(order[i - 1].n.p, order[i - 1].n.len,
				       order[i].n.p, order[i].n.len) != 0)
			k++;
		cl = &out->classes[k];
		if (cl->n_threads == 0)
			copy_cut(cl->name, order[i].n.p, order[i].n.len);
		cl->n_threads++;
		if (order[i].n.ovr)
			cl->from_override = true;
		out->class_of[order[i].idx] = (uint32_t)k;
	}
	out->n_classes = nclasses;
	out->n_threads = n;

cleanup:
	free(recs);
	free(names);
	free(order);
	free(pool);
	if (err < 0)
		tclass_result_free(out);
	return err;
}
