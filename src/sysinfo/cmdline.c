// SPDX-License-Identifier: GPL-2.0
#include "sysinfo/cmdline.h"
#include "sysinfo/procfile.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* COMMAND_LINE_SIZE is at most 4096 on common arches; leave headroom. */
#define CMDLINE_FILE_MAX (64 * 1024)

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
	       c == '\f' || c == '\0';
}

static bool is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* The kernel's parameq(): '-' and '_' are interchangeable in names. */
static bool name_eq(const char *p, size_t n, const char *name)
{
	size_t m = strlen(name);

	if (n != m)
		return false;
	for (size_t i = 0; i < n; i++) {
		char a = p[i] == '-' ? '_' : p[i];
		char b = name[i] == '-' ? '_' : name[i];

		if (a != b)
			return false;
	}
	return true;
}

static bool val_eq(const char *v, size_t n, const char *s)
{
	return strlen(s) == n && memcmp(v, s, n) == 0;
}

static void set_str(struct dbt_cmdline_str *s, const char *v, size_t n)
{
	s->present = true;
	if (n >= sizeof(s->value))
		n = sizeof(s->value) - 1;
	memcpy(s->value, v ? v : "", n);
	s->value[n] = '\0';
}

static void set_cpus(struct dbt_cmdline_cpus *c, const char *v, size_t n,
		     bool has_value)
{
	size_t r = n < sizeof(c->raw) - 1 ? n : sizeof(c->raw) - 1;

	c->present = true;
	c->has_value = has_value;
	memcpy(c->raw, v ? v : "", r);
	c->raw[r] = '\0';
	c->parse_err = has_value ? dbt_cpuset_parse_list_n(&c->cpus, v, n) : 0;
	if (!has_value)
		dbt_cpuset_zero(&c->cpus);
}

/* simple_strtol(str, NULL, 0) as skew_tick= uses it: stops at junk, 0 if
 * nothing parses, and here saturates instead of overflowing. */
static long parse_long(const char *v, size_t n)
{
	size_t i = 0;
	bool neg = false;
	unsigned int base = 10;
	unsigned long acc = 0;

	if (i < n && (v[i] == '-' || v[i] == '+'))
		neg = v[i++] == '-';
	if (i + 1 < n && v[i] == '0' && (v[i + 1] == 'x' || v[i + 1] == 'X')) {
		base = 16;
		i += 2;
	} else if (i < n && v[i] == '0') {
		base = 8;
	}
	for (; i < n; i++) {
		unsigned int d;

		if (v[i] >= '0' && v[i] <= '9')
			d = (unsigned int)(v[i] - '0');
		else if (v[i] >= 'a' && v[i] <= 'f')
			d = (unsigned int)(v[i] - 'a' + 10);
		else if (v[i] >= 'A' && v[i] <= 'F')
			d = (unsigned int)(v[i] - 'A' + 10);
		else
			break;
		if (d >= base)
			break;
		if (acc > ((unsigned long)LONG_MAX - d) / base) {
			acc = LONG_MAX;
			break;
		}
		acc = acc * base + d;
	}
	return neg ? -(long)acc : (long)acc;
}

/* Mirrors housekeeping_isolcpus_setup(): alphabetic words ending in ','
 * are flags; an unknown word with other characters voids the option. */
static void parse_isolcpus(struct dbt_cmdline *out, const char *v, size_t n)
{
	static const struct {
		const char *word;
		unsigned int flag;
	} flags[] = {
		{ "nohz,", DBT_ISOL_NOHZ },
		{ "domain,", DBT_ISOL_DOMAIN },
		{ "managed_irq,", DBT_ISOL_MANAGED_IRQ },
	};
	const char *p = v, *end = v + n;
	unsigned int f = 0;

	while (p < end && is_alpha(*p)) {
		bool known = false;

		for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
			size_t l = strlen(flags[i].word);

			if ((size_t)(end - p) >= l &&
			    memcmp(p, flags[i].word, l) == 0) {
				f |= flags[i].flag;
				p += l;
				known = true;
				break;
			}
		}
		if (known)
			continue;
		const char *word = p;

		while (p < end && *p != ',')
			p++;
		for (const char *c = word; c < p; c++) {
			if (!is_alpha(*c) && *c != '_') {
				set_cpus(&out->isolcpus, v, n, true);
				dbt_cpuset_zero(&out->isolcpus.cpus);
				out->isolcpus.parse_err = -EINVAL;
				out->isolcpus_flags = 0;
				return;
			}
		}
		f |= DBT_ISOL_UNKNOWN;
		if (p < end)
			p++;
	}
	if (!(f & ~DBT_ISOL_UNKNOWN))
		f |= DBT_ISOL_DOMAIN;
	out->isolcpus_flags = f;
	set_cpus(&out->isolcpus, p, (size_t)(end - p), true);
	/* raw keeps the flags: it is evidence, shown as the user wrote it. */
	size_t r = n < sizeof(out->isolcpus.raw) - 1 ?
			   n : sizeof(out->isolcpus.raw) - 1;
	memcpy(out->isolcpus.raw, v, r);
	out->isolcpus.raw[r] = '\0';
}

