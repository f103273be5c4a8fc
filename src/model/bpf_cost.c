#include "model/bpf_cost.h"

#include <math.h>
#include <string.h>

void bpf_cost_add(struct bpf_cost *to, const struct bpf_cost *c)
{
	to->on_ns += c->on_ns;
	for (int f = 0; f < FAM_COUNT; f++) {
		to->fam[f].run_ns += c->fam[f].run_ns;
		to->fam[f].runs += c->fam[f].runs;
		to->fam_on[f] = to->fam_on[f] || c->fam_on[f];
	}
}

struct bpf_runs bpf_runs_delta(const struct bpf_runs *a, const struct bpf_runs *b)
{
	struct bpf_runs d = { 0, 0 };

	if (b->run_ns >= a->run_ns && b->runs >= a->runs) {
		d.run_ns = b->run_ns - a->run_ns;
		d.runs = b->runs - a->runs;
	}
	return d;
}

bool bpf_cost_measured(const struct bpf_cost *c)
{
	return c->on_ns > 0;
}

struct bpf_cost_row bpf_cost_row(const struct bpf_cost *c, int f)
{
	struct bpf_cost_row r;
	double on_s = (double)c->on_ns / 1e9;

	memset(&r, 0, sizeof(r));
	r.family = f;
	for (int i = 0; i < FAM_COUNT; i++) {
		if (f != FAM_COUNT && i != f)
			continue;
		r.run_ns += c->fam[i].run_ns;
		r.runs += c->fam[i].runs;
	}
	if (!bpf_cost_measured(c)) {
		r.cpu_pct = r.ns_per_event = r.events_per_s = NAN;
		return r;
	}
	r.cpu_pct = 100.0 * (double)r.run_ns / (double)c->on_ns;
	r.events_per_s = (double)r.runs / on_s;
	r.ns_per_event = r.runs ? (double)r.run_ns / (double)r.runs : NAN;
	return r;
}
