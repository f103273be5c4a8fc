/* Interval deltas and shares, including a counter reset and CPUs that go
 * offline or come back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>
#include "model/cpu_model.h"
#include "model/hist.h"

#define NS 1000000000ull

static void near(double got, double want)
{
	if (fabs(got - want) > 1e-6)
		fail_msg("got %f, want %f", got, want);
}

static void set_stat(struct cpu_sample *c, uint64_t usr, uint64_t sys, uint64_t idle, uint64_t steal)
{
	memset(&c->stat, 0, sizeof(c->stat));
	c->stat.online = true;
	c->stat.ticks[PS_USER] = usr;
	c->stat.ticks[PS_SYSTEM] = sys;
	c->stat.ticks[PS_IDLE] = idle;
	c->stat.ticks[PS_STEAL] = steal;
}

struct pair {
	struct cpu_snapshot a, b;
	struct cpu_row rows[4];
};

static int setup(void **state)
{
	static struct pair p;

	memset(&p, 0, sizeof(p));
	cpu_snapshot_alloc(&p.a, 4);
	cpu_snapshot_alloc(&p.b, 4);
	p.a.mono_ns = 10 * NS;
	p.b.mono_ns = 12 * NS;   /* a 2 s interval */
	p.a.have_sirq = p.b.have_sirq = true;
	p.a.have_stat = p.b.have_stat = true;
	for (int c = 0; c < 4; c++) {
		set_stat(&p.a.cpu[c], 100, 100, 100, 0);
		set_stat(&p.b.cpu[c], 150, 120, 130, 0);   /* 100 ticks: 50/20/30 */
	}
	*state = &p;
	return 0;
}

static int teardown(void **state)
{
	struct pair *p = *state;

	cpu_snapshot_free(&p->a);
	cpu_snapshot_free(&p->b);
	return 0;
}

static void test_stat_shares(void **state)
{
	struct pair *p = *state;

	cpu_rows_compute(&p->a, &p->b, p->rows);
	assert_true(p->rows[0].valid);
	near(p->rows[0].usr_pct, 50);
	near(p->rows[0].sys_pct, 20);
	near(p->rows[0].idle_pct, 30);
	near(p->rows[0].steal_pct, 0);
}

static void test_softirq_shares_and_counts(void **state)
{
	struct pair *p = *state;
	struct dbt_softirq_cpu *a = &p->a.cpu[1].sirq, *b = &p->b.cpu[1].sirq;

	a->time_ns[DBT_SOFTIRQ_NET_RX] = 1 * NS;
	b->time_ns[DBT_SOFTIRQ_NET_RX] = 1 * NS + NS / 2;   /* 0.5 s of 2 s: 25 % */
	b->time_ns[DBT_SOFTIRQ_TIMER] = NS / 10;            /* 5 % */
	a->entries[DBT_SOFTIRQ_NET_RX] = 1000;
	b->entries[DBT_SOFTIRQ_NET_RX] = 3000;
	b->raises[DBT_SOFTIRQ_NET_RX] = 2500;
	b->hardirq_ns = NS / 5;                             /* 10 % */
	p->b.cpu[1].sirq_wait[DBT_SOFTIRQ_NET_RX].buckets[dbt_hist_bucket(20000)] = 99;  /* 20 µs */
	p->b.cpu[1].sirq_wait[DBT_SOFTIRQ_NET_RX].buckets[dbt_hist_bucket(1500000)] = 1;
	p->b.cpu[1].sirq_wait[DBT_SOFTIRQ_NET_RX].timed = 100;
	cpu_rows_compute(&p->a, &p->b, p->rows);
	near(p->rows[1].softirq_pct[DBT_SOFTIRQ_NET_RX], 25);
	near(p->rows[1].softirq_pct[DBT_SOFTIRQ_TIMER], 5);
	near(p->rows[1].softirq_total_pct, 30);
	near(p->rows[1].hardirq_pct, 10);
	assert_int_equal(p->rows[1].entries[DBT_SOFTIRQ_NET_RX], 2000);
	assert_int_equal(p->rows[1].raises[DBT_SOFTIRQ_NET_RX], 2500);
	assert_true(fabs(p->rows[1].wait_p99_us[DBT_SOFTIRQ_NET_RX] - 20) <= 20.0 / 32);
	assert_int_equal(p->rows[1].wait_timed[DBT_SOFTIRQ_NET_RX], 100);
	assert_true(isnan(p->rows[1].wait_p99_us[DBT_SOFTIRQ_HI]));
	/* other CPUs untouched */
	near(p->rows[0].softirq_total_pct, 0);
}

/* The wait99 column: one p99 over every vector's waits together, which
 * is neither vector's own p99. */
