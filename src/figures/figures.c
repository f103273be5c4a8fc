/* The sections, in the order the docs list them. */
#include "figures/figures.h"

const struct fig_table *const fig_sections[] = {
	&fig_classes,
	&fig_time,
	&fig_clock,
};

const int fig_n_sections = (int)(sizeof(fig_sections) / sizeof(fig_sections[0]));
