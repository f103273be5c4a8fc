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
		 const struct tick_args *a, struct interval *iv)
{
	const struct tick_filters *f = a->filters;
	struct class_map *map = &iv->classes;
	int err;

	memset(iv, 0, sizeof(*iv));
	iv->index = a->index;
	iv->t_s = (double)(cur->cpu.mono_ns - a->start_ns) / 1e9;
	iv->dt_s = (double)(cur->cpu.mono_ns - prev->cpu.mono_ns) / 1e9;
	iv->ncpus = cur->cpu.ncpus;
	cpu_rows_compute(&prev->cpu, &cur->cpu, a->rows);
	cpu_rows_total(a->rows, cur->cpu.ncpus, &iv->total);
	iv->rows = a->rows;
	iv->clock_fns = a->clock_fns;
	iv->clock_hz = a->clock_hz;
	iv->lost_events = a->lost_events;
	iv->thread_evictions = cur->sched.evictions;
	err = tick_classes(prev, cur, f, map);
	if (!err && cur->have_sched) {
		err = sched_interval_compute(&prev->sched, &cur->sched, map, f->sched, &iv->sched);
		iv->have_sched = !err;
	}
	if (!err && cur->have_clock) {
		err = clock_interval_compute(&prev->clock, &cur->clock, map, f->sched, &iv->clock);
		iv->have_clock = !err;
	}
	if (!err)
		err = tick_net_run(cur->have_net ? &prev->net : NULL, cur->have_net ? &cur->net : NULL,
				   cur->have_loss ? &prev->loss : NULL, cur->have_loss ? &cur->loss : NULL,
				   f->net, &iv->net, &iv->have_net, &iv->loss, &iv->have_loss);
	/* last: the joins, after which the interval is complete */
	if (!err && iv->have_sched)
		err = tick_join(&iv->sched, iv->have_clock ? &iv->clock : NULL, map, a->cpus, a->index);
	if (err)
		interval_free(iv);
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
