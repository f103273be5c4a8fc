/* Identity of the host a capture was taken on. */
#ifndef DBTRACE_SYSINFO_HOST_H
#define DBTRACE_SYSINFO_HOST_H

struct host_info {
	char hostname[256];
	char kernel[256];               /* uname -r */
	int cpus;                       /* online CPUs */
	char clocksource[64];
	char cmdline[4096];
	/* --netns as given: the network namespace the net family measured,
	 * which stands for this host in a report of several; "": all of them
	 * (not read from the host: the capture sets it) */
	char netns[256];
};

/* Fills info from uname(2) and ROOT/proc, ROOT/sys; fields that cannot be
 * read are left empty (a missing file degrades one field, not the run). */
void host_info_read(const char *root, struct host_info *info);

#endif
