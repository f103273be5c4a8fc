// SPDX-License-Identifier: GPL-2.0
#include "sysinfo/interrupts.h"
#include "core/vec.h"
#include "sysinfo/procfile.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "sysinfo/cpuset.h"

/*
 * A row of 8192 CPUs is about 90 KiB ("%10u " per CPU); anything longer
 * is not /proc/interrupts. The caps bound memory on garbage input.
 */
#define LINE_MAX_BYTES (256 * 1024)
#define COLS_MAX DBT_CPUSET_MAX
#define ROWS_MAX (1u << 20)
/* The chip/flow part is at most 4 tokens; look a little further. */
#define CHIP_TOKENS_MAX 16

struct tok {
	const char *p;
	size_t n;
};

/* NUL counts as a blank so embedded NULs never reach a string. */
static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' ||
	       c == '\f' || c == '\0';
}

static bool next_tok(const char **p, const char *end, struct tok *t)
{
	const char *s = *p;

	while (s < end && is_blank(*s))
		s++;
	if (s >= end) {
		*p = s;
		return false;
	}
	t->p = s;
	while (s < end && !is_blank(*s))
		s++;
	t->n = (size_t)(s - t->p);
	*p = s;
	return true;
}

static bool tok_eq(struct tok t, const char *s)
{
	return t.n == strlen(s) && memcmp(t.p, s, t.n) == 0;
}

static bool parse_u64(struct tok t, uint64_t *out)
{
	uint64_t v = 0;

	if (t.n == 0 || t.n > 20)
		return false;
	for (size_t i = 0; i < t.n; i++) {
		unsigned int d = (unsigned char)t.p[i] - '0';

		if (d > 9)
			return false;
		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

/* People shorten wide dumps with "..." (ASCII or U+2026 "…"). */
static bool is_elision(struct tok t)
{
	size_t i = 0;

	if (t.n >= 2) {
		while (i < t.n && t.p[i] == '.')
			i++;
		if (i == t.n)
			return true;
	}
	for (i = 0; i + 3 <= t.n; i += 3)
		if (memcmp(t.p + i, "\xe2\x80\xa6", 3) != 0)
			return false;
	return t.n > 0 && i == t.n;
}

/*
 * The token that ends the chip part: the flow handler name the kernel
 * prints as "-%-8s" (glued to the chip on 3.x, to the hwirq since 4.x),
 * or "Edge"/"Level" with GENERIC_IRQ_SHOW_LEVEL (arm64 GIC).
 */
static bool is_flow_marker(struct tok t)
{
	static const char *const flows[] = {
		"edge", "level", "fasteoi", "simple", "percpu", "percpu_devid",
		"eoi", "bad", "untracked",
	};
	const char *dash = NULL;

	if (tok_eq(t, "Edge") || tok_eq(t, "Level"))
		return true;
	for (size_t i = t.n; i > 0; i--) {
		if (t.p[i - 1] == '-') {
			dash = t.p + i - 1;
			break;
		}
	}
	if (!dash || dash + 1 == t.p + t.n)
		return false;
	/* Xen has no hwirq: "-virq", "-event" stand alone. */
	if (dash == t.p)
		return true;
	struct tok suffix = { dash + 1, (size_t)(t.p + t.n - dash - 1) };

	for (size_t i = 0; i < sizeof(flows) / sizeof(flows[0]); i++)
		if (tok_eq(suffix, flows[i]))
			return true;
	return false;
}

static void copy_clean(char *dst, size_t size, const char *p, size_t n)
{
	if (n >= size)
		n = size - 1;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];

		dst[i] = c < 0x20 || c == 0x7f ? ' ' : (char)c;
	}
	dst[n] = '\0';
}

/* Tokens joined by single blanks, truncated to size. */
static void join_toks(char *dst, size_t size, const struct tok *t, size_t n)
{
	size_t off = 0;

	dst[0] = '\0';
	for (size_t i = 0; i < n && off + 1 < size; i++) {
		if (i)
			dst[off++] = ' ';
		copy_clean(dst + off, size - off, t[i].p, t[i].n);
		off += strlen(dst + off);
	}
	dst[off < size ? off : size - 1] = '\0';
}

static void trim(const char **p, const char **end)
{
	while (*p < *end && is_blank(**p))
		(*p)++;
	while (*end > *p && is_blank((*end)[-1]))
		(*end)--;
}

struct parse_state {
	struct dbt_interrupts *it;
	size_t rows_cap;
	uint64_t *tmp;			/* counts of the current line */
	bool header_seen;
	bool rows_seen;
};

