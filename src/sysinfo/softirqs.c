#include "sysinfo/softirqs.h"
#include "sysinfo/procfile.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char *const vec_names[DBT_SOFTIRQ_VECS] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU",
};
static const char *const vec_keys[DBT_SOFTIRQ_VECS] = {
	"hi", "timer", "net_tx", "net_rx", "block", "irq_poll", "tasklet", "sched", "hrtimer", "rcu",
};

const char *softirq_vec_name(int vec)
{
	return vec >= 0 && vec < DBT_SOFTIRQ_VECS ? vec_names[vec] : "?";
}

const char *softirq_vec_key(int vec)
{
	return vec >= 0 && vec < DBT_SOFTIRQ_VECS ? vec_keys[vec] : "?";
}

int softirq_vec_from_name(const char *name, size_t len)
{
	for (int v = 0; v < DBT_SOFTIRQ_VECS; v++)
		if (strlen(vec_names[v]) == len && !strncmp(name, vec_names[v], len))
			return v;
	return -1;
}

void softirqs_free(struct softirqs_table *t)
{
	for (int v = 0; v < DBT_SOFTIRQ_VECS; v++) {
		free(t->count[v]);
		t->count[v] = NULL;
	}
	t->ncpus = 0;
	t->present = 0;
}

static int count_header_cpus(const char *line, const char *eol)
{
	int n = 0;

	for (const char *p = line; p < eol; p++)
		if (!strncmp(p, "CPU", 3) && (p == line || isspace((unsigned char)p[-1])))
			n++;
	return n;
}

int softirqs_parse(const char *text, struct softirqs_table *t)
{
	const char *line = text;
	int err = 0;

	memset(t, 0, sizeof(*t));
	while (line && *line) {
		const char *eol = strchr(line, '\n');
		const char *p = line, *colon;
		int vec;

		if (!eol)
			eol = line + strlen(line);
		while (p < eol && isspace((unsigned char)*p))
			p++;
		if (!t->ncpus) {
			t->ncpus = count_header_cpus(p, eol);
			if (t->ncpus > 0)
				goto next;
		}
		colon = memchr(p, ':', (size_t)(eol - p));
		if (!colon || !t->ncpus)
			goto next;
		vec = softirq_vec_from_name(p, (size_t)(colon - p));
		if (vec < 0)
			goto next;
		free(t->count[vec]);
		t->count[vec] = calloc((size_t)t->ncpus, sizeof(uint64_t));
		if (!t->count[vec]) {
			err = -ENOMEM;
			break;
		}
		p = colon + 1;
		for (int cpu = 0; cpu < t->ncpus; cpu++) {
			char *end;

			while (p < eol && isspace((unsigned char)*p))
				p++;
			if (p >= eol || !isdigit((unsigned char)*p))
				break;  /* short row: the remaining CPUs stay 0 */
			t->count[vec][cpu] = strtoull(p, &end, 10);
			p = end;
		}
		t->present |= 1u << vec;
next:
		line = *eol ? eol + 1 : NULL;
	}
	if (!err && !t->ncpus)
		err = -ENODATA;
	if (err)
		softirqs_free(t);
	return err;
}

int softirqs_read(const char *root, struct softirqs_table *t)
{
	char *text;
	int err;

	err = procfile_slurp(root, "/proc/softirqs", 1 << 22, &text, NULL);
	if (err)
		return err;
	err = softirqs_parse(text, t);
	free(text);
	return err;
}
