#include "session/tick.h"
#include "model/class_map.h"
#include "model/net_loss.h"

#include <errno.h>
#include <string.h>

/* The tick's one thread -> class map, which the sched and clock intervals
 * share: sched's threads, then the clock's threads active in the window
 * (a thread both report keeps the class sched's view gives it). */
static int tick_classes(const struct world_snapshot *prev, const struct world_snapshot *cur,
			const struct tick_filters *f, struct class_map *map)
{
	struct class_map_input in = { 0 };
	int err = 0;

	if (cur->have_sched)
		err = sched_snapshot_threads(&cur->sched, &in);
	class_map_input_next_view(&in);
	if (!err && cur->have_clock)
		err = clock_window_threads(&prev->clock, &cur->clock, &in);
	if (!err)
		err = class_map_build_grouped(map, &in, f->classifier, f->procs, f->n_procs);
	class_map_input_free(&in);
	return err;
}

int tick_compute(const struct world_snapshot *prev, const struct world_snapshot *cur,
		 const struct tick_filters *f, struct tick *t)
{
	struct class_map *map = &t->classes;
	int err;

	memset(t, 0, sizeof(*t));
	err = tick_classes(prev, cur, f, map);
	if (!err && cur->have_sched) {
		err = sched_interval_compute(&prev->sched, &cur->sched, map, f->sched, &t->sched);
		t->have_sched = !err;
	}
	if (!err && cur->have_clock) {
		err = clock_interval_compute(&prev->clock, &cur->clock, map, f->sched, &t->clock);
		t->have_clock = !err;
		/* the class view's vDSO % beside each sched class */
		if (!err && t->have_sched)
			err = clock_vdso_share(&t->clock, map, &t->sched);
	}
	if (!err)
		err = tick_net_run(cur->have_net ? &prev->net : NULL, cur->have_net ? &cur->net : NULL,
				   cur->have_loss ? &prev->loss : NULL, cur->have_loss ? &cur->loss : NULL,
				   f->net, &t->net, &t->have_net, &t->loss, &t->have_loss);
	if (err)
		tick_free(t);
	return err;
}

int tick_net_run(const struct net_snapshot *net_first, const struct net_snapshot *net_last,
		 const struct loss_snapshot *loss_first, const struct loss_snapshot *loss_last,
		 const struct net_filter *filter, struct net_interval *net, bool *have_net,
		 struct loss_interval *loss, bool *have_loss)
{
	int err = 0;

	*have_net = *have_loss = false;
	if (net_first && net_last) {
		err = net_interval_compute(net_first, net_last, filter, net);
		*have_net = !err;
	}
	if (!err && loss_first && loss_last) {
		err = loss_interval_compute(loss_first, loss_last, loss);
		*have_loss = !err;
		/* the loss rows show in the network view even without the net family */
		if (!err && !*have_net) {
			net_interval_empty(net, loss->dt_s);
			*have_net = net->devs && net->ports;
			err = *have_net ? 0 : -ENOMEM;
		}
		if (!err)
			err = net_loss_join(net, loss, filter);
	}
	return err;
}

void tick_free(struct tick *t)
{
	class_map_free(&t->classes);
	sched_interval_free(&t->sched);
	clock_interval_free(&t->clock);
	net_interval_free(&t->net);
	loss_interval_free(&t->loss);
	memset(t, 0, sizeof(*t));
}

int tick_clock_run(const struct clock_snapshot *first, const struct clock_snapshot *last,
		   const struct tick_filters *f, struct clock_interval *out)
{
	struct class_map_input in = { 0 };
	struct class_map map = { 0 };
	int err;

	err = clock_window_threads(first, last, &in);
	if (!err)
		err = class_map_build_grouped(&map, &in, f->classifier, f->procs, f->n_procs);
	if (!err)
		err = clock_interval_compute(first, last, &map, f->sched, out);
	class_map_free(&map);
	class_map_input_free(&in);
	return err;
}
