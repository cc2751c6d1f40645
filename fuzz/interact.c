/* interact.c - the relay of `schedfuzz replay --interactive`: the program's
 * runtime (runtime/rt_interact.c) writes a question at each decision on
 * its end of a socket pair, ended by a NUL byte; this thread copies it
 * to the terminal (stderr, text) or to stdout (one JSON line), reads one
 * answer line from stdin and sends it back. The program runs with stdin
 * from /dev/null, so that it cannot take the answers, and in JSON mode
 * with its stdout on stderr, so that stdout carries the stream only. The
 * end of stdin is passed on: the runtime then takes the default for the
 * rest of the execution. */
#define _GNU_SOURCE
#include "interact.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* All n bytes to fd: a socket without SIGPIPE (the program may be gone),
 * anything else with write. */
static bool put_all(int fd, bool socket, const char *p, size_t n)
{
	while (n) {
		ssize_t k = socket ? send(fd, p, n, MSG_NOSIGNAL) : write(fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		p += k;
		n -= (size_t)k;
	}
	return true;
}

/* One answer line from stdin into buf (with its newline); 0 at its end,
 * -1 when the program went away first. */
static int read_answer(const struct interact *ia, char *buf, size_t cap)
{
	size_t n = 0;
	while (n + 1 < cap) {
		struct pollfd p[2] = { { .fd = ia->in, .events = POLLIN },
				       { .fd = ia->ours, .events = POLLIN } };
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (p[1].revents && !p[0].revents)
			return -1; /* killed while asking (its timeout), or ended */
		ssize_t k = read(ia->in, buf + n, 1);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return n ? (buf[n++] = '\n', (int)n) : 0;
		if (buf[n++] == '\n')
			break;
	}
	if (buf[n - 1] != '\n')
		buf[n - 1] = '\n'; /* an overlong line: cut, the runtime says what is wrong */
	return (int)n;
}

static void *relay(void *arg)
{
	struct interact *ia = arg;
	char *msg = NULL;
	size_t len = 0, cap = 0;
	bool answering = true;
	for (;;) {
		char buf[4096];
		ssize_t k = read(ia->ours, buf, sizeof buf);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		for (ssize_t i = 0; i < k; i++) {
			if (len == cap) {
				size_t c = cap ? cap * 2 : 8192;
				char *m = realloc(msg, c);
				if (!m)
					goto out;
				msg = m;
				cap = c;
			}
			msg[len++] = buf[i];
			if (buf[i])
				continue;
			/* a whole question */
			put_all(ia->json ? ia->out : 2, false, msg, len - 1);
			len = 0;
			char answer[512];
			int n = answering ? read_answer(ia, answer, sizeof answer) : 0;
			if (n < 0)
				goto out;
			if (n == 0) {
				answering = false; /* the end of stdin: the runtime's to know */
				shutdown(ia->ours, SHUT_WR);
			}
			if (n > 0 && !put_all(ia->ours, true, answer, (size_t)n))
				goto out;
		}
	}
out:
	free(msg);
	return NULL;
}

bool interact_begin(struct interact *ia, bool json)
{
	*ia = (struct interact){ .ours = -1, .theirs = -1, .in = -1, .out = -1, .json = json };
	int sp[2];
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sp) != 0) {
		fprintf(stderr, "schedfuzz: --interactive: socketpair: %s\n", strerror(errno));
		return false;
	}
	ia->ours = sp[0];
	ia->theirs = sp[1];
	fcntl(ia->ours, F_SETFD, FD_CLOEXEC);
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
	ia->in = fcntl(0, F_DUPFD_CLOEXEC, 3);
	ia->out = fcntl(1, F_DUPFD_CLOEXEC, 3);
	if (null < 0 || ia->in < 0 || ia->out < 0 || dup2(null, 0) < 0 ||
	    (json && dup2(2, 1) < 0)) {
		fprintf(stderr, "schedfuzz: --interactive: cannot set up the program's stdio: %s\n",
			strerror(errno));
		if (null >= 0)
			close(null);
		interact_end(ia);
		return false;
	}
	close(null);
	char env[64];
	snprintf(env, sizeof env, "%d,%d,%s", ia->theirs, ia->theirs, json ? "json" : "text");
	setenv("SCHEDFUZZ_INTERACT", env, 1);
	/* somebody at a prompt is no hang */
	if (!getenv("SCHEDFUZZ_TIMEOUT"))
		setenv("SCHEDFUZZ_TIMEOUT", "0", 1);
	if (pthread_create(&ia->relay, NULL, relay, ia) != 0) {
		fprintf(stderr, "schedfuzz: --interactive: cannot start the relay\n");
		interact_end(ia);
		return false;
	}
	ia->relaying = true;
	return true;
}

void interact_end(struct interact *ia)
{
	unsetenv("SCHEDFUZZ_INTERACT");
	if (ia->theirs >= 0)
		close(ia->theirs); /* the program is gone: the relay reads the end */
	if (ia->relaying)
		pthread_join(ia->relay, NULL);
	if (ia->in >= 0) {
		dup2(ia->in, 0);
		close(ia->in);
	}
	if (ia->out >= 0) {
		fflush(stdout);
		dup2(ia->out, 1);
		close(ia->out);
	}
	if (ia->ours >= 0)
		close(ia->ours);
	ia->ours = ia->theirs = ia->in = ia->out = -1;
	ia->relaying = false;
}
