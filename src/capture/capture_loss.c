#include "capture/capture_loss.h"
#include "capture/capture_figures.h"
#include "capture/capture_json.h"
#include "core/vec.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* An array of the first max of n rows of size bytes, each written
 * through table t. */
static json_object *rows_array(const void *rows, size_t size, int n, int max, const struct fig_table *t)
{
	json_object *a = json_object_new_array();

	for (int i = 0; i < n && i < max; i++) {
		json_object *o = json_object_new_object();

		capture_figs_write(o, t, (const char *)rows + (size_t)i * size, NULL);
		json_object_array_add(a, o);
	}
	return a;
}

static int shown(int n)
{
	return n < CAPTURE_MAX_LOSS_ROWS ? n : CAPTURE_MAX_LOSS_ROWS;
}

void capture_loss_net(json_object *net, const struct loss_interval *li)
{
	json_object_object_add(net, "drops", rows_array(li->drops, sizeof(*li->drops), li->n_drops,
							CAPTURE_MAX_LOSS_ROWS, &fig_drops));
	json_object_object_add(net, "drops_omitted", json_object_new_int(li->n_drops - shown(li->n_drops)));
	json_object_object_add(net, "drops_total", capture_u64(li->drops_total));
	json_object_object_add(net, "drops_per_s", capture_num(li->drops_per_s));
	json_object_object_add(net, "drop_reasons", rows_array(li->reasons, sizeof(*li->reasons), li->n_reasons,
							       li->n_reasons, &fig_reasons));
	json_object_object_add(net, "listeners", rows_array(li->listeners, sizeof(*li->listeners),
							    li->n_listeners, CAPTURE_MAX_LOSS_ROWS, &fig_listeners));
	json_object_object_add(net, "listeners_omitted",
			       json_object_new_int(li->n_listeners - shown(li->n_listeners)));
	json_object_object_add(net, "netstat", rows_array(li->ns, sizeof(*li->ns), li->n_ns, CAPTURE_MAX_LOSS_ROWS,
							  &fig_netstat));
	json_object_object_add(net, "netdev_max_backlog",
			       li->netdev_max_backlog >= 0 ? capture_u64((uint64_t)li->netdev_max_backlog) : NULL);
	json_object_object_add(net, "loss_lost_samples", capture_u64(li->lost));
}

void capture_loss_cpus(json_object *cpus, const struct loss_interval *li)
{
	size_t n = json_object_array_length(cpus);

	for (size_t i = 0; i < n; i++) {
		json_object *c = json_object_array_get_idx(cpus, i), *cpu, *o;
		int id;

		if (!json_object_object_get_ex(c, "cpu", &cpu))
			continue;
		id = json_object_get_int(cpu);
		for (int k = 0; k < li->n_cpus; k++) {
			if (li->cpus[k].cpu != id)
				continue;
			o = json_object_new_object();
			capture_figs_write(o, &fig_softnet, &li->cpus[k], NULL);
			json_object_object_add(c, "softnet", o);
			break;
		}
	}
}

/* --- reading back ---------------------------------------------------------- */

bool capture_loss_read_port(json_object *port, struct net_port_loss *l)
{
	memset(l, 0, sizeof(*l));
	capture_figs_read(port, &fig_port_loss, l, NULL);
	/* kept by the model, not written: unknown */
	l->tlp_per_s = l->stalls_per_s = NAN;
	return capture_jobject(port, "retransmits") != NULL;
}

bool capture_loss_read_device(json_object *dev, struct net_dev_loss *l)
{
	memset(l, 0, sizeof(*l));
	capture_figs_read(dev, &fig_dev_loss, l, NULL);
	return capture_member(dev, "drops_per_s") != NULL;
}

/* The rows of array a into *rows (n of them, size bytes each, zeroed
 * first), each through table t. 0 or -ENOMEM. */
static int read_rows(json_object *a, const struct fig_table *t, void **rows, int *n, size_t size)
{
	size_t len = a ? json_object_array_length(a) : 0;

	*rows = calloc(len ? len : 1, size);
	if (!*rows)
		return -ENOMEM;
	for (size_t i = 0; i < len; i++)
		capture_figs_read(json_object_array_get_idx(a, i), t, (char *)*rows + (size_t)(*n)++ * size, NULL);
	return 0;
}

bool capture_loss_read_net(json_object *net, struct loss_interval *li, int *err)
{
	json_object *lis = capture_jarray(net, "listeners"), *ns = capture_jarray(net, "netstat");
	double backlog = capture_jnum(net, "netdev_max_backlog");

	*err = 0;
	if (!capture_jarray(net, "drop_reasons"))
		return false;
	li->netdev_max_backlog = isfinite(backlog) ? (long)backlog : -1;
	li->drops_total = capture_jcount(net, "drops_total");
	li->drops_per_s = capture_jnum(net, "drops_per_s");
	li->lost = capture_jcount(net, "loss_lost_samples");
	*err = read_rows(capture_jarray(net, "drops"), &fig_drops, (void **)&li->drops, &li->n_drops,
			 sizeof(*li->drops));
	if (!*err)
		*err = read_rows(capture_jarray(net, "drop_reasons"), &fig_reasons, (void **)&li->reasons,
				 &li->n_reasons, sizeof(*li->reasons));
	if (!*err)
		*err = read_rows(lis, &fig_listeners, (void **)&li->listeners, &li->n_listeners,
				 sizeof(*li->listeners));
	if (!*err)
		*err = read_rows(ns, &fig_netstat, (void **)&li->ns, &li->n_ns, sizeof(*li->ns));
	for (int i = 0; !*err && i < li->n_listeners; i++) {
		struct loss_listener_stats *l = &li->listeners[i];

		l->max_backlog = l->backlog;
		l->have_drops = capture_is_number(capture_member(json_object_array_get_idx(lis, (size_t)i),
								  "overflows"));
	}
	for (int i = 0; !*err && i < li->n_ns; i++)
		li->ns[i].have = capture_is_number(capture_member(json_object_array_get_idx(ns, (size_t)i),
								  "listen_overflows"));
	return true;
}

int capture_loss_read_cpu(json_object *cpu, struct loss_interval *li)
{
	json_object *s = capture_jobject(cpu, "softnet");
	struct loss_cpu_stats *c;

	if (!s)
		return 0;
	if (VEC_RESERVE(li->cpus, li->cap_cpus, (size_t)li->n_cpus + 1))
		return -ENOMEM;
	c = &li->cpus[li->n_cpus++];
	memset(c, 0, sizeof(*c));
	c->cpu = (int)capture_jcount(cpu, "cpu");
	capture_figs_read(s, &fig_softnet, c, NULL);
	li->backlog_drops += c->backlog_drops;
	li->time_squeezes += c->time_squeezes;
	return 0;
}
