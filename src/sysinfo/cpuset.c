// SPDX-License-Identifier: GPL-2.0
#include "sysinfo/cpuset.h"
#include "sysinfo/procfile.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void dbt_cpuset_zero(struct dbt_cpuset *set)
{
	memset(set, 0, sizeof(*set));
}

int dbt_cpuset_set(struct dbt_cpuset *set, unsigned int cpu)
{
	if (cpu >= DBT_CPUSET_MAX)
		return -ERANGE;
	set->bits[cpu / 64] |= UINT64_C(1) << (cpu % 64);
	return 0;
}

void dbt_cpuset_clear(struct dbt_cpuset *set, unsigned int cpu)
{
	if (cpu < DBT_CPUSET_MAX)
		set->bits[cpu / 64] &= ~(UINT64_C(1) << (cpu % 64));
}

bool dbt_cpuset_test(const struct dbt_cpuset *set, unsigned int cpu)
{
	if (cpu >= DBT_CPUSET_MAX)
		return false;
	return (set->bits[cpu / 64] >> (cpu % 64)) & 1;
}

unsigned int dbt_cpuset_count(const struct dbt_cpuset *set)
{
	unsigned int n = 0;

	for (size_t i = 0; i < DBT_CPUSET_WORDS; i++)
		n += (unsigned int)__builtin_popcountll(set->bits[i]);
	return n;
}

bool dbt_cpuset_empty(const struct dbt_cpuset *set)
{
	for (size_t i = 0; i < DBT_CPUSET_WORDS; i++)
		if (set->bits[i])
			return false;
	return true;
}

bool dbt_cpuset_equal(const struct dbt_cpuset *a, const struct dbt_cpuset *b)
{
	return memcmp(a->bits, b->bits, sizeof(a->bits)) == 0;
}

void dbt_cpuset_and(struct dbt_cpuset *dst, const struct dbt_cpuset *a,
		    const struct dbt_cpuset *b)
{
	for (size_t i = 0; i < DBT_CPUSET_WORDS; i++)
		dst->bits[i] = a->bits[i] & b->bits[i];
}

void dbt_cpuset_or(struct dbt_cpuset *dst, const struct dbt_cpuset *a,
		   const struct dbt_cpuset *b)
{
	for (size_t i = 0; i < DBT_CPUSET_WORDS; i++)
		dst->bits[i] = a->bits[i] | b->bits[i];
}

int dbt_cpuset_next(const struct dbt_cpuset *set, int prev)
{
	unsigned int start = prev < 0 ? 0 : (unsigned int)prev + 1;

	if (start >= DBT_CPUSET_MAX)
		return -1;
	size_t w = start / 64;
	uint64_t word = set->bits[w] & (~UINT64_C(0) << (start % 64));

	for (;;) {
		if (word)
			return (int)(w * 64 + (size_t)__builtin_ctzll(word));
		if (++w >= DBT_CPUSET_WORDS)
			return -1;
		word = set->bits[w];
	}
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
	       c == '\f';
}

static void trim(const char **p, const char **end)
{
	while (*p < *end && is_space(**p))
		(*p)++;
	while (*end > *p && is_space((*end)[-1]))
		(*end)--;
}

/*
 * Decimal without strtoul: the input is not NUL-terminated and an overflow
 * must not wrap into a small, valid-looking CPU number.
 */
static int parse_uint(const char **p, const char *end, unsigned int *out)
{
	const char *s = *p;
	unsigned long v = 0;

	if (s >= end || *s < '0' || *s > '9')
		return -EINVAL;
	while (s < end && *s >= '0' && *s <= '9') {
		v = v * 10 + (unsigned long)(*s - '0');
		if (v > UINT_MAX)
			return -ERANGE;
		s++;
	}
	*p = s;
	*out = (unsigned int)v;
	return 0;
}

/* One "a", "a-b" or "a-b:used/group" region, exactly spanning [p, end). */
static int parse_region(struct dbt_cpuset *set, const char *p, const char *end)
{
	unsigned int first, last, used, group;
	int err;

	err = parse_uint(&p, end, &first);
	if (err)
		return err;
	last = first;
	used = group = 1;
	if (p < end && *p == '-') {
		p++;
		err = parse_uint(&p, end, &last);
		if (err)
			return err;
		if (p < end && *p == ':') {
			p++;
			err = parse_uint(&p, end, &used);
			if (err)
				return err;
			if (p >= end || *p != '/')
				return -EINVAL;
			p++;
			err = parse_uint(&p, end, &group);
			if (err)
				return err;
		}
	}
	if (p != end)
		return -EINVAL;
	if (last < first || group == 0 || used > group)
		return -EINVAL;
	if (last >= DBT_CPUSET_MAX)
		return -ERANGE;
	/* Bounded by DBT_CPUSET_MAX: last was checked above. */
	for (unsigned int cpu = first; cpu <= last; cpu++)
		if ((cpu - first) % group < used)
			dbt_cpuset_set(set, cpu);
	return 0;
}

