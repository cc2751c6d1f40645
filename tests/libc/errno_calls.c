/* errno_calls.c - errno after the calls schedfuzz models, as libc leaves
 * it: a call that succeeds leaves it alone, one that fails sets the real
 * value, and a pthread call that returns its error leaves it alone too.
 * errno is set to a sentinel before every call; each line printed says
 * what the call left, and the program aborts at the first difference from
 * what glibc does, so that a native build and a schedfuzz build print the
 * same lines and every schedule passes. The calls run in threads that
 * wait for each other, so that they go through the model. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SENTINEL 4242

/* The peer thread's lines, printed by main after joining it, so that
 * the output is the same in every interleaving. */
static char peer_lines[4096];
static size_t peer_len;
static pthread_t main_thread;

/* One line of the output: the call, and the errno it left. */
static void check(const char *call, int got, int want)
{
	char line[160];
	int n = snprintf(line, sizeof line, "%s: errno %s%s\n", call,
			 got == SENTINEL ? "unchanged" : strerrorname_np(got) ?: "?",
			 got == want ? "" : " (not what glibc leaves)");
	if (pthread_equal(pthread_self(), main_thread)) {
		fwrite(line, 1, (size_t)n, stdout);
		fflush(stdout);
	} else if (peer_len + (size_t)n < sizeof peer_lines) {
		memcpy(peer_lines + peer_len, line, (size_t)n);
		peer_len += (size_t)n;
	}
	if (got != want) {
		fprintf(stderr, "errno after %s: %d, expected %d\n", call, got, want);
		abort();
	}
}

