/* A finding: a verdict with the numbers that support it. Rules in
 * src/findings/ produce them from the model; outputs only print them.
 * Ids are a contract with users' scripts (docs/capture-schema.md). */
#ifndef DBTRACE_FINDINGS_FINDING_H
#define DBTRACE_FINDINGS_FINDING_H

#include <stdbool.h>
#include <stddef.h>

#define FINDING_MAX_EVIDENCE 24

enum finding_severity { SEV_INFO, SEV_WARNING, SEV_CRITICAL };

struct finding_evidence {
	char key[32];
	bool is_text;
	double num;
	char text[160];
};

struct finding {
	char id[32];                 /* "oversubscription", "gettimeofday_hotspot", ... */
	enum finding_severity severity;
	int pid;                     /* 0: not about one process */
	char class_name[64];         /* "" when about the process or the host */
	char title[200];             /* one line a person reads first */
	struct finding_evidence ev[FINDING_MAX_EVIDENCE];
	int n_ev;
	char hint[512];              /* what to look at or change */
	int first_interval;          /* 0-based interval indexes in which it held; */
	int last_interval;           /* -1 for whole-capture findings */
};

struct finding_list {
	struct finding *items;
	int n;
	size_t cap;
};

const char *finding_severity_name(enum finding_severity s);

/* Evidence helpers: entries past FINDING_MAX_EVIDENCE are dropped (said
 * with -v). */
void finding_num(struct finding *f, const char *key, double v);
void finding_text(struct finding *f, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Adds f, or when a finding with the same id, pid and class is already in
 * the list, replaces its evidence with f's and widens its interval range:
 * one entry per problem, holding the latest numbers. Returns 0 or -ENOMEM. */
int findings_merge(struct finding_list *l, const struct finding *f);
void findings_clear(struct finding_list *l);
void findings_free(struct finding_list *l);

#endif
