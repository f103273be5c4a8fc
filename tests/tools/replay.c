/* replay: the outputs of pseudo-random ticks, byte for byte, so that a
 * restructuring can show it changed no output. Seeded snapshots of every
 * family (pools of threads that come and go, reused tids, grouped
 * processes, idle kernel threads, net devices of another namespace,
 * drops, listeners) go through the tick's model into what each output
 * writes: the capture, the exposition after every interval, the text
 * tables of every view and sort key, and, read back, the report and the
 * diff (text and --json); the committed fixture captures (every schema
 * version) through the reader, the report and the diff too.
 *
 *   replay DIR [SEEDS [TICKS]]     writes DIR/<seed>.* and DIR/fixture.*
 *
 * Run the binary before and after a change and `diff -r` the two
 * directories. It links the pure library (build/libdbtrace.a) and follows
 * its API; no file but DIR is written, nothing is read but the fixtures
 * (FIXTURES). */
#define _GNU_SOURCE
#include "capture/capture_diff.h"
#include "capture/capture_read.h"
#include "capture/capture_write.h"
#include "metrics/prom_totals.h"
#include "model/hist.h"
#include "model/net_loss.h"
#include "render/class_table.h"
#include "render/cpu_table.h"
#include "render/diff_table.h"
#include "render/net_table.h"
#include "render/prom_exposition.h"
#include "render/report_html.h"
#include "render/time_table.h"
#include "session/tick.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NCPUS 4
#define NS 1000000000ull

static uint64_t rng_state;

static uint64_t rnd(void)
{
	uint64_t x = rng_state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rng_state = x;
	return x * 0x2545f4914f6cdd1dull;
}

static uint64_t below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

static void die(const char *what, int err)
{
	fprintf(stderr, "replay: %s: %s\n", what, strerror(err < 0 ? -err : err));
	exit(1);
}

/* --- the simulated host -------------------------------------------------- */

/* A thread: its kernel totals, grown each tick while it lives. */
struct sim_thread {
	uint32_t pid, tid;
	char comm[16], pcomm[16];
	int born, dies;                /* ticks; dies < 0: never */
	int busy;                      /* 0 idle (a kernel thread asleep), 1..3 */
	uint64_t oncpu, runq, vol, invol, mig, sirq, nsirq, utime, stime;
	struct class_time_blk blk;
	uint64_t clock_samples, clock_user, clock_vdso[4], clock_sys, clock_calls[DBT_CLOCK_SYS_N];
};

struct sim_hist {
	uint32_t pid, kind;
	char comm[16];
	uint64_t born_ns;
	__u32 buckets[DBT_HIST_BUCKETS];
};

struct sim {
	struct sim_thread t[96];
	int n;
	struct sim_hist h[96];
	int nh;
	struct procstat_cpu stat[NCPUS];
	struct dbt_softirq_cpu sirq[NCPUS];
	struct dbt_hist_sampled wait[NCPUS][DBT_SOFTIRQ_VECS];
	struct net_dev_sample dev[3];
	struct net_port_sample port[4];
	struct loss_port_sample lport[3];
	struct loss_drop_sample drop[4];
	uint64_t reasons[DBT_LOSS_REASON_SLOTS];
	struct softnet_cpu softnet[NCPUS];
	struct tcp_netstat tcp;
	uint32_t lis_drops[2];
	uint64_t evictions, lost, clock_total;
};

static void add_thread(struct sim *s, uint32_t pid, uint32_t tid, const char *comm, const char *pcomm,
		       int born, int dies, int busy)
{
	struct sim_thread *t = &s->t[s->n++];

	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->tid = tid;
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	snprintf(t->pcomm, sizeof(t->pcomm), "%s", pcomm);
	t->born = born;
	t->dies = dies;
	t->busy = busy;
	t->blk.seen_ns = (uint64_t)born * NS + below(NS / 2);
	t->blk.sys_nr[0] = 0;      /* read */
	t->blk.sys_nr[1] = 61;     /* wait4 */
	t->blk.futex_addr[0] = 0x7f0000001000ull + pid * 0x40;
	t->blk.futex_addr[1] = 0x7f0000002000ull + (below(3)) * 0x40;
}

/* The threads of a run: MySQL-like pools, a Java pool, a PostgreSQL
 * postmaster with backends (one group), a client, and idle kernel
 * threads; some born late, some dying, one tid reused. */