static unsigned int tsc_flag(const char *v, size_t n)
{
	static const struct {
		const char *word;
		unsigned int flag;
	} words[] = {
		{ "reliable", DBT_TSC_RELIABLE },
		{ "unstable", DBT_TSC_UNSTABLE },
		{ "nowatchdog", DBT_TSC_NOWATCHDOG },
		{ "noirqtime", DBT_TSC_NOIRQTIME },
		{ "recalibrate", DBT_TSC_RECALIBRATE },
		{ "watchdog", DBT_TSC_WATCHDOG },
	};

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (val_eq(v, n, words[i].word))
			return words[i].flag;
	return DBT_TSC_OTHER;
}

static void handle_param(struct dbt_cmdline *out, const char *name,
			 size_t nlen, const char *val, size_t vlen,
			 bool has_val)
{
	if (name_eq(name, nlen, "skew_tick")) {
		out->skew_tick_present = true;
		out->skew_tick = has_val ? parse_long(val, vlen) : 0;
	} else if (name_eq(name, nlen, "nohz")) {
		set_str(&out->nohz, val, vlen);
	} else if (name_eq(name, nlen, "nohz_full")) {
		set_cpus(&out->nohz_full, val, vlen, has_val);
	} else if (name_eq(name, nlen, "isolcpus")) {
		if (has_val)
			parse_isolcpus(out, val, vlen);
		else
			set_cpus(&out->isolcpus, val, 0, false);
	} else if (name_eq(name, nlen, "rcu_nocbs")) {
		set_cpus(&out->rcu_nocbs, val, vlen, has_val);
	} else if (name_eq(name, nlen, "idle")) {
		set_str(&out->idle, val, vlen);
	} else if (name_eq(name, nlen, "mitigations")) {
		set_str(&out->mitigations, val, vlen);
	} else if (name_eq(name, nlen, "tsc")) {
		set_str(&out->tsc, val, vlen);
		if (has_val)
			out->tsc_flags |= tsc_flag(val, vlen);
	} else if (name_eq(name, nlen, "clocksource")) {
		set_str(&out->clocksource, val, vlen);
	}
}

void dbt_cmdline_parse(const char *buf, size_t len, struct dbt_cmdline *out)
{
	memset(out, 0, sizeof(*out));
	if (!buf)
		return;
	const char *p = buf, *end = buf + len;

	while (p < end) {
		while (p < end && is_space(*p))
			p++;
		if (p >= end)
			break;
		/* next_arg(): a token ends at unquoted whitespace. */
		const char *tok = p, *eq = NULL;
		bool in_quote = false;

		if (*p == '"') {
			tok = ++p;
			in_quote = true;
		}
		for (; p < end; p++) {
			if (is_space(*p) && !in_quote)
				break;
			if (!eq && *p == '=')
				eq = p;
			if (*p == '"')
				in_quote = !in_quote;
		}
		const char *tend = p;

		if (tend > tok && tend[-1] == '"')
			tend--;
		if (!eq && tend - tok == 2 && memcmp(tok, "--", 2) == 0)
			break;
		if (out->n_params < UINT_MAX)
			out->n_params++;
		if (!eq || eq >= tend) {
			handle_param(out, tok, (size_t)(tend - tok), NULL, 0,
				     false);
			continue;
		}
		const char *val = eq + 1;

		if (val < tend && *val == '"')
			val++;
		handle_param(out, tok, (size_t)(eq - tok), val,
			     (size_t)(tend - val), true);
	}
}

int dbt_cmdline_read(const char *root, struct dbt_cmdline *out)
{
	char *buf;
	size_t len;
	int err;

	memset(out, 0, sizeof(*out));
	err = procfile_slurp(root, "proc/cmdline", CMDLINE_FILE_MAX, &buf,
			     &len);
	if (err)
		return err;
	dbt_cmdline_parse(buf, len, out);
	free(buf);
	return 0;
}
