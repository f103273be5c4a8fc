/* A section's figures (figures/figures.h) written into a capture object
 * and read back out of one, in table order: the one walk every section of
 * the capture (capture_cpus.c, capture_sched.c, capture_time.c,
 * capture_clock.c, capture_net.c, capture_loss.c) makes instead of naming
 * its fields. The members a table leaves to code of their own
 * (FIG_CUSTOM: lists, objects of run-time keys) are written and read in
 * their place by that code, through capture_customs. */
#ifndef DBTRACE_CAPTURE_CAPTURE_FIGURES_H
#define DBTRACE_CAPTURE_CAPTURE_FIGURES_H

#include "figures/figures.h"

struct json_object;

/* Writes t's figures of row into o (ctx: the section's, for its texts,
 * its known() tests and its custom members). */
void capture_figs_write(struct json_object *o, const struct fig_table *t, const void *row, const void *ctx);
/* Reads t's figures of row (zeroed by the caller) back from o: what o
 * lacks (an older capture) is NAN, 0 or "" as the type has it. Returns 0
 * or -ENOMEM. */
int capture_figs_read(struct json_object *o, const struct fig_table *t, void *row, void *ctx);

/* The code of one FIG_CUSTOM member: it writes (or reads) the member
 * name of o itself. */
struct capture_custom {
	void (*write)(struct json_object *o, const char *name, const void *row, const void *ctx);
	int (*read)(struct json_object *o, const char *name, void *row, void *ctx);
};

/* By enum fig_custom. */
extern const struct capture_custom capture_customs[FIG_CUSTOM_COUNT];

#endif