static void sim_init(struct sim *s, int ticks)
{
	char name[16];

	memset(s, 0, sizeof(*s));
	add_thread(s, 100, 100, "mysqld", "mysqld", 0, -1, 1);
	for (int i = 0; i < 6; i++) {
		snprintf(name, sizeof(name), "connection-%d", i + 1);
		add_thread(s, 100, 101 + (uint32_t)i, name, "mysqld", i < 4 ? 0 : 1 + (int)below(3),
			   i == 2 ? ticks / 2 : -1, 3);
	}
	for (int i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "ib_io_rd-%d", i + 1);
		add_thread(s, 100, 110 + (uint32_t)i, name, "mysqld", 0, -1, 1);
	}
	add_thread(s, 200, 200, "java", "java", 0, -1, 1);
	for (int i = 0; i < 4; i++)
		add_thread(s, 200, 201 + (uint32_t)i, "TNT_L0_1002", "java", 0, -1, 3);
	add_thread(s, 200, 206, "RpcIO", "java", 0, -1, 2);
	add_thread(s, 200, 207, "RpcIO", "java", 0, -1, 2);
	add_thread(s, 500, 500, "postgres", "postgres", 0, -1, 1);
	add_thread(s, 501, 501, "postgres", "postgres", 0, -1, 2);
	add_thread(s, 502, 502, "postgres", "postgres", 1, -1, 2);
	add_thread(s, 600, 600, "sysbench", "sysbench", 0, -1, 2);
	for (int i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "sysbench-%d", i);
		add_thread(s, 600, 601 + (uint32_t)i, name, "sysbench", 0, -1, 3);
	}
	/* a tid that dies and comes back in another process */
	add_thread(s, 700, 700, "cron", "cron", 0, ticks / 3, 1);
	add_thread(s, 710, 700, "backup", "backup", ticks / 3 + 1, -1, 2);
	/* kernel threads: most asleep, a few doing a little */
	for (int c = 0; c < NCPUS; c++) {
		snprintf(name, sizeof(name), "kworker/%d:1", c);
		add_thread(s, 10 + (uint32_t)c * 4, 10 + (uint32_t)c * 4, name, name, 0, -1, c == 1);
		snprintf(name, sizeof(name), "migration/%d", c);
		add_thread(s, 11 + (uint32_t)c * 4, 11 + (uint32_t)c * 4, name, name, 0, -1, 0);
		snprintf(name, sizeof(name), "ksoftirqd/%d", c);
		add_thread(s, 12 + (uint32_t)c * 4, 12 + (uint32_t)c * 4, name, name, 0, -1, c == 0);
	}
	add_thread(s, 9, 9, "rcu_preempt", "rcu_preempt", 0, -1, 0);
	/* the run-queue and futex histograms per (process, thread name) */
	for (int i = 0; i < s->n && s->nh + 2 <= 96; i++) {
		bool seen = false;

		for (int k = 0; k < s->nh && !seen; k++)
			seen = s->h[k].pid == s->t[i].pid && !strcmp(s->h[k].comm, s->t[i].comm);
		if (seen || !s->t[i].busy)
			continue;
		for (uint32_t kind = 0; kind < DBT_SCHED_HIST_KINDS; kind++) {
			struct sim_hist *h = &s->h[s->nh++];

			memset(h, 0, sizeof(*h));
			h->pid = s->t[i].pid;
			h->kind = kind;
			memcpy(h->comm, s->t[i].comm, 16);
			h->born_ns = 1 + below(1000);
		}
	}
	/* net and loss */
	snprintf(s->dev[0].name, 16, "eth0");
	s->dev[0].netns = 1;
	snprintf(s->dev[1].name, 16, "lo");
	s->dev[1].netns = 1;
	snprintf(s->dev[2].name, 16, "veth1");
	s->dev[2].netns = 2;
	snprintf(s->dev[2].netns_name, NET_NETNS_NAME_MAX, "blue");
	s->port[0] = (struct net_port_sample){ .port = 3306, .role = DBT_NET_SERVER, .gen = 1 };
	s->port[1] = (struct net_port_sample){ .port = 5432, .role = DBT_NET_SERVER, .gen = 1 };
	s->port[2] = (struct net_port_sample){ .port = 3306, .role = DBT_NET_CLIENT, .gen = 1 };
	s->port[3] = (struct net_port_sample){ .port = 8080, .role = DBT_NET_SERVER, .gen = 1 };
	s->lport[0] = (struct loss_port_sample){ .port = 3306, .role = DBT_NET_SERVER };
	s->lport[1] = (struct loss_port_sample){ .port = 3306, .role = DBT_NET_CLIENT };
	s->lport[2] = (struct loss_port_sample){ .port = 9000, .role = DBT_NET_SERVER };
	for (int i = 0; i < 4; i++) {
		s->drop[i].key.reason = i == 3 ? 0 : 2 + (uint32_t)i;
		s->drop[i].key.netns = i == 2 ? 2 : 1;
		s->drop[i].key.ifindex = i == 1 ? 0 : 2;
		s->drop[i].key.port = i == 0 ? 3306 : 0;
		s->drop[i].key.role = DBT_NET_SERVER;
		snprintf(s->drop[i].dev, 16, "%s", i == 1 ? "" : i == 2 ? "veth1" : "eth0");
	}
	s->tcp.have = true;
}

static bool alive(const struct sim_thread *t, int tick)
{
	return t->born <= tick && (t->dies < 0 || tick <= t->dies);
}

static void grow_hist(__u64 *b, uint64_t n, uint64_t max_ns)
{
	for (uint64_t i = 0; i < n; i++)
		b[dbt_hist_bucket(1 + below(max_ns))] += 1 + below(3);
}

