#include "capture/capture_overhead.h"
#include "capture/capture_figures.h"
#include "capture/capture_json.h"

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

struct json_object *capture_bpf_object(const struct bpf_cost *c, const char *why)
{
	json_object *o = json_object_new_object(), *fams = json_object_new_array();
	struct bpf_cost_row total = bpf_cost_row(c, FAM_COUNT);

	json_object_object_add(o, "measured_s", json_object_new_double((double)c->on_ns / 1e9));
	json_object_object_add(o, "error", capture_text(why));
	capture_figs_write(o, &fig_bpf, &total, NULL);
	for (int f = 0; f < FAM_COUNT; f++) {
		struct bpf_cost_row r;
		json_object *fo;

		if (!c->fam_on[f])
			continue;
		r = bpf_cost_row(c, f);
		fo = json_object_new_object();
		json_object_object_add(fo, "family", json_object_new_string(dbt_family_names[f]));
		capture_figs_write(fo, &fig_bpf, &r, NULL);
		json_object_array_add(fams, fo);
	}
	json_object_object_add(o, "families", fams);
	return o;
}

static int family_of(const char *name)
{
	for (int f = 0; name && f < FAM_COUNT; f++)
		if (!strcmp(name, dbt_family_names[f]))
			return f;
	return -1;
}

void capture_bpf_read(json_object *o, struct capture_bpf *out)
{
	json_object *fams = capture_jarray(o, "families");
	size_t n = fams ? json_object_array_length(fams) : 0;

	memset(out, 0, sizeof(*out));
	if (!o)
		return;
	out->have = true;
	out->measured_s = capture_jnum(o, "measured_s");
	capture_jcopy(out->error, sizeof(out->error), o, "error");
	out->total.family = FAM_COUNT;
	capture_figs_read(o, &fig_bpf, &out->total, NULL);
	for (size_t i = 0; i < n && out->n < FAM_COUNT; i++) {
		json_object *fo = json_object_array_get_idx(fams, i);
		struct bpf_cost_row *r = &out->fams[out->n];
		int f = family_of(capture_jstr(fo, "family"));

		if (f < 0)
			continue;
		r->family = f;
		capture_figs_read(fo, &fig_bpf, r, NULL);
		out->n++;
	}
}

struct json_object *capture_interval_overhead(const struct bpf_cost *c)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "bpf_cpu_pct", capture_num(bpf_cost_row(c, FAM_COUNT).cpu_pct));
	return o;
}
