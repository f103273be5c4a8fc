#include "capture/capture_findings.h"
#include "capture/capture_json.h"

#include <json-c/json.h>
#include <math.h>
#include <string.h>

json_object *capture_json_finding(const struct finding *f)
{
	json_object *o = json_object_new_object(), *ev = json_object_new_object();

	json_object_object_add(o, "id", json_object_new_string(f->id));
	json_object_object_add(o, "severity", json_object_new_string(finding_severity_name(f->severity)));
	json_object_object_add(o, "title", json_object_new_string(f->title));
	if (f->pid)
		json_object_object_add(o, "pid", json_object_new_int(f->pid));
	if (f->class_name[0])
		json_object_object_add(o, "class", json_object_new_string(f->class_name));
	for (int k = 0; k < f->n_ev; k++)
		json_object_object_add(ev, f->ev[k].key, f->ev[k].is_text
				       ? json_object_new_string(f->ev[k].text) : capture_num(f->ev[k].num));
	json_object_object_add(o, "evidence", ev);
	json_object_object_add(o, "hint", json_object_new_string(f->hint));
	json_object_object_add(o, "first_interval", json_object_new_int(f->first_interval));
	json_object_object_add(o, "last_interval", json_object_new_int(f->last_interval));
	return o;
}

json_object *capture_findings_array(const struct finding_list *l)
{
	json_object *a = json_object_new_array();

	for (int i = 0; l && i < l->n; i++)
		json_object_array_add(a, capture_json_finding(&l->items[i]));
	return a;
}

int capture_findings_read(json_object *a, struct finding_list *l)
{
	size_t n = json_object_array_length(a);

	for (size_t i = 0; i < n; i++) {
		json_object *o = json_object_array_get_idx(a, i), *ev = capture_member(o, "evidence");
		const char *sev = capture_jstr(o, "severity");
		struct finding f;
		int err;

		memset(&f, 0, sizeof(f));
		capture_jcopy(f.id, sizeof(f.id), o, "id");
		f.severity = sev && !strcmp(sev, "critical") ? SEV_CRITICAL
			     : sev && !strcmp(sev, "warning") ? SEV_WARNING : SEV_INFO;
		f.pid = (int)capture_jint(o, "pid", 0);
		capture_jcopy(f.class_name, sizeof(f.class_name), o, "class");
		capture_jcopy(f.title, sizeof(f.title), o, "title");
		capture_jcopy(f.hint, sizeof(f.hint), o, "hint");
		f.first_interval = (int)capture_jint(o, "first_interval", -1);
		f.last_interval = (int)capture_jint(o, "last_interval", -1);
		if (ev && json_object_is_type(ev, json_type_object)) {
			json_object_object_foreach(ev, key, val) {
				if (capture_is_number(val))
					finding_num(&f, key, json_object_get_double(val));
				else if (!val)
					finding_num(&f, key, NAN);
				else
					finding_text(&f, key, "%s", json_object_is_type(val, json_type_string)
						     ? json_object_get_string(val) : json_object_to_json_string(val));
			}
		}
		err = findings_merge(l, &f);
		if (err)
			return err;
	}
	return 0;
}
