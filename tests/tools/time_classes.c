/* Thread classes of known composition for the wall-time budget test
 * (tests/bats/time.bats), each timing itself:
 *   spin        spins: on CPU, or waiting for one
 *   sleeper     runs 30% of each 100 ms period, nanosleeps the rest
 *   locker-N    three threads taking turns on one mutex held 2 ms: futex
 *   recv        recv()/read() on a socket fed a datagram every 5 ms: net
 *   piperd      read() on a pipe fed a byte every 5 ms: pipe_other (read)
 *   feed        the feeder of both: nanosleep
 *   diskrd      O_DIRECT 4 KiB reads at random offsets of PATH: disk
 *
 * usage: time_classes [-d SECONDS] [-c NAME,...] [-b BYTES] PATH
 * -c runs only the classes named (recv and piperd need feed too); a
 * finding's test runs the class built for it beside one that must not
 * trigger it. -b is diskrd's read size (a multiple of 4096; default
 * 4096): the larger, the longer each read waits for the loop device's
 * worker to copy it, and the larger diskrd's disk share.
 * PATH is a block device (a loop device works on any file system, tmpfs
 * too), read as it is, or a directory on a disk, where a file is written.
 * Prints its pid, runs for SECONDS, then one line per class:
 *   class NAME threads=N wall_s=X oncpu_pct=X runq_pct=X STATE_pct=X other_pct=X
 * oncpu is CLOCK_THREAD_CPUTIME_ID; runq the run_delay of
 * /proc/thread-self/schedstat (the kernel's run-queue clock); STATE
 * (sleep, futex, net, disk) the time the thread itself measured in its
 * blocking call, less what the CPU clock and run_delay grew by during the
 * call (the wait for a CPU after its wakeup, and the call's own CPU time);
 * other what is left of the thread's wall time. Shares are of the
 * threads' summed wall time, each thread timed from its start to its end.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "tool_util.h"

#define PERIOD_US 100000
#define HOLD_US 2000
#define FEED_US 5000
#define LOCKERS 3
#define FILE_BYTES (16 << 20)
#define BLOCK 4096

static atomic_int stop;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int sock[2], pipe_fds[2];
static int disk_fd;
static off_t disk_blocks;
static size_t disk_read = BLOCK;   /* -b */

/* One thread's own account. */
struct account {
	const char *cls;
	const char *state;
	double wall, cpu, runq, blocked;
};

static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The thread's run_delay, from its own schedstat file, kept open and
 * read with pread: stdio's fopen takes a process-wide lock, which made
 * the lockers wait on a futex outside the calls they time. */
static __thread int schedstat_fd = -1;