static void test_wait_p99_over_all_vectors(void **state)
{
	struct pair *p = *state;
	struct cpu_row total;
	__u64 merged[DBT_HIST_BUCKETS] = { 0 };

	__u32 fast = dbt_hist_bucket(20000), slow = dbt_hist_bucket(1500000);   /* 20 µs, 1.5 ms */

	p->b.cpu[1].sirq_wait[DBT_SOFTIRQ_NET_RX].buckets[fast] = 98;
	p->b.cpu[1].sirq_wait[DBT_SOFTIRQ_TIMER].buckets[slow] = 2;
	p->b.cpu[2].sirq_wait[DBT_SOFTIRQ_TIMER].buckets[slow] = 100;
	cpu_rows_compute(&p->a, &p->b, p->rows);
	assert_true(p->rows[1].wait_p99_us[DBT_SOFTIRQ_NET_RX] <= 21);
	assert_true(fabs(p->rows[1].wait_all_p99_us - 1500) <= 1500.0 / 32);
	merged[fast] = 98;
	merged[slow] = 2;
	near(p->rows[1].wait_all_p99_us, hist_percentile_us(merged, DBT_HIST_BUCKETS, 0.99));
	/* no wait seen, or the CPU offline: not measured */
	assert_true(isnan(p->rows[0].wait_all_p99_us));
	p->b.cpu[3].stat.online = false;
	cpu_rows_compute(&p->a, &p->b, p->rows);
	assert_true(isnan(p->rows[3].wait_all_p99_us));
	/* the "all" line: over every valid CPU's waits, 200 of them */
	cpu_rows_total(p->rows, 4, &total);
	merged[slow] = 102;
	near(total.wait_all_p99_us, hist_percentile_us(merged, DBT_HIST_BUCKETS, 0.99));
	assert_true(total.wait_all_p99_us >= 1400);
	/* without the softirq family: not measured, total included */
	p->b.have_sirq = false;
	cpu_rows_compute(&p->a, &p->b, p->rows);
	assert_true(isnan(p->rows[1].wait_all_p99_us));
	cpu_rows_total(p->rows, 4, &total);
	assert_true(isnan(total.wait_all_p99_us));
}

static void test_counter_reset(void **state)
{
	struct pair *p = *state;

	/* the counters went backwards (probes reloaded): the new value is
	 * what accumulated since the reset */
	p->a.cpu[2].sirq.entries[DBT_SOFTIRQ_NET_RX] = 50000;
	p->b.cpu[2].sirq.entries[DBT_SOFTIRQ_NET_RX] = 700;
	p->a.cpu[2].sirq.time_ns[DBT_SOFTIRQ_NET_RX] = 40 * NS;
	p->b.cpu[2].sirq.time_ns[DBT_SOFTIRQ_NET_RX] = NS / 10;
	set_stat(&p->b.cpu[2], 10, 5, 5, 0);   /* /proc/stat reset too */
	cpu_rows_compute(&p->a, &p->b, p->rows);
	assert_true(p->rows[2].valid);
	assert_int_equal(p->rows[2].entries[DBT_SOFTIRQ_NET_RX], 700);
	near(p->rows[2].softirq_pct[DBT_SOFTIRQ_NET_RX], 5);
	near(p->rows[2].usr_pct, 50);
	assert_true(p->rows[2].usr_pct <= 100);
}

static void test_cpu_offline_and_back(void **state)
{
	struct pair *p = *state;
	struct cpu_row total;

	p->b.cpu[3].stat.online = false;   /* went offline */
	p->a.cpu[2].stat.online = false;   /* came back online */
	cpu_rows_compute(&p->a, &p->b, p->rows);
	assert_false(p->rows[3].valid);
	assert_false(p->rows[2].valid);
	assert_true(p->rows[0].valid);
	assert_int_equal(cpu_rows_total(p->rows, 4, &total), 2);
	near(total.usr_pct, 50);   /* the mean over CPUs 0 and 1 only */
}

static void test_total_sums_counts(void **state)
{
	struct pair *p = *state;
	struct cpu_row total;

	for (int c = 0; c < 4; c++) {
		p->b.cpu[c].sirq.entries[DBT_SOFTIRQ_NET_RX] = 100 * (uint64_t)(c + 1);
		p->b.cpu[c].sirq.time_ns[DBT_SOFTIRQ_NET_RX] = NS / 5 * (uint64_t)c;  /* 0,10,20,30 % */
	}
	cpu_rows_compute(&p->a, &p->b, p->rows);
	assert_int_equal(cpu_rows_total(p->rows, 4, &total), 4);
	assert_int_equal(total.entries[DBT_SOFTIRQ_NET_RX], 1000);
	near(total.softirq_pct[DBT_SOFTIRQ_NET_RX], 15);
	assert_int_equal(total.cpu, -1);
}

static void test_without_softirq_family(void **state)
{
	struct pair *p = *state;

	p->b.cpu[0].sirq.time_ns[DBT_SOFTIRQ_NET_RX] = NS;
	p->b.have_sirq = false;
	cpu_rows_compute(&p->a, &p->b, p->rows);
	assert_true(p->rows[0].valid);
	assert_false(p->rows[0].have_sirq);
	/* not measured is NAN, never a made-up 0 */
	assert_true(isnan(p->rows[0].softirq_total_pct));
	assert_true(isnan(p->rows[0].softirq_pct[DBT_SOFTIRQ_NET_RX]));
	near(p->rows[0].usr_pct, 50);
}

static void test_without_proc_stat(void **state)
{
	struct pair *p = *state;

	/* an unreadable /proc/stat: softirq numbers stay, usr/sys go */
	p->b.have_stat = false;
	p->b.cpu[3].stat.online = false;
	p->b.cpu[1].sirq.time_ns[DBT_SOFTIRQ_NET_RX] = NS;
	cpu_rows_compute(&p->a, &p->b, p->rows);
	assert_true(p->rows[3].valid);
	assert_true(isnan(p->rows[1].usr_pct));
	assert_true(isnan(p->rows[1].idle_pct));
	near(p->rows[1].softirq_pct[DBT_SOFTIRQ_NET_RX], 50);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_stat_shares, setup, teardown),
		cmocka_unit_test_setup_teardown(test_softirq_shares_and_counts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wait_p99_over_all_vectors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_counter_reset, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cpu_offline_and_back, setup, teardown),
		cmocka_unit_test_setup_teardown(test_total_sums_counts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_without_softirq_family, setup, teardown),
		cmocka_unit_test_setup_teardown(test_without_proc_stat, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
