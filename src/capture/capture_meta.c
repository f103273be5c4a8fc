#include "capture/capture_meta.h"
#include "capture/capture_json.h"

#include <json-c/json.h>
#include <stdio.h>

json_object *capture_meta_host(const struct host_info *h)
{
	json_object *host = json_object_new_object();

	json_object_object_add(host, "hostname", json_object_new_string(h->hostname));
	json_object_object_add(host, "kernel", json_object_new_string(h->kernel));
	json_object_object_add(host, "cpus", json_object_new_int(h->cpus));
	json_object_object_add(host, "clocksource", json_object_new_string(h->clocksource));
	json_object_object_add(host, "cmdline", json_object_new_string(h->cmdline));
	json_object_object_add(host, "netns", h->netns[0] ? json_object_new_string(h->netns) : NULL);
	return host;
}

json_object *capture_meta_probes(const struct probe_report *p, int n)
{
	json_object *o = json_object_new_object();

	for (int i = 0; i < n; i++) {
		json_object *f = json_object_new_object(), *rej = json_object_new_array();

		json_object_object_add(f, "attach",
				       p[i].attach[0] ? json_object_new_string(p[i].attach) : NULL);
		json_object_object_add(f, "enabled", json_object_new_boolean(!p[i].disabled));
		for (int r = 0; r < p[i].n_rejected; r++) {
			json_object *e = json_object_new_object();

			json_object_object_add(e, "path", json_object_new_string(p[i].rejected[r].path));
			json_object_object_add(e, "error", json_object_new_string(p[i].rejected[r].error));
			json_object_array_add(rej, e);
		}
		json_object_object_add(f, "rejected", rej);
		if (p[i].n_notes) {
			json_object *notes = json_object_new_array();

			for (int k = 0; k < p[i].n_notes; k++)
				json_object_array_add(notes, json_object_new_string(p[i].notes[k]));
			json_object_object_add(f, "notes", notes);
		}
		json_object_object_add(o, p[i].family, f);
	}
	return o;
}

void capture_meta_read_host(json_object *o, struct host_info *h)
{
	capture_jcopy(h->hostname, sizeof(h->hostname), o, "hostname");
	capture_jcopy(h->kernel, sizeof(h->kernel), o, "kernel");
	h->cpus = (int)capture_jint(o, "cpus", 0);
	capture_jcopy(h->clocksource, sizeof(h->clocksource), o, "clocksource");
	capture_jcopy(h->cmdline, sizeof(h->cmdline), o, "cmdline");
	capture_jcopy(h->netns, sizeof(h->netns), o, "netns");
}

int capture_meta_read_probes(json_object *o, struct probe_report *p, int max)
{
	int n = 0;

	if (!o || !json_object_is_type(o, json_type_object))
		return 0;
	json_object_object_foreach(o, key, val) {
		if (n >= max)
			break;
		snprintf(p[n].family, sizeof(p[n].family), "%s", key);
		capture_jcopy(p[n].attach, sizeof(p[n].attach), val, "attach");
		n++;
	}
	return n;
}
