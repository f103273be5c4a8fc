/* Every section's table of figures (figures/figure.h), one file each:
 * figures_cpus.c, figures_classes.c (the classes and their time
 * budget), figures_clock.c, figures_net.c (devices and ports),
 * figures_loss.c, figures_overhead.c (dbtrace's own BPF run time). A
 * figure added to a section is added here, in its table, and nowhere
 * else: the capture, diff, the report, top and the docs walk these. */
#ifndef DBTRACE_FIGURES_FIGURES_H
#define DBTRACE_FIGURES_FIGURES_H

#include "figures/figure.h"

/* The members a section's capture code writes and reads itself
 * (FIG_CUSTOM): lists and objects of keys known only at run time. */
enum fig_custom {
	FIG_CUSTOM_SYSCALLS = 1,       /* a class's blocked_by_syscall */
	FIG_CUSTOM_FUTEX_WORDS,        /* its time.futex.top_addresses */
	FIG_CUSTOM_COUNT
};

/* Rows: struct cpu_row. */
extern const struct fig_table fig_cpus;
/* Rows: struct sched_class_stats (a class, or a group's total). */
extern const struct fig_table fig_classes;
/* Rows: struct sched_class_stats; the members of its "time". */
extern const struct fig_table fig_time;

/* Rows: struct clock_stats (a class, or a group's total); the context of
 * its text: the vDSO function names (struct clock_fn_table). */
extern const struct fig_table fig_clock;

/* Rows: struct net_dev_stats, struct net_port_stats (the context of a
 * port's figures: a bool, true when only the loss family measured it). */
extern const struct fig_table fig_devices;
extern const struct fig_table fig_ports;
/* Beside them, rows: struct net_port_loss, struct net_dev_loss. */
extern const struct fig_table fig_port_loss;
extern const struct fig_table fig_dev_loss;
/* The loss family's own rows: struct loss_drop_stats,
 * loss_reason_stats, loss_listener_stats, loss_ns_stats, and each CPU's
 * loss_cpu_stats. */
extern const struct fig_table fig_drops;
extern const struct fig_table fig_reasons;
extern const struct fig_table fig_listeners;
extern const struct fig_table fig_netstat;
extern const struct fig_table fig_softnet;

/* dbtrace's own BPF programs, per family and all together (the
 * capture's overhead.bpf). Rows: struct bpf_cost_row. */
extern const struct fig_table fig_bpf;

/* A service port joined across two hosts' captures (not a capture
 * section: diff's "joined"). Rows: struct net_joined. */
extern const struct fig_table fig_joined;

/* All sections, for the docs. */
extern const struct fig_table *const fig_sections[];
extern const int fig_n_sections;

#endif
