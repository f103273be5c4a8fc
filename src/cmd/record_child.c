#define _GNU_SOURCE
#include "cmd/record_child.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* execvp()'s PATH when none is set (glibc's confstr _CS_PATH) */
#define DEFAULT_PATH "/bin:/usr/bin"

static int try_file(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EACCES;
	return access(path, X_OK) ? -errno : 0;
}

int record_child_find(const char *name, char *buf, size_t len)
{
	const char *path = getenv("PATH"), *dir, *end;
	int found = -ENOENT;

	if (strchr(name, '/')) {
		if (strlen(name) >= len)
			return -ENAMETOOLONG;
		snprintf(buf, len, "%s", name);
		return try_file(buf);
	}
	if (!path)
		path = DEFAULT_PATH;
	for (dir = path;; dir = end + 1) {
		int n, err;

		end = strchrnul(dir, ':');
		/* an empty entry is the current directory */
		n = end == dir ? snprintf(buf, len, "%s", name)
			       : snprintf(buf, len, "%.*s/%s", (int)(end - dir), dir, name);
		if (n >= 0 && (size_t)n < len) {
			err = try_file(buf);
			if (!err)
				return 0;
			/* execvp: a file there that may not run is the answer
			 * unless a later entry has one that may */
			if (err == -EACCES)
				found = -EACCES;
		}
		if (!*end)
			break;
	}
	return found;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* In the child: parked until released, then the exec; dbtrace's end of
 * the go pipe closed without a byte means "never run". */
static void child(const char *path, char *const argv[], int go, int errw)
{
	sigset_t none;
	char b;
	ssize_t r;
	int e;

	setpgid(0, 0);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	do
		r = read(go, &b, 1);
	while (r < 0 && errno == EINTR);
	if (r != 1)
		_exit(127);
	close(go);
	execv(path, argv);
	e = errno;
	if (write(errw, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(e == ENOENT ? 127 : 126);
}

int record_child_start(struct record_child *c, const char *path, char *const argv[])
{
	int go[2], ew[2], err;

	memset(c, 0, sizeof(*c));
	c->pid = -1;
	c->pidfd = c->go_fd = c->err_fd = -1;
	if (pipe2(go, O_CLOEXEC))
		return -errno;
	if (pipe2(ew, O_CLOEXEC)) {
		err = -errno;
		close(go[0]);
		close(go[1]);
		return err;
	}
	fflush(NULL);   /* nothing buffered is written twice */
	c->pid = fork();
	if (c->pid < 0) {
		err = -errno;
		close(go[0]);
		close(go[1]);
		close(ew[0]);
		close(ew[1]);
		return err;
	}
	if (c->pid == 0) {
		close(go[1]);
		close(ew[0]);
		child(path, argv, go[0], ew[1]);
	}
	/* both sides: a signal sent to the group before the child ran
	 * setpgid() must reach it */
	setpgid(c->pid, c->pid);
	close(go[0]);
	close(ew[1]);
	c->go_fd = go[1];
	c->err_fd = ew[0];
	c->pidfd = (int)syscall(SYS_pidfd_open, c->pid, 0);
	if (c->pidfd < 0) {
		err = -errno;
		record_child_stop(c, 0);
		return err;
	}
	return 0;
}

int record_child_release(struct record_child *c)
{
	char b = 1;
	int err = write(c->go_fd, &b, 1) == 1 ? 0 : -errno;

	close_fd(&c->go_fd);
	return err;
}

void record_child_signal(const struct record_child *c, int sig)
{
	if (c->pid > 0 && !c->reaped)
		kill(-c->pid, sig);
}

bool record_child_reap(struct record_child *c)
{
	if (!c->reaped && c->pid > 0 && waitpid(c->pid, &c->status, WNOHANG) == c->pid)
		c->reaped = true;
	return c->reaped;
}

/* Waits up to s seconds for it to exit; true once reaped. */
static bool wait_exit(struct record_child *c, double s)
{
	struct pollfd p = { .fd = c->pidfd, .events = POLLIN };

	if (c->pidfd >= 0 && !record_child_reap(c))
		poll(&p, 1, (int)(s * 1000));
	return record_child_reap(c);
}

void record_child_stop(struct record_child *c, double grace_s)
{
	if (c->pid <= 0 || c->reaped)
		return;
	if (c->go_fd >= 0) {
		/* parked: closing the pipe lets it go without running */
		close_fd(&c->go_fd);
	} else {
		record_child_signal(c, SIGTERM);
		if (wait_exit(c, grace_s))
			return;
		record_child_signal(c, SIGKILL);
	}
	if (!wait_exit(c, 5) && waitpid(c->pid, &c->status, 0) == c->pid)
		c->reaped = true;
}

int record_child_exec_errno(const struct record_child *c)
{
	int e = 0;

	if (c->err_fd < 0 || read(c->err_fd, &e, sizeof(e)) != (ssize_t)sizeof(e))
		return 0;
	return e;
}

int record_child_exit_code(const struct record_child *c, char *how, size_t len)
{
	if (WIFSIGNALED(c->status)) {
		int sig = WTERMSIG(c->status);
		const char *name = sigabbrev_np(sig);

		if (name)
			snprintf(how, len, "killed by SIG%s", name);
		else
			snprintf(how, len, "killed by signal %d", sig);
		return 128 + sig;
	}
	snprintf(how, len, "exit %d", WEXITSTATUS(c->status));
	return WEXITSTATUS(c->status);
}

void record_child_close(struct record_child *c)
{
	close_fd(&c->pidfd);
	close_fd(&c->go_fd);
	close_fd(&c->err_fd);
}