static int parse_header(struct parse_state *st, const char *p,
			const char *end)
{
	struct dbt_interrupts *it = st->it;
	const char *s = p;
	struct tok t;
	unsigned int n = 0;

	/* First pass: is every token "CPU<n>"? */
	while (next_tok(&s, end, &t)) {
		uint64_t cpu;

		if (t.n < 4 || memcmp(t.p, "CPU", 3) != 0)
			return 0;
		struct tok num = { t.p + 3, t.n - 3 };

		if (!parse_u64(num, &cpu) || cpu >= COLS_MAX)
			return 0;
		n++;
	}
	if (n == 0)
		return 0;
	if (n > COLS_MAX)
		n = COLS_MAX;
	it->col_cpu = calloc(n, sizeof(*it->col_cpu));
	if (!it->col_cpu)
		return -ENOMEM;
	s = p;
	for (unsigned int i = 0; i < n && next_tok(&s, end, &t); i++) {
		uint64_t cpu = 0;
		struct tok num = { t.p + 3, t.n - 3 };

		parse_u64(num, &cpu);
		it->col_cpu[i] = (unsigned int)cpu;
	}
	it->ncols = n;
	it->has_header = true;
	st->header_seen = true;
	return 1;
}

static void split_text(struct dbt_irq_row *row, const char *p,
		       const char *end)
{
	struct tok t[CHIP_TOKENS_MAX];
	size_t k = 0, j;
	const char *s;

	trim(&p, &end);
	s = p;
	while (k < CHIP_TOKENS_MAX && next_tok(&s, end, &t[k]))
		k++;
	if (k == 0)
		return;
	if (row->irq < 0) {
		/* Arch rows carry a description, not chip and action. */
		copy_clean(row->chip, sizeof(row->chip), p, (size_t)(end - p));
		return;
	}
	for (j = 0; j < k && !is_flow_marker(t[j]); j++)
		;
	if (j < k) {
		while (j + 1 < k && is_flow_marker(t[j + 1]))
			j++;
		join_toks(row->chip, sizeof(row->chip), t, j + 1);
		s = t[j].p + t[j].n;
	} else if (k >= 2) {
		/* No flow name: guess that the last word is the action. */
		size_t nchip = 0;

		s = end;
		while (s > p && !is_blank(s[-1]))
			s--;
		while (nchip < k && t[nchip].p < s)
			nchip++;
		join_toks(row->chip, sizeof(row->chip), t, nchip);
	} else {
		join_toks(row->chip, sizeof(row->chip), t, 1);
		return;
	}
	trim(&s, &end);
	copy_clean(row->actions, sizeof(row->actions), s, (size_t)(end - s));
}

static int add_row(struct parse_state *st, const struct dbt_irq_row *row)
{
	struct dbt_interrupts *it = st->it;
	int err = VEC_RESERVE(it->rows, st->rows_cap, it->n_rows + 1);

	if (err)
		return err;
	it->rows[it->n_rows++] = *row;
	return 0;
}

static int parse_line(void *ctx, const char *line, size_t len, bool truncated)
{
	struct parse_state *st = ctx;
	struct dbt_interrupts *it = st->it;
	const char *p = line, *end = line + len;
	struct dbt_irq_row row;
	struct tok t;
	int err;

	if (truncated) {
		it->n_truncated++;
		return 0;
	}
	while (p < end && is_blank(*p))
		p++;
	if (p == end)
		return 0;
	if (!st->header_seen && !st->rows_seen && end - p > 3 &&
	    memcmp(p, "CPU", 3) == 0) {
		err = parse_header(st, p, end);
		if (err < 0)
			return err;
		if (err > 0)
			return 0;
	}

	memset(&row, 0, sizeof(row));
	const char *label = p;

	while (p < end && p - label < DBT_IRQ_NAME_MAX &&
	       ((*p >= '0' && *p <= '9') || (*p >= 'A' && *p <= 'Z') ||
		(*p >= 'a' && *p <= 'z') || *p == '_'))
		p++;
	if (p == label || p >= end || *p != ':' ||
	    p - label >= DBT_IRQ_NAME_MAX || it->n_rows >= ROWS_MAX) {
		it->n_skipped++;
		return 0;
	}
	memcpy(row.name, label, (size_t)(p - label));
	row.irq = -1;
	if (p - label <= 9) {
		struct tok lt = { label, (size_t)(p - label) };
		uint64_t v;

		if (parse_u64(lt, &v))
			row.irq = (int)v;
	}
	p++;

	unsigned int cap = it->has_header ? it->ncols : COLS_MAX;
	const char *text = p;

	while (next_tok(&p, end, &t)) {
		uint64_t v;

		if (is_elision(t)) {
			row.elided = true;
			text = p;
			continue;
		}
		/* Numbers after "..." belong to unknown columns: drop them. */
		if (row.n_counts < cap && parse_u64(t, &v)) {
			if (!row.elided)
				st->tmp[row.n_counts++] = v;
			text = p;
			continue;
		}
		break;
	}
	if (row.n_counts) {
		row.counts = malloc(row.n_counts * sizeof(*row.counts));
		if (!row.counts)
			return -ENOMEM;
		memcpy(row.counts, st->tmp, row.n_counts * sizeof(*row.counts));
	}
	split_text(&row, text, end);
	err = add_row(st, &row);
	if (err) {
		free(row.counts);
		return err;
	}
	if (row.elided)
		it->elided = true;
	st->rows_seen = true;
	return 0;
}

