/* A program for `dbtrace record` to run, with its own account of when
 * it ran: "start=T" as main() begins and "end=T" just before it exits,
 * CLOCK_MONOTONIC seconds (what a capture's started_at_monotonic_s is
 * on), so a test can hold the capture's window to the program's
 * lifetime. It runs -d SECONDS (sleeping, or spinning with -b), then
 * exits with -x CODE or raises -k SIGNAL. Each line is flushed at once.
 *
 * usage: timed_run [-d SECONDS] [-b] [-x CODE] [-k SIGNAL]
 */
#include "tool_util.h"

#include <signal.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	double start = now_s(), secs = 1;
	int opt, code = 0, sig = 0, busy = 0;

	while ((opt = getopt(argc, argv, "d:bx:k:")) != -1) {
		switch (opt) {
		case 'd': secs = atof(optarg); break;
		case 'b': busy = 1; break;
		case 'x': code = atoi(optarg); break;
		case 'k': sig = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: timed_run [-d SECONDS] [-b] [-x CODE] [-k SIGNAL]\n");
			return 2;
		}
	}
	printf("start=%.6f pid=%d\n", start, (int)getpid());
	fflush(stdout);
	if (busy) {
		volatile unsigned long spin = 0;

		while (now_s() - start < secs)
			spin++;
	} else {
		sleep_us((long)(secs * 1e6));
	}
	printf("end=%.6f\n", now_s());
	fflush(stdout);
	if (sig) {
		signal(sig, SIG_DFL);
		raise(sig);
	}
	return code;
}
