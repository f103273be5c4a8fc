#include "render/record_summary.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Findings, most severe first, then in the order they were raised. */
static void print_findings(FILE *f, const struct finding_list *l)
{
	int shown = 0;

	if (!l || !l->n) {
		fputs("findings: none\n", f);
		return;
	}
	fprintf(f, "findings (%d):\n", l->n);
	for (int sev = SEV_CRITICAL; sev >= SEV_INFO; sev--)
		for (int i = 0; i < l->n && shown < RECORD_SUMMARY_ROWS; i++) {
			const struct finding *x = &l->items[i];

			if ((int)x->severity != sev)
				continue;
			fprintf(f, "  %-8s %s: %s\n", finding_severity_name(x->severity), x->id, x->title);
			shown++;
		}
	if (l->n > shown)
		fprintf(f, "  ... %d more in the capture\n", l->n - shown);
}

struct busy_class {
	const struct sched_group_stats *p;
	const struct sched_class_stats *c;
};

static int by_oncpu(const void *a, const void *b)
{
	double x = ((const struct busy_class *)a)->c->oncpu_pct, y = ((const struct busy_class *)b)->c->oncpu_pct;

	return x > y ? -1 : x < y;
}

static void us(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, " %9.0f", v);
	else
		fprintf(f, " %9s", "-");
}

/* The thread classes with the most on-CPU time, over every process. */
static int print_classes(FILE *f, const struct sched_summary *s, int load_pid)
{
	struct busy_class *b;
	size_t n = 0;

	if (!s)
		return 0;
	for (int i = 0; i < s->n_groups; i++)
		n += (size_t)s->groups[i].n_classes;
	if (!n)
		return 0;
	b = malloc(n * sizeof(*b));
	if (!b)
		return -ENOMEM;
	n = 0;
	for (int i = 0; i < s->n_groups; i++)
		for (int k = 0; k < s->groups[i].n_classes; k++)
			b[n++] = (struct busy_class){ &s->groups[i], &s->groups[i].classes[k] };
	qsort(b, n, sizeof(*b), by_oncpu);
	fprintf(f, "busiest classes:\n  %7s %-15s %-24s %3s %7s %9s\n", "PID", "COMM", "CLASS", "THR",
		"%CPU", "RQp99us");
	for (size_t i = 0; i < n && i < RECORD_SUMMARY_ROWS; i++) {
		fprintf(f, "  %7d %-15s %-24s %3d %7.1f", b[i].p->pid, b[i].p->comm, b[i].c->name,
			b[i].c->threads, b[i].c->oncpu_pct);
		us(f, b[i].c->runq_p99_us);
		fputs(load_pid && b[i].p->pid == load_pid ? "  (load)\n" : "\n", f);
	}
	free(b);
	return 0;
}

/* The ports that carried requests, most first: rate and response time.
 * (The stages of a request's time are not measured yet.) */
static void print_ports(FILE *f, const struct net_interval *ni)
{
	int shown = 0;

	for (int i = 0; ni && !ni->loss_only && i < ni->n_ports && shown < RECORD_SUMMARY_ROWS; i++) {
		const struct net_port_stats *p = &ni->ports[i];

		if (!p->requests)
			continue;
		if (!shown++)
			fprintf(f, "ports:\n  %5s %-6s %10s %9s %9s\n", "PORT", "ROLE", "REQ/s", "p50us", "p99us");
		fprintf(f, "  %5u %-6s %10.0f", p->port, net_role_name(p->role), p->requests_per_s);
		us(f, p->resp_p50_us);
		us(f, p->resp_p99_us);
		fputc('\n', f);
	}
}

int record_summary_print(FILE *f, const struct record_summary *s)
{
	int err;

	fprintf(f, "%s ran %.3f s (%s)\n", s->program, s->duration_s, s->ended);
	print_findings(f, s->findings);
	err = print_classes(f, s->sched, s->load_pid);
	if (err)
		return err;
	print_ports(f, s->net);
	return ferror(f) ? -EIO : 0;
}