/* One tick of the host: every live thread's totals grow. */
static void sim_step(struct sim *s, int tick)
{
	for (int i = 0; i < s->n; i++) {
		struct sim_thread *t = &s->t[i];
		uint64_t on, scale;

		if (!alive(t, tick) || tick == t->born)
			continue;
		/* a busy thread pauses now and then: its class drops out */
		scale = t->busy && below(5) ? (uint64_t)t->busy : 0;
		on = below(scale * 120000000ull);
		t->oncpu += on;
		t->runq += below(scale * 30000000ull);
		t->vol += below(scale * 3000);
		t->invol += below(scale * 400);
		t->mig += below(scale * 20);
		t->sirq += on / 50;
		t->nsirq += on / 120;
		t->utime += 4000000 * below(on / 4000000 + 1);
		t->stime += 4000000 * below(on / 8000000 + 1);
		for (int r = 0; r < DBT_BLK_REASONS; r++)
			t->blk.ns[r] += below(scale * 60000000ull) * (below(3) == 0);
		t->blk.sys_ns[0] += below(scale * 20000000ull);
		t->blk.sys_ns[1] += below(scale * 5000000ull) * (t->pid == 600);
		t->blk.futex_ns[0] += below(scale * 30000000ull);
		t->blk.futex_ns[1] += below(scale * 10000000ull);
		t->blk.since_ns = below(4) ? 0 : (uint64_t)tick * NS + below(NS / 4);
		t->blk.since_oncpu_ns = t->oncpu - below(on / 4 + 1);
		t->blk.since_runq_ns = t->runq;
		t->blk.reason = (uint32_t)below(DBT_BLK_REASONS);
		if (t->dies == tick)
			t->blk.exit_ns = (uint64_t)tick * NS + below(NS / 2);
		if (t->pid == 100 || t->pid == 200 || t->pid == 600) {
			uint64_t n = below(scale * 120);

			t->clock_samples += n;
			t->clock_user += n / 2;
			t->clock_vdso[1] += n / 4;
			t->clock_vdso[2] += n / 8;
			t->clock_vdso[0] += below(2);
			t->clock_sys += n / 16;
			for (int k = 0; k < DBT_CLOCK_SYS_N; k++)
				t->clock_calls[k] += below(scale * 500);
		}
	}
	for (int i = 0; i < s->nh; i++) {
		struct sim_hist *h = &s->h[i];
		__u64 add[DBT_HIST_BUCKETS] = { 0 };

		if (below(6) == 0)
			continue;
		if (below(40) == 0)   /* evicted and made anew */
			h->born_ns++;
		grow_hist(add, 5 + below(40), h->kind ? 2000000 : 400000);
		for (int b = 0; b < DBT_HIST_BUCKETS; b++)
			h->buckets[b] += (__u32)add[b];
	}
	for (int c = 0; c < NCPUS; c++) {
		uint64_t busy = below(60), sys = below(30), idle = 100 - busy / 2 - sys / 2;

		s->stat[c].ticks[PS_USER] += busy;
		s->stat[c].ticks[PS_SYSTEM] += sys;
		s->stat[c].ticks[PS_IDLE] += idle;
		s->stat[c].ticks[PS_IOWAIT] += below(5);
		s->stat[c].ticks[PS_SOFTIRQ] += below(8);
		s->stat[c].ticks[PS_STEAL] += below(2);
		for (int v = 0; v < DBT_SOFTIRQ_VECS; v++) {
			uint64_t n = v == DBT_SOFTIRQ_NET_RX ? below(40000) : below(v == DBT_SOFTIRQ_TIMER ? 2000 : 30);

			s->sirq[c].entries[v] += n;
			s->sirq[c].raises[v] += n + below(10);
			s->sirq[c].time_ns[v] += n * (500 + below(3000));
			s->wait[c][v].timed += n / 16;
			grow_hist(s->wait[c][v].buckets, n / 200 + (n > 0), 50000);
		}
		s->sirq[c].hardirq_ns += below(8000000);
		s->sirq[c].hardirq_count += below(5000);
		s->softnet[c].cpu = c;
		s->softnet[c].cpu_listed = true;
		s->softnet[c].processed += (uint32_t)below(100000);
		s->softnet[c].dropped += (uint32_t)(below(4) == 0 ? below(50) : 0);
		s->softnet[c].time_squeeze += (uint32_t)below(20);
	}
	for (int d = 0; d < 3; d++) {
		struct net_dev_sample *v = &s->dev[d];
		uint64_t p = d == 1 ? below(200000) : below(50000);

		v->xmit_packets += p;
		v->xmit_bytes += p * (60 + below(1400));
		v->tx_packets += p;
		v->tx_bytes += p * 800;
		v->rx_packets += below(60000);
		v->rx_bytes += below(60000) * 900;
		v->txq_timed += p / 16;
		grow_hist(v->txq_hist, p / 500 + 1, d == 0 ? 3000000 : 20000);
	}
	for (int k = 0; k < 4; k++) {
		struct net_port_sample *p = &s->port[k];
		uint64_t n = k == 3 && tick % 3 ? 0 : below(20000);

		p->requests += n;
		p->reads += n + below(100);
		p->resp_timed += n / 16;
		p->rxq_timed += n / 16;
		grow_hist(p->resp_hist, n / 300 + (n > 0), k == 2 ? 4000000 : 800000);
		grow_hist(p->rxq_hist, n / 400 + (n > 0), 200000);
		if (k == 3 && tick == 4)
			p->gen++;
	}
	for (int k = 0; k < 3; k++) {
		struct dbt_loss_port *c = &s->lport[k].c;

		for (int r = 0; r < DBT_RETX_KINDS; r++)
			c->segs[r] += below(4) == 0 ? below(30) : 0;
		c->rto_timer += below(5);
		c->tlp_probes += below(7);
		c->stalls += below(3);
		c->stall_rto_jiffies += below(3) * 50;
		c->conns += below(4);
	}
	for (int k = 0; k < 4; k++) {
		uint64_t n = below(3) == 0 ? below(500) : 0;

		s->drop[k].count += n;
		s->reasons[s->drop[k].key.reason] += n;
	}
	s->tcp.listen_overflows += below(3);
	s->tcp.listen_drops += below(5);
	s->tcp.memory_pressures += below(2);
	s->tcp.memory_pressure_ms += below(20);
	s->tcp.abort_on_memory += below(2);
	s->tcp.timeouts += below(9);
	s->tcp.loss_probes += below(9);
	s->tcp.retrans_segs += below(90);
	s->lis_drops[0] += (uint32_t)below(4);
	s->lis_drops[1] += (uint32_t)below(2);
	s->evictions += below(3) == 0;
	s->lost += below(5) == 0;
	s->clock_total += 400 + below(400);
}

