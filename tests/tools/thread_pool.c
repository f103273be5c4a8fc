/* A database-like thread layout for the sched accuracy tests: N busy
 * worker threads named like OceanBase tenant workers ("TNT_L0_1002") and a
 * pair of pipe ping-pong network threads ("RpcIO"), the whole process
 * bound to the CPUs given with -c (default 0-1).
 *
 * usage: thread_pool [-n WORKERS] [-d SECONDS] [-c CPULIST] [-w CPULIST]
 * -w binds the busy workers alone, each thread itself, to fewer CPUs than
 * the process (a server pinning its worker pool, its other threads free).
 * Prints its pid, runs for SECONDS, then prints what the kernel counted for
 * its threads, per thread name, read from /proc/self/task just before they
 * stop: "count NAME threads=N vol=N invol=N cpu_ticks=N run_delay_ns=N"
 * (run_delay: schedstat's run-queue wait). Tests compare a
 * tracer that watched the whole life of the process against that. Every
 * thread is parked (asleep on a barrier) while they are counted, so all
 * it does after it is wake up and exit: a switch or two each. (Left
 * spinning, the busy workers made hundreds more switches under a slow
 * qemu guest; the RpcIO pair, left ping-ponging, 5% more in the 6.12
 * guest, where reading /proc for each thread takes a while.)
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static atomic_int stop;
static const char *worker_cpus;   /* -w: NULL keeps the process's binding */
/* every thread and main: all parked; then counted, let go */
static pthread_barrier_t parked, released;

static int bind_cpus(const char *list)
{
	cpu_set_t set;
	char *copy = strdup(list), *tok, *save;

	CPU_ZERO(&set);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int a, b;

		if (sscanf(tok, "%d-%d", &a, &b) == 2)
			for (int c = a; c <= b; c++)
				CPU_SET(c, &set);
		else if (sscanf(tok, "%d", &a) == 1)
			CPU_SET(a, &set);
	}
	free(copy);
	return sched_setaffinity(0, sizeof(set), &set);
}

static void *busy(void *arg)
{
	volatile unsigned long x = 0;

	pthread_setname_np(pthread_self(), "TNT_L0_1002");
	/* sched_setaffinity(0) binds the calling thread only */
	if (worker_cpus && bind_cpus(worker_cpus))
		perror("sched_setaffinity (-w)");
	while (!atomic_load_explicit(&stop, memory_order_relaxed))
		x++;
	pthread_barrier_wait(&parked);
	pthread_barrier_wait(&released);
	return NULL;
}

struct pong {
	int in, out;
};

static void *rpc(void *arg)
{
	struct pong *p = arg;
	char c = 0;

	pthread_setname_np(pthread_self(), "RpcIO");
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		if (write(p->out, &c, 1) != 1 || read(p->in, &c, 1) != 1)
			break;
	}
	/* the peer, maybe blocked in its read, sees EOF and stops too */
	close(p->out);
	pthread_barrier_wait(&parked);
	pthread_barrier_wait(&released);
	return NULL;
}

struct tally {
	char name[16];
	long threads, vol, invol, ticks;
	long long run_delay_ns;
};