int dbt_cpuset_parse_list_n(struct dbt_cpuset *set, const char *buf,
			    size_t len)
{
	dbt_cpuset_zero(set);
	if (!buf)
		return len ? -EINVAL : 0;
	const char *p = buf, *end = buf + len;

	trim(&p, &end);
	while (p < end) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		const char *rend = comma ? comma : end;

		/* The kernel skips empty regions ("1,,2", "0-3,"); so do we. */
		if (rend > p) {
			int err = parse_region(set, p, rend);

			if (err) {
				dbt_cpuset_zero(set);
				return err;
			}
		}
		p = comma ? comma + 1 : end;
	}
	return 0;
}

int dbt_cpuset_parse_list(struct dbt_cpuset *set, const char *str)
{
	return dbt_cpuset_parse_list_n(set, str, str ? strlen(str) : 0);
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int dbt_cpuset_parse_mask_n(struct dbt_cpuset *set, const char *buf,
			    size_t len)
{
	unsigned int word = 0;
	int err = 0;

	dbt_cpuset_zero(set);
	if (!buf)
		return len ? -EINVAL : 0;
	const char *p = buf, *end = buf + len;

	trim(&p, &end);
	if (p == end)
		return 0;
	/* Walk chunks right to left: the last one holds CPUs 0-31. */
	while (end > p) {
		const char *cstart = end;
		uint32_t v = 0;

		while (cstart > p && cstart[-1] != ',')
			cstart--;
		if (end - cstart < 1 || end - cstart > 8) {
			err = -EINVAL;
			goto fail;
		}
		for (const char *c = cstart; c < end; c++) {
			int h = hexval(*c);

			if (h < 0) {
				err = -EINVAL;
				goto fail;
			}
			v = (v << 4) | (uint32_t)h;
		}
		if (v) {
			if ((size_t)word * 32 >= DBT_CPUSET_MAX) {
				err = -ERANGE;
				goto fail;
			}
			set->bits[word / 2] |= (uint64_t)v << ((word % 2) * 32);
		}
		/* Zero words beyond the set are harmless; cap the count anyway. */
		if (word < UINT_MAX)
			word++;
		if (cstart == p)
			break;
		end = cstart - 1; /* skip the comma */
		if (end == p) {
			err = -EINVAL; /* leading comma */
			goto fail;
		}
	}
	return 0;
fail:
	dbt_cpuset_zero(set);
	return err;
}

int dbt_cpuset_parse_mask(struct dbt_cpuset *set, const char *str)
{
	return dbt_cpuset_parse_mask_n(set, str, str ? strlen(str) : 0);
}

int dbt_cpuset_format_list(const struct dbt_cpuset *set, char *buf,
			   size_t size)
{
	size_t off = 0;
	int cpu = dbt_cpuset_next(set, -1);

	if (size)
		buf[0] = '\0';
	while (cpu >= 0) {
		int last = cpu, n;

		while (dbt_cpuset_next(set, last) == last + 1)
			last++;
		if (last == cpu)
			n = snprintf(buf + off, size > off ? size - off : 0,
				     "%s%d", off ? "," : "", cpu);
		else
			n = snprintf(buf + off, size > off ? size - off : 0,
				     "%s%d-%d", off ? "," : "", cpu, last);
		if (n < 0 || (size_t)n >= (size > off ? size - off : 0))
			return -ENOSPC;
		off += (size_t)n;
		cpu = dbt_cpuset_next(set, last);
	}
	return (int)off;
}

/*
 * The longest cpulist of 8192 CPUs ("0,2,4,...") is about 20 KiB; a hex
 * mask of 8192 CPUs is 2304 bytes.
 */
#define CPUSET_FILE_MAX (64 * 1024)

/* Reads a cpuset file under root and parses it with parse. */
static int read_cpuset(const char *root, const char *rel, struct dbt_cpuset *set,
		       int (*parse)(struct dbt_cpuset *, const char *, size_t))
{
	char *buf;
	size_t len;
	int err;

	dbt_cpuset_zero(set);
	err = procfile_slurp(root, rel, CPUSET_FILE_MAX, &buf, &len);
	if (err)
		return err;
	err = parse(set, buf, len);
	free(buf);
	return err;
}

int dbt_cpuset_read_list(const char *root, const char *rel,
			 struct dbt_cpuset *set)
{
	return read_cpuset(root, rel, set, dbt_cpuset_parse_list_n);
}

int dbt_cpuset_read_mask(const char *root, const char *rel,
			 struct dbt_cpuset *set)
{
	return read_cpuset(root, rel, set, dbt_cpuset_parse_mask_n);
}
