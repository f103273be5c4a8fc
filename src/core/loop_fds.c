#include "core/loop_fds.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

int signals_open(void)
{
	struct sigaction old;
	sigset_t set;
	int fd;

	/* a non-interactive shell starts background jobs with SIGINT ignored,
	 * and an ignored signal never reaches a signalfd: Ctrl-C and kill -INT
	 * must still end a capture cleanly. (SIGHUP stays as inherited, so
	 * nohup keeps working.) */
	if (sigaction(SIGINT, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
		signal(SIGINT, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		return -errno;
	fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	return fd < 0 ? -errno : fd;
}

int signals_take(int sfd)
{
	struct signalfd_siginfo si;

	if (read(sfd, &si, sizeof(si)) != (ssize_t)sizeof(si))
		return 0;
	return (int)si.ssi_signo;
}

static struct timespec to_timespec(double s)
{
	double whole = floor(s);
	struct timespec ts = { (time_t)whole, (long)((s - whole) * 1e9) };

	return ts;
}

int ticker_set(int tfd, double first_s, double interval_s)
{
	struct itimerspec its = { to_timespec(interval_s), to_timespec(first_s) };

	return timerfd_settime(tfd, 0, &its, NULL) ? -errno : 0;
}

int ticker_open(double first_s, double interval_s)
{
	int fd, err;

	fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (fd < 0)
		return -errno;
	err = ticker_set(fd, first_s, interval_s);
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

uint64_t ticker_take(int tfd)
{
	uint64_t n = 0;

	if (read(tfd, &n, sizeof(n)) != (ssize_t)sizeof(n))
		return 0;
	return n;
}

uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}
