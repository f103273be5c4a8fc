/* The sections, in the order the docs list them. */
#include "figures/figures.h"

const struct fig_table *const fig_sections[] = {
	&fig_cpus,
	&fig_classes,
	&fig_time,
	&fig_clock,
	&fig_devices,
	&fig_ports,
	&fig_port_loss,
	&fig_dev_loss,
	&fig_drops,
	&fig_reasons,
	&fig_listeners,
	&fig_netstat,
	&fig_softnet,
	&fig_bpf,
};

const int fig_n_sections = (int)(sizeof(fig_sections) / sizeof(fig_sections[0]));
