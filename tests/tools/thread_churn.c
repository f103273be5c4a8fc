/* Creates and joins short-lived threads as fast as it can, a few at a
 * time, to flood the per-thread maps. usage: thread_churn [-n TOTAL]
 * Prints "threads=N seconds=S". */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static void *nothing(void *arg)
{
	return arg;
}

int main(int argc, char **argv)
{
	long total = 100000, done = 0;
	struct timespec a, b;
	int c;

	while ((c = getopt(argc, argv, "n:")) != -1)
		if (c == 'n')
			total = atol(optarg);
	clock_gettime(CLOCK_MONOTONIC, &a);
	while (done < total) {
		pthread_t t[16];
		int k = 0;

		for (; k < 16 && done + k < total; k++)
			if (pthread_create(&t[k], NULL, nothing, NULL))
				break;
		for (int i = 0; i < k; i++)
			pthread_join(t[i], NULL);
		done += k;
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("threads=%ld seconds=%.2f\n", done,
	       (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9);
	return 0;
}
