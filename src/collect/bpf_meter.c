#include "collect/bpf_meter.h"
#include "core/loop_fds.h"

#include <bpf/bpf.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

/* BPF_ENABLE_STATS: the statistics on for as long as the fd is open. */
static int stats_on(void)
{
	int fd = bpf_enable_stats(BPF_STATS_RUN_TIME);

	return fd < 0 ? (errno ? -errno : -EINVAL) : fd;
}

void bpf_meter_init(struct bpf_meter *m)
{
	memset(m, 0, sizeof(*m));
	m->stats_fd = m->timer_fd = -1;
}

void bpf_meter_open(struct bpf_meter *m)
{
	int fd;

	bpf_meter_init(m);
	fd = stats_on();
	if (fd < 0) {
		m->error = fd;
		return;
	}
	close(fd);
	m->timer_fd = ticker_open(1, 0);
	if (m->timer_fd < 0) {
		m->error = m->timer_fd;
		m->timer_fd = -1;
		return;
	}
	/* armed only by a window */
	ticker_set(m->timer_fd, 0, 0);
}

int bpf_meter_window(struct bpf_meter *m, const struct collectors *c, double len_s)
{
	int err;

	if (m->timer_fd < 0 || m->opened_ns)
		return 0;
	/* the counters before switching on, and after switching off (in
	 * bpf_meter_end): every run timed is inside the window, and the
	 * windows' sum is what the programs' counters hold (reading them
	 * takes milliseconds in a slow guest, a tenth of a window there) */
	collectors_bpf_runs(c, &m->at_open);
	m->stats_fd = stats_on();
	/* the window's length is the time the statistics were on */
	m->opened_ns = mono_ns();
	if (m->stats_fd < 0) {
		err = m->stats_fd;
		m->stats_fd = -1;
		m->error = err;
		m->opened_ns = 0;
		close(m->timer_fd);
		m->timer_fd = -1;
		return err;
	}
	return ticker_set(m->timer_fd, len_s, 0);
}

void bpf_meter_end(struct bpf_meter *m, const struct collectors *c)
{
	struct bpf_cost now;
	uint64_t t;

	if (!m->opened_ns)
		return;
	ticker_take(m->timer_fd);
	ticker_set(m->timer_fd, 0, 0);
	t = mono_ns();
	close(m->stats_fd);
	m->stats_fd = -1;
	collectors_bpf_runs(c, &now);
	now.on_ns = t > m->opened_ns ? t - m->opened_ns : 0;
	for (int f = 0; f < FAM_COUNT; f++) {
		now.fam[f] = bpf_runs_delta(&m->at_open.fam[f], &now.fam[f]);
		now.fam_on[f] = now.fam_on[f] && m->at_open.fam_on[f];
	}
	bpf_cost_add(&m->done, &now);
	m->opened_ns = 0;
}

void bpf_meter_take(struct bpf_meter *m, struct bpf_cost *out)
{
	*out = m->done;
	memset(&m->done, 0, sizeof(m->done));
}

const char *bpf_meter_why(const struct bpf_meter *m)
{
	if (!m->error)
		return NULL;
	if (m->error == -EINVAL || m->error == -ENOSYS)
		return "the kernel cannot switch BPF run-time statistics on (BPF_ENABLE_STATS, Linux 5.8)";
	return strerror(-m->error);
}

void bpf_meter_close(struct bpf_meter *m)
{
	if (m->stats_fd >= 0)
		close(m->stats_fd);
	if (m->timer_fd >= 0)
		close(m->timer_fd);
	m->stats_fd = m->timer_fd = -1;
	m->opened_ns = 0;
}
