/* Shared by the parser tests: the fixture trees hold verbatim copies of
 * outputs people posted (tests/fixtures/README.md, "Provenance"), and they
 * must stay byte-identical to what was copied. tests/fixtures/VERBATIM.sha256
 * records the SHA-256 of each copy as it was made; the tests recompute it
 * with sha256sum (coreutils). Include after <cmocka.h>. */
#ifndef DBTRACE_TESTS_FIXTURE_UTIL_H
#define DBTRACE_TESTS_FIXTURE_UTIL_H

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define VERBATIM_LIST FIXTURES "/VERBATIM.sha256"

/* The digest VERBATIM.sha256 records for rel (a path under tests/fixtures)
 * into want[65]; 0 when it is listed. */
static inline int verbatim_recorded(const char *rel, char want[65])
{
	FILE *f = fopen(VERBATIM_LIST, "r");
	char line[512];
	int found = -1;

	if (!f)
		return -1;
	while (found && fgets(line, sizeof(line), f)) {
		size_t n = strcspn(line, "\n");

		line[n] = '\0';
		/* "<64 hex>  <path>", as sha256sum writes it */
		if (n > 66 && line[64] == ' ' && line[65] == ' ' && !strcmp(line + 66, rel)) {
			memcpy(want, line, 64);
			want[64] = '\0';
			found = 0;
		}
	}
	fclose(f);
	return found;
}

/* sha256sum of the file at path into got[65]; 0 on success. */
static inline int verbatim_digest(const char *path, char got[65])
{
	int fds[2], status, in;
	ssize_t n = 0, r;
	pid_t pid;

	in = open(path, O_RDONLY | O_CLOEXEC);
	if (in < 0 || pipe(fds)) {
		if (in >= 0)
			close(in);
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		dup2(in, 0);
		dup2(fds[1], 1);
		execlp("sha256sum", "sha256sum", (char *)NULL);
		_exit(127);
	}
	close(in);
	close(fds[1]);
	while (pid > 0 && n < 64 && (r = read(fds[0], got + n, (size_t)(64 - n))) > 0)
		n += r;
	close(fds[0]);
	got[n] = '\0';
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		return -1;
	return n == 64 ? 0 : -1;
}

static inline void verbatim_copies_n(const char *const rels[], size_t n)
{
	char path[1024], want[65], got[65];

	for (size_t i = 0; i < n; i++) {
		if (verbatim_recorded(rels[i], want)) {
			print_error("%s is not listed in %s\n", rels[i], VERBATIM_LIST);
			fail();
		}
		snprintf(path, sizeof(path), "%s/%s", FIXTURES, rels[i]);
		if (verbatim_digest(path, got)) {
			print_error("cannot read %s or run sha256sum on it\n", path);
			fail();
		}
		if (strcmp(want, got)) {
			print_error("%s changed: sha256 %s, recorded %s\n", rels[i], got, want);
			fail();
		}
	}
}

/* Asserts that each file of the array (paths relative to tests/fixtures)
 * still has the SHA-256 VERBATIM.sha256 recorded when it was copied. */
#define assert_verbatim_copies(rels) \
	verbatim_copies_n(rels, sizeof(rels) / sizeof((rels)[0]))

#endif
