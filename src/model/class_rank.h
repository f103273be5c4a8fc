/* Which thread classes a reader sees first. A capture beside a database
 * holds a row for every kernel thread (kworker, migration, ksoftirqd,
 * rcu_preempt), most of them idle; the views that list classes (the
 * report's class tables and budget charts, top's class and time views)
 * rank them by what they cost, thread-seconds on a CPU and waiting for
 * one, busiest first, and fold the ones that did nothing worth showing
 * into one "other (N classes)" row, unless asked for every row. The
 * capture keeps every row. Pure. */
#ifndef DBTRACE_MODEL_CLASS_RANK_H
#define DBTRACE_MODEL_CLASS_RANK_H

#include <stdbool.h>
#include "model/sched_stats.h"

/* A class is worth a row of its own when its threads were on a CPU or
 * waiting for one at least this much of the window (runnable_avg: 0.005
 * is 5 ms a second, half a percent of one CPU). */
#define CLASS_RANK_SHOWN_MIN 0.005

/* One class of one group. The views' "other" row has no group. */
struct class_row {
	const struct sched_group_stats *group;
	const struct sched_class_stats *cls;
};

/* What a class cost: thread-seconds on a CPU and waiting for one, per
 * second of the window (its runnable_avg; 0 when unknown). */
double class_cost(const struct sched_class_stats *c);
/* Whether the class earns a row of its own (CLASS_RANK_SHOWN_MIN). */
bool class_worth_showing(const struct sched_class_stats *c);
/* qsort order of struct class_row: by cost, highest first, then by pid,
 * then by class name. */
int class_row_by_cost(const void *a, const void *b);

/* Splits rows, in the order given, into the ones shown first (worth
 * showing, at most max_shown of them; max_shown <= 0: no limit), then
 * the rest, each part in its order. all: every row is shown. Returns
 * how many are shown. */
int class_rank_split(struct class_row *rows, int n, int max_shown, bool all);

/* The classes of groups ranked, split and folded: what a view lists. */
struct class_ranking {
	struct class_row *row;         /* n, by cost: the shown ones first, then those folded */
	int n, shown;
	struct sched_class_stats other;   /* the folded ones as one row, when shown < n */
};

/* Every class of the n_groups groups (timed_only: those with a wall-time
 * budget) ranked by cost, split by class_rank_split() and the rest
 * folded by class_fold(). Returns 0 or -ENOMEM; free with
 * class_ranking_free(). */
int class_rank(const struct sched_group_stats *groups, int n_groups, bool timed_only, int max_shown, bool all,
	       struct class_ranking *out);
void class_ranking_free(struct class_ranking *r);

/* The "other" row: the n classes of rows folded into one, named
 * "other (N classes)". What adds up is summed (threads, the on-CPU %,
 * switches, migrations, runnable, the time budget's seconds, the
 * histograms), the rest is combined as its meaning allows (the longest
 * wait; the softirq share weighted by on-CPU time; the user/system split
 * by the classes' own; the percentiles from the merged histograms, NAN
 * without them) or unknown (futex words: addresses of different
 * processes; the vDSO share; the allowed CPUs). *other is overwritten;
 * free it with sched_class_free(). Returns 0 or -ENOMEM. */
int class_fold(struct sched_class_stats *other, const struct class_row *rows, int n);

#endif