/* Sums /proc/self/task/TID/{status,stat,schedstat} per thread name. */
static int count_threads(struct tally *t, int max)
{
	char path[128], line[256], comm[32];
	struct dirent *e;
	DIR *d;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", getpid());
	d = opendir(path);
	while (d && (e = readdir(d))) {
		int tid = atoi(e->d_name);
		long vol = 0, invol = 0, ut = 0, st = 0;
		long long rd = 0;
		FILE *f;
		int k;

		if (tid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%d/status", getpid(), tid);
		f = fopen(path, "r");
		if (!f)
			continue;
		comm[0] = 0;
		while (fgets(line, sizeof(line), f)) {
			sscanf(line, "Name: %31s", comm);
			sscanf(line, "voluntary_ctxt_switches: %ld", &vol);
			sscanf(line, "nonvoluntary_ctxt_switches: %ld", &invol);
		}
		fclose(f);
		snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", getpid(), tid);
		f = fopen(path, "r");
		if (f) {
			/* fields 14, 15 after "pid (comm) state": comm has no spaces here */
			if (fscanf(f, "%*d %*s %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %ld %ld", &ut, &st) != 2)
				ut = st = 0;
			fclose(f);
		}
		/* schedstat: on-CPU ns, run-queue wait ns (run_delay), runs */
		snprintf(path, sizeof(path), "/proc/%d/task/%d/schedstat", getpid(), tid);
		f = fopen(path, "r");
		if (f) {
			if (fscanf(f, "%*u %lld", &rd) != 1)
				rd = 0;
			fclose(f);
		}
		for (k = 0; k < n && strcmp(t[k].name, comm); k++)
			;
		if (k == n) {
			if (n == max)
				continue;
			memset(&t[n], 0, sizeof(t[n]));
			snprintf(t[n].name, sizeof(t[n].name), "%s", comm);
			n++;
		}
		t[k].threads++;
		t[k].vol += vol;
		t[k].invol += invol;
		t[k].ticks += ut + st;
		t[k].run_delay_ns += rd;
	}
	if (d)
		closedir(d);
	return n;
}

int main(int argc, char **argv)
{
	int n = 4, c;
	double seconds = 10;
	const char *cpus = "0-1";
	int ab[2], ba[2];
	struct pong p1, p2;
	pthread_t *th, r1, r2;
	unsigned parties;

	while ((c = getopt(argc, argv, "n:d:c:w:")) != -1) {
		switch (c) {
		case 'n': n = atoi(optarg); break;
		case 'd': seconds = atof(optarg); break;
		case 'c': cpus = optarg; break;
		case 'w': worker_cpus = optarg; break;
		default:
			fprintf(stderr, "usage: thread_pool [-n workers] [-d seconds] [-c cpulist] [-w worker cpulist]\n");
			return 2;
		}
	}
	/* threads inherit the binding */
	if (bind_cpus(cpus)) {
		perror("sched_setaffinity");
		return 1;
	}
	if (pipe(ab) || pipe(ba)) {
		perror("pipe");
		return 1;
	}
	parties = (unsigned)n + 2 + 1;   /* the busy workers, the RpcIO pair, main */
	th = calloc((size_t)n, sizeof(*th));
	pthread_barrier_init(&parked, NULL, parties);
	pthread_barrier_init(&released, NULL, parties);
	for (int i = 0; i < n; i++)
		pthread_create(&th[i], NULL, busy, NULL);
	p1 = (struct pong){ ba[0], ab[1] };
	p2 = (struct pong){ ab[0], ba[1] };
	pthread_create(&r1, NULL, rpc, &p1);
	pthread_create(&r2, NULL, rpc, &p2);
	printf("%d\n", getpid());
	fflush(stdout);
	{
		struct timespec ts = { (time_t)seconds, (long)((seconds - (long)seconds) * 1e9) };

		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
	}
	atomic_store(&stop, 1);
	pthread_barrier_wait(&parked);
	/* every thread on its way to sleep in the second barrier: let it get
	 * there before its counters are read */
	{
		struct timespec ts = { 0, 50 * 1000 * 1000 };

		nanosleep(&ts, NULL);
	}
	{
		struct tally t[8];
		int k = count_threads(t, 8);

		for (int i = 0; i < k; i++)
			printf("count %s threads=%ld vol=%ld invol=%ld cpu_ticks=%ld run_delay_ns=%lld\n",
			       t[i].name, t[i].threads, t[i].vol, t[i].invol, t[i].ticks, t[i].run_delay_ns);
		fflush(stdout);
	}
	pthread_barrier_wait(&released);
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	pthread_join(r1, NULL);
	pthread_join(r2, NULL);
	free(th);
	return 0;
}
