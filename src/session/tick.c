#include "session/tick.h"
#include "model/class_map.h"

#include <string.h>

/* The tick's one thread -> class map, which the sched and clock intervals
 * share: sched's threads, then the clock's threads active in the window
 * (a thread both report keeps the class sched's view gives it). */
static int tick_classes(const struct world_snapshot *prev, const struct world_snapshot *cur,
			const struct tclass_classifier *classifier, struct class_map *map)
{
	struct class_map_input in = { 0 };
	int err = 0;

	if (cur->have_sched)
		err = sched_snapshot_threads(&cur->sched, &in);
	class_map_input_next_view(&in);
	if (!err && cur->have_clock)
		err = clock_window_threads(&prev->clock, &cur->clock, &in);
	if (!err)
		err = class_map_build(map, &in, classifier);
	class_map_input_free(&in);
	return err;
}

int tick_compute(const struct world_snapshot *prev, const struct world_snapshot *cur,
		 const struct tick_filters *f, struct tick *t)
{
	struct class_map map = { 0 };
	int err;

	memset(t, 0, sizeof(*t));
	err = tick_classes(prev, cur, f->classifier, &map);
	if (!err && cur->have_sched) {
		err = sched_interval_compute(&prev->sched, &cur->sched, &map, f->sched, &t->sched);
		t->have_sched = !err;
	}
	if (!err && cur->have_clock) {
		err = clock_interval_compute(&prev->clock, &cur->clock, &map, f->sched, &t->clock);
		t->have_clock = !err;
		/* the class view's vDSO % beside each sched class */
		if (!err && t->have_sched)
			err = clock_vdso_share(&t->clock, &map, &t->sched);
	}
	class_map_free(&map);
	if (!err && cur->have_net) {
		err = net_interval_compute(&prev->net, &cur->net, f->net, &t->net);
		t->have_net = !err;
	}
	if (err)
		tick_free(t);
	return err;
}

void tick_free(struct tick *t)
{
	sched_interval_free(&t->sched);
	clock_interval_free(&t->clock);
	net_interval_free(&t->net);
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
		err = class_map_build(&map, &in, f->classifier);
	if (!err)
		err = clock_interval_compute(first, last, &map, f->sched, out);
	class_map_free(&map);
	class_map_input_free(&in);
	return err;
}