static int finish(struct parse_state *st, int err)
{
	struct dbt_interrupts *it = st->it;

	free(st->tmp);
	st->tmp = NULL;
	if (err || it->has_header)
		return err;
	/* No header: the widest complete row tells the CPU count. */
	unsigned int w = 0, we = 0;

	for (size_t i = 0; i < it->n_rows; i++) {
		unsigned int n = it->rows[i].n_counts;

		if (it->rows[i].elided)
			we = n > we ? n : we;
		else
			w = n > w ? n : w;
	}
	it->ncols = w ? w : we;
	if (!it->ncols)
		return 0;
	it->col_cpu = calloc(it->ncols, sizeof(*it->col_cpu));
	if (!it->col_cpu)
		return -ENOMEM;
	for (unsigned int i = 0; i < it->ncols; i++)
		it->col_cpu[i] = i;
	return 0;
}

static int start(struct parse_state *st, struct dbt_interrupts *out)
{
	memset(out, 0, sizeof(*out));
	memset(st, 0, sizeof(*st));
	st->it = out;
	st->tmp = malloc(COLS_MAX * sizeof(*st->tmp));
	return st->tmp ? 0 : -ENOMEM;
}

int dbt_interrupts_parse(const char *buf, size_t len,
			 struct dbt_interrupts *out)
{
	struct parse_state st;
	int err = start(&st, out);

	if (!err)
		err = procfile_each_line_buf(buf, len, LINE_MAX_BYTES,
					     parse_line, &st);
	return finish(&st, err);
}

int dbt_interrupts_read_file(const char *path, struct dbt_interrupts *out)
{
	struct parse_state st;
	int err = start(&st, out);

	if (!err)
		err = procfile_each_line(path, LINE_MAX_BYTES, parse_line, &st);
	return finish(&st, err);
}

int dbt_interrupts_read(const char *root, struct dbt_interrupts *out)
{
	struct parse_state st;
	int err = start(&st, out);

	if (!err)
		err = procfile_each_line_at(root, "proc/interrupts", LINE_MAX_BYTES, parse_line, &st);
	return finish(&st, err);
}

void dbt_interrupts_free(struct dbt_interrupts *it)
{
	if (!it)
		return;
	for (size_t i = 0; i < it->n_rows; i++)
		free(it->rows[i].counts);
	free(it->rows);
	free(it->col_cpu);
	memset(it, 0, sizeof(*it));
}

const struct dbt_irq_row *dbt_interrupts_find(const struct dbt_interrupts *it,
					      const char *name)
{
	for (size_t i = 0; i < it->n_rows; i++)
		if (strcmp(it->rows[i].name, name) == 0)
			return &it->rows[i];
	return NULL;
}

const struct dbt_irq_row *
dbt_interrupts_find_irq(const struct dbt_interrupts *it, int irq)
{
	if (irq < 0)
		return NULL;
	for (size_t i = 0; i < it->n_rows; i++)
		if (it->rows[i].irq == irq)
			return &it->rows[i];
	return NULL;
}

int dbt_interrupts_col_of_cpu(const struct dbt_interrupts *it,
			      unsigned int cpu)
{
	for (unsigned int i = 0; i < it->ncols && it->col_cpu; i++)
		if (it->col_cpu[i] == cpu)
			return (int)i;
	return -1;
}

uint64_t dbt_irq_row_count(const struct dbt_irq_row *row, unsigned int col)
{
	return col < row->n_counts ? row->counts[col] : 0;
}

uint64_t dbt_irq_row_total(const struct dbt_irq_row *row)
{
	uint64_t sum = 0;

	for (unsigned int i = 0; i < row->n_counts; i++)
		sum += row->counts[i];
	return sum;
}

static bool action_is_dev(const char *a, size_t n, const char *dev)
{
	size_t m = strlen(dev);

	if (m == 0 || n < m || memcmp(a, dev, m) != 0)
		return false;
	return n == m || a[m] == '-';
}

bool dbt_irq_action_is_nic_queue(const char *action, const char *dev)
{
	if (!action || !dev)
		return false;
	return action_is_dev(action, strlen(action), dev);
}

bool dbt_irq_row_is_nic_queue(const struct dbt_irq_row *row, const char *dev)
{
	const char *p = row->actions;
	const char *end = p + strnlen(p, sizeof(row->actions));

	if (row->irq < 0 || !dev)
		return false;
	/* Shared IRQs list their handlers as "a, b". */
	while (p < end) {
		const char *c = memchr(p, ',', (size_t)(end - p));
		const char *aend = c ? c : end;

		trim(&p, &aend);
		if (action_is_dev(p, (size_t)(aend - p), dev))
			return true;
		p = c ? c + 1 : end;
	}
	return false;
}