static double run_delay_s(void)
{
	unsigned long long run, delay;
	char buf[128];
	ssize_t n;

	if (schedstat_fd < 0)
		schedstat_fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
	if (schedstat_fd < 0)
		die("/proc/thread-self/schedstat");
	n = pread(schedstat_fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		die("schedstat");
	buf[n] = 0;
	if (sscanf(buf, "%llu %llu", &run, &delay) != 2)
		die("schedstat");
	return (double)delay / 1e9;
}

/* Around a blocking call: the time it blocked, as the thread sees it. */
struct call {
	double t, cpu, runq;
};

static void call_begin(struct call *c)
{
	c->runq = run_delay_s();
	c->cpu = cpu_s();
	c->t = now_s();
}

static void call_end(struct call *c, struct account *a)
{
	double t = now_s(), cpu = cpu_s(), runq = run_delay_s();
	double b = (t - c->t) - (cpu - c->cpu) - (runq - c->runq);

	a->blocked += b > 0 ? b : 0;
}

static void spin_until(double t)
{
	while (now_s() < t)
		;
}

static void run_spin(struct account *a)
{
	while (!atomic_load(&stop))
		spin_until(now_s() + 0.001);
}

static void run_sleeper(struct account *a)
{
	while (!atomic_load(&stop)) {
		double start = now_s();
		struct call c;

		spin_until(start + PERIOD_US * 0.3 / 1e6);
		call_begin(&c);
		sleep_us(PERIOD_US * 7 / 10);
		call_end(&c, a);
	}
}

static void run_locker(struct account *a)
{
	while (!atomic_load(&stop)) {
		struct call c;

		call_begin(&c);
		pthread_mutex_lock(&lock);
		call_end(&c, a);
		spin_until(now_s() + HOLD_US / 1e6);
		/* the unlock's FUTEX_WAKE blocks too, on 6.18 (its futex hash
		 * of the process): timed, it is futex time as well */
		call_begin(&c);
		pthread_mutex_unlock(&lock);
		call_end(&c, a);
	}
}

/* recv and read by turns: read on a socket counts as net too */
static void run_recv(struct account *a)
{
	char buf[64];
	int n = 0;

	while (!atomic_load(&stop)) {
		struct call c;
		ssize_t r;

		call_begin(&c);
		r = n++ & 1 ? read(sock[0], buf, sizeof(buf)) : recv(sock[0], buf, sizeof(buf), 0);
		call_end(&c, a);
		if (r < 0)
			die("recv");
		if (r == 1 && buf[0] == 'q')
			break;
	}
}

static void run_piperd(struct account *a)
{
	char buf[64];

	for (;;) {
		struct call c;
		ssize_t r;

		call_begin(&c);
		r = read(pipe_fds[0], buf, sizeof(buf));
		call_end(&c, a);
		if (r < 0)
			die("read pipe");
		if (r == 0)
			break;
	}
}

static void run_feed(struct account *a)
{
	while (!atomic_load(&stop)) {
		struct call c;

		if (send(sock[1], "data", 4, 0) < 0 || write(pipe_fds[1], "d", 1) != 1)
			die("send");
		call_begin(&c);
		sleep_us(FEED_US);
		call_end(&c, a);
	}
	if (send(sock[1], "q", 1, 0) < 0)
		die("send");
	close(pipe_fds[1]);
}

static void run_disk(struct account *a)
{
	void *buf;
	unsigned int seed = 1;

	off_t span = disk_blocks - (off_t)(disk_read / BLOCK) + 1;

	if (span < 1 || posix_memalign(&buf, BLOCK, disk_read))
		die("-b: larger than PATH, or no memory");
	while (!atomic_load(&stop)) {
		off_t off = (off_t)rand_r(&seed) % span * BLOCK;
		struct call c;

		call_begin(&c);
		if (pread(disk_fd, buf, disk_read, off) != (ssize_t)disk_read)
			die("pread O_DIRECT");
		call_end(&c, a);
	}
	free(buf);
}

struct job {
	struct account a;
	char name[16];
	void (*run)(struct account *);
};

static void *thread_main(void *arg)
{
	struct job *j = arg;
	double t0, c0, r0;

	pthread_setname_np(pthread_self(), j->name);
	t0 = now_s();
	c0 = cpu_s();
	r0 = run_delay_s();
	j->run(&j->a);
	j->a.runq = run_delay_s() - r0;
	j->a.cpu = cpu_s() - c0;
	j->a.wall = now_s() - t0;
	return NULL;
}

/* A file of real data (not a hole: O_DIRECT reads of a hole do no I/O),
 * on disk before the reads start. */
static void open_disk(const char *dir)
{
	char path[4096], *chunk;
	struct stat st;
	int fd;

	if (stat(dir, &st))
		die(dir);
	if (S_ISBLK(st.st_mode)) {
		disk_fd = open(dir, O_RDONLY | O_DIRECT);
		if (disk_fd < 0)
			die(dir);
		disk_blocks = lseek(disk_fd, 0, SEEK_END) / BLOCK;
		if (disk_blocks <= 0)
			die("empty block device");
		return;
	}
	chunk = malloc(1 << 20);
	snprintf(path, sizeof(path), "%s/time_classes.data", dir);
	fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0600);
	if (fd < 0 || !chunk)
		die(path);
	memset(chunk, 0x5a, 1 << 20);
	for (int i = 0; i < FILE_BYTES >> 20; i++)
		if (write(fd, chunk, 1 << 20) != 1 << 20)
			die("write");
	if (fsync(fd))
		die("fsync");
	close(fd);
	free(chunk);
	disk_fd = open(path, O_RDONLY | O_DIRECT);
	if (disk_fd < 0)
		die("open O_DIRECT");
	unlink(path);
	disk_blocks = FILE_BYTES / BLOCK;
}