static const struct loss_reason_names *reason_names(void)
{
	static struct loss_reason_names n;

	snprintf(n.name[2], LOSS_REASON_NAME_MAX, "not_specified");
	snprintf(n.name[3], LOSS_REASON_NAME_MAX, "no_socket");
	snprintf(n.name[4], LOSS_REASON_NAME_MAX, "qdisc_drop");
	return &n;
}

/* The world the collectors would have read at this tick. */
static void sim_snapshot(const struct sim *s, int tick, struct world_snapshot *w, struct dbt_sched_ival *ival)
{
	uint64_t mono = (uint64_t)(tick + 1) * NS + (uint64_t)tick * 1000;

	w->cpu.mono_ns = mono;
	w->cpu.have_sirq = w->cpu.have_stat = true;
	for (int c = 0; c < NCPUS; c++) {
		w->cpu.cpu[c].stat = s->stat[c];
		/* CPU 3 goes offline for one tick */
		w->cpu.cpu[c].stat.online = !(c == 3 && tick == 5);
		w->cpu.cpu[c].sirq = s->sirq[c];
		memcpy(w->cpu.cpu[c].sirq_wait, s->wait[c], sizeof(s->wait[c]));
	}
	sched_snapshot_free(&w->sched);
	w->sched.mono_ns = mono;
	w->sched.evictions = s->evictions;
	w->sched.lost = s->lost;
	for (int i = 0; i < s->n; i++) {
		const struct sim_thread *t = &s->t[i];
		struct sched_thread_sample *x;

		if (!alive(t, tick))
			continue;
		x = sched_snapshot_add(&w->sched);
		if (!x)
			die("sched sample", ENOMEM);
		x->tid = t->tid;
		x->pid = t->pid;
		memcpy(x->comm, t->comm, 16);
		memcpy(x->pcomm, t->pcomm, 16);
		x->exited = t->dies == tick;
		x->oncpu_ns = t->oncpu;
		x->runq_ns = t->runq;
		x->vol = t->vol;
		x->invol = t->invol;
		x->migrations = t->mig;
		x->sirq_ns = t->sirq;
		x->net_sirq_ns = t->nsirq;
		x->utime_ns = t->utime;
		x->stime_ns = t->stime;
		x->blk = t->blk;
	}
	for (int i = 0; i < s->nh; i++) {
		struct sched_name_hist *r = sched_snapshot_add_name_hist(&w->sched);

		if (!r)
			die("runq sample", ENOMEM);
		r->pid = s->h[i].pid;
		r->kind = s->h[i].kind;
		memcpy(r->comm, s->h[i].comm, 16);
		r->born_ns = s->h[i].born_ns;
		memcpy(r->buckets, s->h[i].buckets, sizeof(r->buckets));
	}
	sched_snapshot_sort(&w->sched);
	for (int i = 0; i < w->sched.n; i++) {
		memset(&ival[i], 0, sizeof(ival[i]));
		ival[i].runq_max_ns = below(5000000);
		ival[i].cpus[0] = 1ull << below(NCPUS) | 1ull << below(NCPUS);
		ival[i].cpus_beyond = below(50) == 0;
	}
	w->sched.ival = ival;
	w->have_sched = true;

	clock_snapshot_free(&w->clock);
	w->clock.mono_ns = mono;
	w->clock.syscall_method = tick % 2 ? "fentry" : "fentry";
	w->clock.stats.samples = s->clock_total;
	w->clock.stats.idle_samples = s->clock_total / 3;
	w->clock.stats.kthread_samples = s->clock_total / 20;
	w->clock.stats.update_failed = s->lost;
	for (int i = 0; i < s->n; i++) {
		const struct sim_thread *t = &s->t[i];
		struct clock_thread_sample *x;

		if (!alive(t, tick) || !t->clock_samples)
			continue;
		x = clock_snapshot_add(&w->clock);
		if (!x)
			die("clock sample", ENOMEM);
		x->tid = t->tid;
		x->c.pid = t->pid;
		memcpy(x->c.comm, t->comm, 16);
		x->c.samples = t->clock_samples;
		x->c.user_samples = t->clock_user;
		for (int k = 0; k < 4; k++)
			x->c.vdso[k] = t->clock_vdso[k];
		x->c.sys_samples = t->clock_sys;
		memcpy(x->c.syscalls, t->clock_calls, sizeof(x->c.syscalls));
	}
	clock_snapshot_sort(&w->clock);
	w->have_clock = true;

	net_snapshot_free(&w->net);
	w->net.mono_ns = mono;
	w->net.self_netns = 1;
	w->net.stats.port_failed = s->lost;
	for (int d = 0; d < 3; d++) {
		struct net_dev_sample *v = net_snapshot_add_dev(&w->net);

		if (!v)
			die("net dev", ENOMEM);
		*v = s->dev[d];
		v->have_txq = true;
		v->have_link = d != 2;
		v->speed_mbps = d == 0 ? 1000 : -1;
		if (d == 0) {
			v->have_qdisc = true;
			snprintf(v->qdisc.kind, sizeof(v->qdisc.kind), "tbf");
			v->qdisc.rate_bps = 20000000;
			v->qdisc.burst_bytes = 102400;
			v->qdisc.parent = 0xffffffff;
		}
	}
	for (int k = 0; k < 4; k++) {
		struct net_port_sample *p = net_snapshot_add_port(&w->net);

		if (!p)
			die("net port", ENOMEM);
		*p = s->port[k];
	}
	w->have_net = true;

	loss_snapshot_free(&w->loss);
	w->loss.mono_ns = mono;
	w->loss.self_netns = 1;
	w->loss.hz = 250;
	w->loss.names = reason_names();
	for (int k = 0; k < 3; k++) {
		struct loss_port_sample *p = loss_snapshot_add_port(&w->loss);

		if (!p)
			die("loss port", ENOMEM);
		*p = s->lport[k];
	}
	for (int k = 0; k < 4; k++) {
		struct loss_drop_sample *d = loss_snapshot_add_drop(&w->loss);

		if (!d)
			die("loss drop", ENOMEM);
		*d = s->drop[k];
	}
	memcpy(w->loss.reasons, s->reasons, sizeof(s->reasons));
	if (loss_snapshot_reserve_softnet(&w->loss, NCPUS))
		die("softnet", ENOMEM);
	for (int c = 0; c < NCPUS; c++)
		w->loss.softnet[w->loss.n_softnet++] = s->softnet[c];
	for (int n = 0; n < 2; n++) {
		struct loss_ns_sample *x = loss_snapshot_add_ns(&w->loss);

		if (!x)
			die("loss ns", ENOMEM);
		x->netns = (uint32_t)n + 1;
		snprintf(x->name, sizeof(x->name), "%s", n ? "blue" : "");
		x->tcp = s->tcp;
		x->tcp.have = n == 0 || tick > 2;
		x->limits.somaxconn = 4096;
		x->limits.tcp_max_syn_backlog = n ? -1 : 1024;
		x->limits.netdev_max_backlog = 1000;
	}
	for (int k = 0; k < 2; k++) {
		struct loss_listener_sample *l = loss_snapshot_add_listener(&w->loss);

		if (!l)
			die("listener", ENOMEM);
		l->netns = 1;
		l->inode = 1000 + (uint32_t)k;
		l->port = k ? 5432 : 3306;
		l->queue = (uint32_t)below(20);
		l->backlog = 128;
		l->have_drops = true;
		l->drops = s->lis_drops[k];
	}
	w->have_loss = true;
}