/* A call that succeeds: errno untouched. */
#define SUCCEEDS(call)                                          \
	do {                                                    \
		errno = SENTINEL;                               \
		long r_ = (long)(call);                         \
		int e_ = errno;                                 \
		if (r_ < 0) {                                   \
			fprintf(stderr, "%s failed\n", #call);  \
			abort();                                \
		}                                               \
		check(#call, e_, SENTINEL);                     \
	} while (0)

/* A call that fails with -1 and errno want. */
#define FAILS(call, want)                                              \
	do {                                                           \
		errno = SENTINEL;                                      \
		long r_ = (long)(call);                                \
		int e_ = errno;                                        \
		if (r_ != -1) {                                        \
			fprintf(stderr, "%s returned %ld\n", #call, r_); \
			abort();                                       \
		}                                                      \
		check(#call, e_, want);                                \
	} while (0)

/* A pthread-style call that returns want (0 or an error number). */
#define RETURNS(call, want)                                                  \
	do {                                                                 \
		errno = SENTINEL;                                            \
		int r_ = (call);                                             \
		int e_ = errno;                                              \
		if (r_ != (want)) {                                          \
			fprintf(stderr, "%s returned %d\n", #call, r_);      \
			abort();                                             \
		}                                                            \
		check(#call, e_, SENTINEL);                                  \
	} while (0)

/* A call that returns a or b (a timed wait: signalled, timed out, or
 * woken spuriously, which POSIX allows and schedfuzz tries), and leaves
 * errno alone either way: one line whichever it is. */
#define RETURNS_EITHER(call, a, b)                                           \
	do {                                                                 \
		errno = SENTINEL;                                            \
		int r_ = (call);                                             \
		int e_ = errno;                                              \
		if (r_ != (a) && r_ != (b)) {                                \
			fprintf(stderr, "%s returned %d\n", #call, r_);      \
			abort();                                             \
		}                                                            \
		check(#call, e_, SENTINEL);                                  \
	} while (0)

static int pipefd[2], pair[2], dgram[2], efd, tfd;
static int listener;
static struct sockaddr_in addr;
static sem_t ready;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int signalled;
static char buf[64];

/* CLOCK_REALTIME ms from now (ms >= 0), or a second ago (ms < 0). */
static struct timespec in_ms(long ms)
{
	struct timespec t;
	clock_gettime(CLOCK_REALTIME, &t);
	if (ms < 0) {
		t.tv_sec--;
		return t;
	}
	t.tv_nsec += ms * 1000000;
	t.tv_sec += t.tv_nsec / 1000000000;
	t.tv_nsec %= 1000000000;
	return t;
}

/* The signal mask is the program's too: only SIGUSR1, blocked by main
 * before any thread started, whatever the runtime did meanwhile. */
static void check_mask(const char *when)
{
	sigset_t now;
	pthread_sigmask(SIG_BLOCK, NULL, &now);
	int blocked = 0;
	for (int sig = 1; sig < SIGRTMIN; sig++)
		if (sigismember(&now, sig) && sig != SIGUSR1) {
			fprintf(stderr, "signal %d blocked %s\n", sig, when);
			abort();
		}
	for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		blocked += sigismember(&now, sig);
	if (!sigismember(&now, SIGUSR1) || blocked) {
		fprintf(stderr, "mask changed %s\n", when);
		abort();
	}
	check(when, errno, errno);
}

/* The other end of every wait of main's. */
static void *peer(void *arg)
{
	(void)arg;
	SUCCEEDS(write(pipefd[1], "x", 1));
	SUCCEEDS(send(pair[1], "y", 1, 0));
	SUCCEEDS(sendto(dgram[1], "z", 1, 0, NULL, 0));
	struct iovec v = { "m", 1 };
	struct msghdr m = { .msg_iov = &v, .msg_iovlen = 1 };
	SUCCEEDS(sendmsg(pair[1], &m, 0));
	uint64_t one = 1;
	SUCCEEDS(write(efd, &one, sizeof one));
	int c = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	SUCCEEDS(connect(c, (struct sockaddr *)&addr, sizeof addr));
	SUCCEEDS(sem_post(&ready));
	RETURNS(pthread_mutex_lock(&lock), 0);
	signalled = 1;
	RETURNS(pthread_cond_signal(&cond), 0);
	RETURNS(pthread_mutex_unlock(&lock), 0);
	SUCCEEDS(write(pipefd[1], "w", 1));
	close(c);
	check_mask("signal mask of the peer, SIGUSR1 only");
	return NULL;
}

static void *nothing(void *arg)
{
	return arg;
}

int main(void)
{
	signalled = 0;
	peer_len = 0;
	main_thread = pthread_self();
	sigset_t usr1;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &usr1, NULL);
	SUCCEEDS(pipe(pipefd));
	SUCCEEDS(socketpair(AF_UNIX, SOCK_STREAM, 0, pair));
	SUCCEEDS(socketpair(AF_UNIX, SOCK_DGRAM, 0, dgram));
	SUCCEEDS(efd = eventfd(0, 0));
	SUCCEEDS(tfd = timerfd_create(CLOCK_MONOTONIC, 0));
	SUCCEEDS(sem_init(&ready, 0, 0));
	listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	addr = (struct sockaddr_in){ .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t alen = sizeof addr;
	if (bind(listener, (struct sockaddr *)&addr, sizeof addr) || listen(listener, 1) ||
	    getsockname(listener, (struct sockaddr *)&addr, &alen)) {
		perror("listen");
		return 2;
	}

	pthread_t t;
	RETURNS(pthread_create(&t, NULL, peer, NULL), 0);

	/* Reads, each waiting for the peer's write. */
	SUCCEEDS(read(pipefd[0], buf, 1));
	SUCCEEDS(recv(pair[0], buf, 1, 0));
	SUCCEEDS(recvfrom(dgram[0], buf, 1, 0, NULL, NULL));
	struct iovec v = { buf, 1 };
	struct msghdr m = { .msg_iov = &v, .msg_iovlen = 1 };
	SUCCEEDS(recvmsg(pair[0], &m, 0));
	uint64_t count;
	SUCCEEDS(read(efd, &count, sizeof count));
	SUCCEEDS(accept(listener, NULL, NULL));
	SUCCEEDS(sem_wait(&ready));
	RETURNS(pthread_mutex_lock(&lock), 0);
	/* Waits as often as the interleaving needs, one line whatever it is:
	 * each wait returns 0 when signalled, ETIMEDOUT when it timed out. */
	errno = SENTINEL;
	struct timespec later = in_ms(10000);
	while (!signalled) {
		int r = pthread_cond_timedwait(&cond, &lock, &later);
		if (r != 0 && r != ETIMEDOUT)
			abort();
	}
	check("pthread_cond_timedwait until signalled", errno, SENTINEL);
	struct timespec soon = in_ms(1);
	RETURNS_EITHER(pthread_cond_timedwait(&cond, &lock, &soon), ETIMEDOUT, 0);
	RETURNS(pthread_mutex_trylock(&lock), EBUSY);
	RETURNS(pthread_mutex_unlock(&lock), 0);
	struct pollfd p = { pipefd[0], POLLIN, 0 };
	SUCCEEDS(poll(&p, 1, -1));
	fd_set rd;
	FD_ZERO(&rd);
	FD_SET(pipefd[0], &rd);
	SUCCEEDS(select(pipefd[0] + 1, &rd, NULL, NULL, NULL));
	int ep = epoll_create1(EPOLL_CLOEXEC);
	struct epoll_event ev = { .events = EPOLLIN };
	epoll_ctl(ep, EPOLL_CTL_ADD, pipefd[0], &ev);
	SUCCEEDS(epoll_wait(ep, &ev, 1, -1));
	SUCCEEDS(read(pipefd[0], buf, 1));
	RETURNS(pthread_join(t, NULL), 0);
	printf("peer:\n%.*s", (int)peer_len, peer_lines);

	/* Writes to the terminal or file that stdout is. */
	SUCCEEDS(write(STDOUT_FILENO, "to stdout\n", 10));
	SUCCEEDS(write(STDERR_FILENO, "", 0));

	/* Time: virtual under schedfuzz, real natively. */
	struct timespec ms = { 0, 1000000 };
	SUCCEEDS(nanosleep(&ms, NULL));
	SUCCEEDS(usleep(1000));
	SUCCEEDS(sleep(0));
	RETURNS(clock_nanosleep(CLOCK_MONOTONIC, 0, &ms, NULL), 0);
	struct itimerspec its = { .it_value = { 0, 1000000 } };
	SUCCEEDS(timerfd_settime(tfd, 0, &its, NULL));
	SUCCEEDS(read(tfd, &count, sizeof count));

	/* Semaphores, futexes, processes, signals. */
	SUCCEEDS(sem_post(&ready));
	later = in_ms(1000);
	SUCCEEDS(sem_timedwait(&ready, &later));
	int word = 0;
	SUCCEEDS(syscall(SYS_futex, &word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0));
	RETURNS(pthread_create(&t, NULL, nothing, NULL), 0);
	RETURNS(pthread_join(t, NULL), 0);
	pid_t child = fork();
	if (child == 0)
		_exit(0);
	int status;
	SUCCEEDS(waitpid(child, &status, 0));
	if (fork() == 0)
		_exit(0);
	SUCCEEDS(wait(&status));
	SUCCEEDS(kill(getpid(), 0));
	SUCCEEDS(kill(getpid(), SIGUSR1));
	int sig;
	RETURNS(sigwait(&usr1, &sig), 0);

	/* Failures: the real errno. */
	int closed = dup(0);
	close(closed);
	FAILS(read(closed, buf, 1), EBADF);
	FAILS(write(closed, buf, 1), EBADF);
	FAILS(recv(pipefd[0], buf, 1, 0), ENOTSOCK);
	FAILS(sem_trywait(&ready), EAGAIN);
	struct timespec past = in_ms(-1000);
	FAILS(sem_timedwait(&ready, &past), ETIMEDOUT);
	FAILS(syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 1, NULL, NULL, 0), EAGAIN);
	FAILS(waitpid(-1, &status, 0), ECHILD);
	struct timespec bad = { 0, -1 };
	FAILS(nanosleep(&bad, NULL), EINVAL);
	FAILS(accept(pipefd[0], NULL, NULL), ENOTSOCK);
	RETURNS(pthread_join(pthread_self(), NULL), EDEADLK);
	check_mask("signal mask of main, SIGUSR1 only");
	return 0;
}
