/* The session's wake-up sources: one timerfd tick per interval and a
 * signalfd for SIGINT/SIGTERM/SIGHUP, so the loop sleeps in one poll()
 * and never runs code in a signal handler. */
#ifndef DBTRACE_CORE_LOOP_FDS_H
#define DBTRACE_CORE_LOOP_FDS_H

#include <stdint.h>

/* Blocks the stop signals and returns a signalfd for them, or -errno. */
int signals_open(void);
/* Reads one pending signal; returns its number, 0 if none. */
int signals_take(int sfd);

/* A periodic CLOCK_MONOTONIC timerfd, first firing after first_s, then
 * every interval_s; returns the fd or -errno. */
int ticker_open(double first_s, double interval_s);
/* Re-arms it: first firing after first_s, then every interval_s (0: that
 * one firing only). Returns 0 or -errno. */
int ticker_set(int tfd, double first_s, double interval_s);
/* Consumes the expirations; returns how many ticks passed (0 if none). */
uint64_t ticker_take(int tfd);

uint64_t mono_ns(void);

#endif