/* Keeps the jobs of the classes named in the comma-separated list
 * (in their order), returns how many. */
static int keep_classes(struct job *jobs, int n, const char *list)
{
	int kept = 0;

	for (int i = 0; i < n; i++) {
		const char *cls = jobs[i].a.cls;
		size_t len = strcspn(cls, "*");   /* locker-* is named "locker-" or "locker" */
		const char *p = list;

		while (*p) {
			size_t w = strcspn(p, ",");

			if (w && w <= len && !strncmp(p, cls, w) && (w == len || (w == len - 1 && cls[w] == '-'))) {
				jobs[kept++] = jobs[i];
				break;
			}
			p += w + (p[w] == ',');
		}
	}
	if (!kept) {
		fprintf(stderr, "time_classes: no class in -c %s\n", list);
		exit(2);
	}
	return kept;
}

int main(int argc, char **argv)
{
	struct job jobs[] = {
		{ .a = { .cls = "spin", .state = "oncpu" }, .name = "spin", .run = run_spin },
		{ .a = { .cls = "sleeper", .state = "sleep" }, .name = "sleeper", .run = run_sleeper },
		{ .a = { .cls = "locker-*", .state = "futex" }, .name = "locker-0", .run = run_locker },
		{ .a = { .cls = "locker-*", .state = "futex" }, .name = "locker-1", .run = run_locker },
		{ .a = { .cls = "locker-*", .state = "futex" }, .name = "locker-2", .run = run_locker },
		{ .a = { .cls = "recv", .state = "net" }, .name = "recv", .run = run_recv },
		{ .a = { .cls = "piperd", .state = "pipe_other" }, .name = "piperd", .run = run_piperd },
		{ .a = { .cls = "feed", .state = "sleep" }, .name = "feed", .run = run_feed },
		{ .a = { .cls = "diskrd", .state = "disk" }, .name = "diskrd", .run = run_disk },
	};
	int n = sizeof(jobs) / sizeof(jobs[0]);
	const char *only = NULL;
	double seconds = 5;
	int opt;

	while ((opt = getopt(argc, argv, "d:c:b:")) != -1) {
		if (opt == 'd') {
			seconds = atof(optarg);
		} else if (opt == 'b' && atol(optarg) >= BLOCK && atol(optarg) % BLOCK == 0) {
			disk_read = (size_t)atol(optarg);
		} else if (opt == 'c') {
			only = optarg;
		} else {
			fprintf(stderr, "usage: time_classes [-d SECONDS] [-c NAME,...] [-b BYTES] PATH\n");
			return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: time_classes [-d SECONDS] [-c NAME,...] [-b BYTES] PATH\n");
		return 2;
	}
	if (only)
		n = keep_classes(jobs, n, only);
	open_disk(argv[optind]);
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sock) || pipe(pipe_fds))
		die("socketpair");
	printf("pid %d\n", getpid());
	fflush(stdout);
	run_threads(thread_main, jobs, sizeof(jobs[0]), n, seconds, &stop);
	/* one line per class: the sums of its threads */
	for (int i = 0; i < n; i++) {
		struct account s = { 0 };
		int threads = 0;

		if (i && !strcmp(jobs[i].a.cls, jobs[i - 1].a.cls))
			continue;
		for (int k = i; k < n && !strcmp(jobs[k].a.cls, jobs[i].a.cls); k++, threads++) {
			s.wall += jobs[k].a.wall;
			s.cpu += jobs[k].a.cpu;
			s.runq += jobs[k].a.runq;
			s.blocked += jobs[k].a.blocked;
		}
		printf("class %s threads=%d wall_s=%.4f oncpu_pct=%.2f runq_pct=%.2f %s_pct=%.2f other_pct=%.2f\n",
		       jobs[i].a.cls, threads, s.wall, 100 * s.cpu / s.wall, 100 * s.runq / s.wall,
		       strcmp(jobs[i].a.state, "oncpu") ? jobs[i].a.state : "blocked", 100 * s.blocked / s.wall,
		       100 * (s.wall - s.cpu - s.runq - s.blocked) / s.wall);
	}
	return 0;
}
