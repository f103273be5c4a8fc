#include "capture/capture_net.h"
#include "capture/capture_figures.h"
#include "capture/capture_json.h"
#include "capture/capture_loss.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static json_object *device_object(const struct net_dev_stats *d, const struct net_dev_loss *l)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "name", json_object_new_string(d->name));
	json_object_object_add(o, "netns", d->foreign ? json_object_new_string(d->netns_name) : NULL);
	capture_figs_write(o, &fig_devices, d, NULL);
	if (l)
		capture_figs_write(o, &fig_dev_loss, l, NULL);
	return o;
}

/* loss_only: the net family did not measure the row (its request
 * counts are null) */
static json_object *port_object(const struct net_port_stats *p, const struct net_port_loss *l, bool loss_only)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "port", json_object_new_int(p->port));
	json_object_object_add(o, "role", json_object_new_string(net_role_name(p->role)));
	capture_figs_write(o, &fig_ports, p, &loss_only);
	if (l)
		capture_figs_write(o, &fig_port_loss, l, NULL);
	return o;
}

json_object *capture_net_object(const struct net_interval *iv, const struct loss_interval *li)
{
	json_object *o = json_object_new_object();
	json_object *devs = json_object_new_array(), *ports = json_object_new_array();
	int nd = iv->n_devs < CAPTURE_MAX_NET_ROWS ? iv->n_devs : CAPTURE_MAX_NET_ROWS;
	int np = iv->n_ports < CAPTURE_MAX_NET_ROWS ? iv->n_ports : CAPTURE_MAX_NET_ROWS;

	for (int i = 0; i < nd; i++)
		json_object_array_add(devs, device_object(&iv->devs[i], iv->dev_loss ? &iv->dev_loss[i] : NULL));
	for (int i = 0; i < np; i++)
		json_object_array_add(ports, port_object(&iv->ports[i], iv->port_loss ? &iv->port_loss[i] : NULL,
							 iv->loss_only));
	json_object_object_add(o, "devices", devs);
	json_object_object_add(o, "devices_omitted", json_object_new_int(iv->n_devs - nd));
	json_object_object_add(o, "ports", ports);
	json_object_object_add(o, "ports_omitted", json_object_new_int(iv->n_ports - np));
	json_object_object_add(o, "lost_samples", capture_u64(iv->lost));
	json_object_object_add(o, "skipped_requests", capture_u64(iv->skipped));
	json_object_object_add(o, "unstaged_requests", capture_u64(iv->unstaged));
	if (li)
		capture_loss_net(o, li);
	return o;
}

/* --- reading back --------------------------------------------------------- */

static int read_device(json_object *o, struct net_dev_stats *d)
{
	memset(d, 0, sizeof(*d));
	capture_jcopy(d->name, sizeof(d->name), o, "name");
	d->foreign = capture_jstr(o, "netns") != NULL;
	capture_jcopy(d->netns_name, sizeof(d->netns_name), o, "netns");
	return capture_figs_read(o, &fig_devices, d, NULL);
}

static int read_port(json_object *o, struct net_port_stats *p)
{
	const char *role = capture_jstr(o, "role");
	int err;

	memset(p, 0, sizeof(*p));
	p->port = (uint16_t)capture_jint(o, "port", 0);
	p->role = role && !strcmp(role, net_role_name(DBT_NET_CLIENT)) ? DBT_NET_CLIENT : DBT_NET_SERVER;
	err = capture_figs_read(o, &fig_ports, p, NULL);
	p->reads_per_s = NAN;   /* not in a capture */
	return err;
}

/* The loss family's fields of the rows and of the net object, when the
 * capture has them. */
static int read_net_loss(json_object *o, json_object *devs, json_object *ports, struct net_interval *ni,
			 struct loss_interval *li, bool *have_loss)
{
	bool any = false;
	int err = 0;

	ni->port_loss = calloc(ni->n_ports ? (size_t)ni->n_ports : 1, sizeof(*ni->port_loss));
	ni->dev_loss = calloc(ni->n_devs ? (size_t)ni->n_devs : 1, sizeof(*ni->dev_loss));
	if (!ni->port_loss || !ni->dev_loss)
		return -ENOMEM;
	for (int i = 0; i < ni->n_ports; i++)
		any |= capture_loss_read_port(json_object_array_get_idx(ports, (size_t)i), &ni->port_loss[i]);
	for (int i = 0; i < ni->n_devs; i++)
		capture_loss_read_device(json_object_array_get_idx(devs, (size_t)i), &ni->dev_loss[i]);
	*have_loss = capture_loss_read_net(o, li, &err);
	if (!any && !*have_loss) {
		free(ni->port_loss);
		free(ni->dev_loss);
		ni->port_loss = NULL;
		ni->dev_loss = NULL;
	}
	return err;
}

int capture_net_read(json_object *o, double seconds, struct net_interval *ni, bool *have_hist,
		     int *devs_omitted, int *ports_omitted, struct loss_interval *li, bool *have_loss)
{
	json_object *devs = capture_jarray(o, "devices"), *ports = capture_jarray(o, "ports");
	size_t nd = devs ? json_object_array_length(devs) : 0;
	size_t np = ports ? json_object_array_length(ports) : 0;
	int err = 0;

	ni->dt_s = seconds;
	ni->lost = capture_jcount(o, "lost_samples");
	ni->skipped = capture_jcount(o, "skipped_requests");   /* 0 before it was written */
	ni->unstaged = capture_jcount(o, "unstaged_requests");
	*devs_omitted = (int)capture_jint(o, "devices_omitted", 0);
	*ports_omitted = (int)capture_jint(o, "ports_omitted", 0);
	ni->devs = calloc(nd ? nd : 1, sizeof(*ni->devs));
	ni->ports = calloc(np ? np : 1, sizeof(*ni->ports));
	if (!ni->devs || !ni->ports)
		return -ENOMEM;
	for (size_t i = 0; i < nd && !err; i++) {
		json_object *d = json_object_array_get_idx(devs, i);

		*have_hist |= capture_member(d, "txq_hist") != NULL;
		err = read_device(d, &ni->devs[ni->n_devs++]);
	}
	for (size_t i = 0; i < np && !err; i++) {
		json_object *p = json_object_array_get_idx(ports, i);

		*have_hist |= capture_member(p, "response_hist") != NULL;
		err = read_port(p, &ni->ports[ni->n_ports++]);
	}
	return err ? err : read_net_loss(o, devs, ports, ni, li, have_loss);
}