/* --- the outputs ------------------------------------------------------- */

static FILE *out_open(const char *dir, const char *name)
{
	char path[4096 + 256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		die(path, errno);
	return f;
}

/* Every text view of the interval, in every sort key of its table; the
 * class and time views with every class (all), or as they list them by
 * default, the idle ones folded. */
static void tables(FILE *f, const struct interval *iv, bool all)
{
	static const char cpu_keys[] = "cusSntThrHilxw";
	static const char class_keys[] = "ptCVIR59MmLDP";
	static const char time_keys[] = "ptouyrsbfndzxkw";
	static const char net_keys[] = "PMQR9X";
	char line[1024];
	int order[NCPUS], n;

	for (const char *k = all ? cpu_keys : ""; *k; k++) {
		cpu_table_header(line, sizeof(line), *k);
		fprintf(f, "%s\n", line);
		cpu_table_row(line, sizeof(line), &iv->total, iv->dt_s);
		fprintf(f, "%s\n", line);
		n = cpu_table_sort(iv->rows, iv->ncpus, *k, order);
		for (int i = 0; i < n; i++) {
			cpu_table_row(line, sizeof(line), &iv->rows[order[i]], iv->dt_s);
			fprintf(f, "%s\n", line);
		}
	}
	for (const char *k = class_keys; *k; k++) {
		struct class_rows rows;

		class_view_header(&class_table_view, line, sizeof(line), *k);
		fprintf(f, "%s\n", line);
		if (class_view_rows(&class_table_view, &iv->sched, *k, all, &rows))
			abort();
		for (int i = 0; i < rows.n; i++) {
			class_view_row(&class_table_view, line, sizeof(line), &rows.row[i]);
			fprintf(f, "%s\n", line);
		}
		class_rows_free(&rows);
	}
	for (const char *k = time_keys; *k; k++) {
		struct class_rows rows;

		class_view_header(&time_table_view, line, sizeof(line), *k);
		fprintf(f, "%s\n", line);
		if (class_view_rows(&time_table_view, &iv->sched, *k, all, &rows))
			abort();
		for (int i = 0; i < rows.n; i++) {
			class_view_row(&time_table_view, line, sizeof(line), &rows.row[i]);
			fprintf(f, "%s\n", line);
		}
		class_rows_free(&rows);
	}
	for (const char *k = all ? net_keys : ""; *k; k++) {
		const struct net_interval *ni = &iv->net;
		int o[64];

		net_dev_header(line, sizeof(line), *k);
		fprintf(f, "%s\n", line);
		n = net_dev_sort(ni, *k, o);
		for (int i = 0; i < n; i++) {
			net_dev_row(line, sizeof(line), &ni->devs[o[i]], ni->dev_loss ? &ni->dev_loss[o[i]] : NULL);
			fprintf(f, "%s\n", line);
		}
		net_port_header(line, sizeof(line), *k);
		fprintf(f, "%s\n", line);
		n = net_port_sort(ni, *k, o);
		for (int i = 0; i < n; i++) {
			net_port_row(line, sizeof(line), &ni->ports[o[i]], ni->port_loss ? &ni->port_loss[o[i]] : NULL);
			fprintf(f, "%s\n", line);
		}
	}
}

/* What the judge's reads would find in /proc: every group may run on
 * CPUs 0-3 but the java one, on 1-2, its classes' threads on CPU 1. */
static int fake_group_cpus(void *ctx, int pid, int index, struct dbt_cpuset *cpus, unsigned int *n_differ)
{
	(void)ctx;
	(void)index;
	dbt_cpuset_zero(cpus);
	for (unsigned int c = pid == 200 ? 1 : 0; c < (pid == 200 ? 3u : NCPUS); c++)
		dbt_cpuset_set(cpus, c);
	*n_differ = pid == 200;
	return 0;
}

static bool fake_wants_class(void *ctx, const struct sched_class_stats *c)
{
	(void)ctx;
	(void)c;
	return true;
}

static int fake_class_cpus(void *ctx, const struct class_map *map, int cls, struct dbt_cpuset *cpus)
{
	(void)ctx;
	(void)map;
	(void)cls;
	dbt_cpuset_zero(cpus);
	dbt_cpuset_set(cpus, 1);
	return 1;
}

static void some_findings(struct finding_list *l, int tick)
{
	struct finding f;

	findings_clear(l);
	if (tick % 2)
		return;
	memset(&f, 0, sizeof(f));
	snprintf(f.id, sizeof(f.id), "oversubscription");
	f.severity = tick % 4 ? SEV_WARNING : SEV_CRITICAL;
	f.pid = 200;
	snprintf(f.class_name, sizeof(f.class_name), "TNT_L0_1002");
	snprintf(f.title, sizeof(f.title), "more runnable threads than CPUs");
	snprintf(f.hint, sizeof(f.hint), "fewer workers");
	f.first_interval = f.last_interval = tick;
	finding_num(&f, "runnable_avg", 3.5 + tick);
	finding_text(&f, "cpus", "%s", "1-2");
	if (findings_merge(l, &f))
		die("finding", ENOMEM);
}

static int run_seed(const char *dir, unsigned int seed, int ticks)
{
	static struct dbt_sched_ival ival[2][128];
	static const struct tclass_override ovr[] = { { "conn", "connection-*" } };
	struct world_snapshot w[2], clock_first = { 0 }, net_first = { 0 };
	struct cpu_snapshot first_cpu;
	struct tclass_classifier *cls;
	struct sched_summary summary = { 0 };
	struct finding_list now = { 0 }, run = { 0 };
	struct class_map_proc procs[] = { { 500, 500, NULL }, { 501, 500, "postgres: backend" },
					  { 502, 500, "postgres: backend" } };
	int filter_pids[] = { 100, 200, 500, 600, 700, 710, 9, 10, 11, 12, 14, 15, 16 };
	struct sched_filter sf = { filter_pids, 0, NULL, false };
	uint16_t ports[] = { 3306, 9000 };
	struct net_filter nf = { ports, seed % 3 ? 0 : 2 };
	struct tick_filters tf;
	struct prom_totals *pt;
	struct probe_report probes[5] = { { .family = "softirq", .attach = "tp_btf" },
					  { .family = "sched", .attach = "tp_btf" },
					  { .family = "clock", .attach = "perf_event+tp_btf" },
					  { .family = "net", .attach = "tp_btf" },
					  { .family = "loss", .attach = "tp_btf" } };
	struct prom_build build = { "0.1.0", probes, 5 };
	struct prom_self self = { 1.5, 1e7, 1.7e9 };
	struct capture_meta meta = { .version = "0.1.0", .started_at = "2026-01-01T00:00:00.000Z",
				     .started_at_monotonic_s = 1234.5, .interval_s = 1, .probes = probes,
				     .n_probes = 5 };
	struct capture_writer *cw;
	struct cpu_row rows[NCPUS], whole[NCPUS];
	struct sim *s = calloc(1, sizeof(*s));
	char name[64], err[256];
	FILE *metrics, *text, *folded;
	int cur = 1;

	if (!s)
		die("sim", ENOMEM);
	rng_state = 0x9e3779b97f4a7c15ull * (seed + 1);
	sim_init(s, ticks);
	if (tclass_classifier_new(ovr, seed % 2, &cls) || prom_totals_new(&pt, 3 + (int)(seed % 5)))
		die("setup", ENOMEM);
	tf = (struct tick_filters){ cls, &sf, &nf, seed % 4 ? procs : NULL, seed % 4 ? 3 : 0 };
	sf.n_pids = seed % 5 == 1 ? 13 : 0;
	snprintf(meta.host.hostname, sizeof(meta.host.hostname), "replay");
	snprintf(meta.host.kernel, sizeof(meta.host.kernel), "6.18");
	meta.host.cpus = NCPUS;
	snprintf(meta.host.clocksource, sizeof(meta.host.clocksource), "tsc");
	if (world_snapshot_alloc(&w[0], NCPUS) || world_snapshot_alloc(&w[1], NCPUS) ||
	    cpu_snapshot_alloc(&first_cpu, NCPUS))
		die("world", ENOMEM);
	snprintf(name, sizeof(name), "%s/%u.capture.json", dir, seed);
	if (capture_open(&cw, name, err, sizeof(err)) || capture_begin(cw, &meta))
		die(err, EIO);
	snprintf(name, sizeof(name), "%u.metrics.txt", seed);
	metrics = out_open(dir, name);
	snprintf(name, sizeof(name), "%u.tables.txt", seed);
	text = out_open(dir, name);
	snprintf(name, sizeof(name), "%u.folded.txt", seed);
	folded = out_open(dir, name);

	sim_snapshot(s, 0, &w[0], ival[0]);
	cpu_snapshot_copy(&first_cpu, &w[0].cpu);
	if (clock_snapshot_copy(&clock_first.clock, &w[0].clock) || net_snapshot_copy(&net_first.net, &w[0].net) ||
	    loss_snapshot_copy(&net_first.loss, &w[0].loss))
		die("first", ENOMEM);
	for (int tick = 1; tick <= ticks; tick++) {
		struct world_snapshot *prev = &w[cur ^ 1], *now_w = &w[cur];
		static struct clock_fn_table fns;
		struct tick_cpus cpus = { NULL, fake_group_cpus, fake_wants_class, fake_class_cpus };
		struct tick_args args = { &tf, &cpus, tick - 1, first_cpu.mono_ns, rows, &fns, 499, 0 };
		struct interval iv;
		int err2;

		snprintf(fns.name[1], VDSO_NAME_MAX, "clock_gettime");
		snprintf(fns.name[2], VDSO_NAME_MAX, "gettimeofday");
		snprintf(fns.name[3], VDSO_NAME_MAX, "time");
		sim_step(s, tick);
		sim_snapshot(s, tick, now_w, ival[cur]);
		args.lost_events = s->lost;
		err2 = tick_compute(prev, now_w, &args, &iv);
		if (err2)
			die("tick", err2);
		some_findings(&now, tick);
		for (int i = 0; i < now.n; i++)
			if (findings_merge(&run, &now.items[i]))
				die("merge", ENOMEM);
		if (sched_summary_add(&summary, &iv.sched))
			die("summary", ENOMEM);
		if (capture_add_interval(cw, &iv))
			die("capture interval", EIO);
		if (prom_totals_add(pt, &iv, &now))
			die("totals", ENOMEM);
		fprintf(metrics, "# --- interval %d\n", tick);
		prom_render(pt, &build, &self, metrics);
		fprintf(text, "--- interval %d\n", tick);
		tables(text, &iv, true);
		fprintf(folded, "--- interval %d\n", tick);
		tables(folded, &iv, false);
		interval_free(&iv);
		cur ^= 1;
	}
	{
		const struct world_snapshot *last = &w[cur ^ 1];
		struct clock_interval ci;
		struct net_interval ni = { 0 };
		struct loss_interval li = { 0 };
		bool have_net, have_loss;
		struct capture_summary sum = { 0 };
		static struct clock_fn_table fns;

		snprintf(fns.name[1], VDSO_NAME_MAX, "clock_gettime");
		snprintf(fns.name[2], VDSO_NAME_MAX, "gettimeofday");
		snprintf(fns.name[3], VDSO_NAME_MAX, "time");
		sched_summary_finish(&summary);
		if (tick_clock_run(&clock_first.clock, &last->clock, &tf, &ci) ||
		    tick_net_run(&net_first.net, &last->net, &net_first.loss, &last->loss, &nf, &ni, &have_net,
				 &li, &have_loss))
			die("run", ENOMEM);
		cpu_rows_compute(&first_cpu, &last->cpu, whole);
		sum.complete = seed % 3 != 2;
		sum.stop_reason = sum.complete ? "duration" : "SIGTERM";
		sum.duration_s = ticks;
		sum.cpu_pct = 0.8;
		sum.max_rss_kb = 12345;
		sum.lost_events = s->lost;
		sum.thread_evictions = s->evictions;
		sum.ncpus = NCPUS;
		sum.rows = whole;
		sum.sched = &summary;
		sum.clock = &ci;
		sum.clock_fns = &fns;
		sum.clock_hz = 499;
		sum.net = have_net ? &ni : NULL;
		sum.loss = have_loss ? &li : NULL;
		sum.findings = &run;
		if (capture_finish(cw, &sum, err, sizeof(err)))
			die(err, EIO);
		clock_interval_free(&ci);
		net_interval_free(&ni);
		loss_interval_free(&li);
	}
	fclose(metrics);
	fclose(text);
	fclose(folded);
	sched_summary_free(&summary);
	findings_free(&now);
	findings_free(&run);
	world_snapshot_free(&w[0]);
	world_snapshot_free(&w[1]);
	clock_snapshot_free(&clock_first.clock);
	net_snapshot_free(&net_first.net);
	loss_snapshot_free(&net_first.loss);
	cpu_snapshot_free(&first_cpu);
	prom_totals_free(pt);
	tclass_classifier_free(cls);
	free(s);
	return 0;
}

/* A capture read back: its report, and its diff against another. */
static void read_capture(const char *path, struct capture *c)
{
	char err[512];

	if (capture_read_file(path, c, err, sizeof(err))) {
		fprintf(stderr, "replay: %s\n", err);
		exit(1);
	}
}

static void report(const char *dir, const char *name, const struct capture *c, int top_n)
{
	struct report_opts o = { .top_n = top_n, .generator = "dbtrace replay" };
	FILE *f = out_open(dir, name);

	if (report_html_write(f, c, &o))
		die("report", EIO);
	fclose(f);
}

static void diff(const char *dir, const char *name, const struct capture *a, const struct capture *b,
		 int top_n)
{
	struct cdiff_opts o = { .top_n = top_n };
	struct capture_diff d;
	char file[256];
	FILE *f;

	if (capture_diff_compute(a, b, &o, &d))
		die("diff", ENOMEM);
	snprintf(file, sizeof(file), "%s.diff.txt", name);
	f = out_open(dir, file);
	diff_table_text(f, a, b, &d);
	fclose(f);
	snprintf(file, sizeof(file), "%s.diff.json", name);
	f = out_open(dir, file);
	diff_table_json(f, a, b, &d);
	fclose(f);
	capture_diff_free(&d);
}

static void fixtures(const char *dir)
{
	char outdir[4096];

	static const char *const names[] = { "rr", "pool1", "pool8", "tbf", "rr-no-net-clock", "time_a",
					     "time_b", "time_ivals", "time_futex" };
	enum { N = sizeof(names) / sizeof(names[0]) };
	struct capture c[N];
	char path[4096], name[128];

	/* read by their names under FIXTURES, which the report and the
	 * diff print: the same wherever the tree is */
	if (!getcwd(outdir, sizeof(outdir)) || chdir(FIXTURES))
		die(FIXTURES, errno);
	dir = outdir;
	for (int i = 0; i < N; i++) {
		snprintf(path, sizeof(path), "captures/%s.json", names[i]);
		read_capture(path, &c[i]);
		snprintf(name, sizeof(name), "fixture.%s.html", names[i]);
		report(dir, name, &c[i], 20);
		snprintf(name, sizeof(name), "fixture.%s.top3.html", names[i]);
		report(dir, name, &c[i], 3);
	}
	for (int i = 0; i < N; i++)
		for (int k = 0; k < N; k++) {
			if (i == k)
				continue;
			snprintf(name, sizeof(name), "fixture.%s-%s", names[i], names[k]);
			diff(dir, name, &c[i], &c[k], (i + k) % 2 ? 20 : 4);
		}
	for (int i = 0; i < N; i++)
		capture_free(&c[i]);
}

int main(int argc, char **argv)
{
	const char *dir;
	int seeds, ticks;

	if (argc < 2) {
		fprintf(stderr, "usage: replay DIR [SEEDS [TICKS]]\n");
		return 2;
	}
	dir = argv[1];
	seeds = argc > 2 ? atoi(argv[2]) : 12;
	ticks = argc > 3 ? atoi(argv[3]) : 8;
	if (mkdir(dir, 0755) && errno != EEXIST)
		die(dir, errno);
	/* the outputs name their captures: by paths that do not depend on DIR */
	if (chdir(dir))
		die(dir, errno);
	dir = ".";
	for (int seed = 0; seed < seeds; seed++)
		run_seed(dir, (unsigned int)seed, ticks);
	for (int seed = 0; seed < seeds; seed++) {
		struct capture a, b;
		char path[4096], name[128];

		snprintf(path, sizeof(path), "%s/%d.capture.json", dir, seed);
		read_capture(path, &a);
		snprintf(name, sizeof(name), "%d.report.html", seed);
		report(dir, name, &a, 4 + seed % 20);
		snprintf(path, sizeof(path), "%s/%d.capture.json", dir, (seed + 1) % seeds);
		read_capture(path, &b);
		snprintf(name, sizeof(name), "%d-%d", seed, (seed + 1) % seeds);
		diff(dir, name, &a, &b, 2 + seed % 25);
		capture_free(&a);
		capture_free(&b);
	}
	fixtures(dir);
	return 0;
}
