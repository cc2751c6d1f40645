/* rt_io.c - read, write, recv, send, accept and friends on pipes, sockets,
 * eventfds and timerfds, as modelled operations.
 *
 * Each call of a controlled thread is a scheduling point (event "fd io",
 * progress only when it succeeds). Then a zero-timeout poll asks whether
 * the call could complete now: if so, or if the descriptor does not block
 * (a regular file, O_NONBLOCK), the real call is made. Otherwise the
 * thread is blocked on the descriptor (rt_external.c) until the poll says
 * it is ready, and other threads run meanwhile; a socket with
 * SO_RCVTIMEO/SO_SNDTIMEO waits timed, and whether it times out (EAGAIN)
 * is a schedule decision, and so is the expiry of an armed timerfd (time
 * is virtual). A blocking write or send of more than fits is
 * made in pieces, each when there is room, as the kernel does. The real
 * call after the wait cannot block unless something outside the process
 * took the data first; a read then blocks in the kernel, where the
 * watchdog keeps the execution alive. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "rt_io.h"
#include "rt_lifecycle.h"
#include "rt_race.h"

struct rt_io_real rt_io_real;

void rt_io_real_init(void)
{
	struct rt_io_real r;
#define L(fn) r.fn = (__typeof__(r.fn))rt_real_next(#fn)
	L(read); L(write); L(readv); L(writev); L(recv); L(recvfrom); L(recvmsg);
	L(send); L(sendto); L(sendmsg); L(accept); L(accept4); L(connect); L(poll);
	L(ppoll); L(select); L(pselect); L(epoll_wait); L(epoll_pwait); L(epoll_pwait2); L(pipe);
	L(pipe2); L(socketpair); L(socket); L(eventfd); L(close); L(syscall);
#undef L
	rt_io_real = r;
}

/* ---- the wait ------------------------------------------------------------------------ */

struct fd_wait {
	struct rt_ext base;
	struct pollfd p;
	const char *call;
};

static bool fd_ready(struct rt_ext *e)
{
	struct fd_wait *w = (struct fd_wait *)e;
	struct pollfd p = { w->p.fd, w->p.events, 0 };
	return IO_REAL(poll)(&p, 1, 0) != 0;
}

static void fd_describe(const struct rt_ext *e, char *buf, size_t cap)
{
	const struct fd_wait *w = (const struct fd_wait *)e;
	char kind[48];
	rt_fd_kind(w->p.fd, kind, sizeof kind);
	snprintf(buf, cap, "%s on %s fd %d", w->call, kind, w->p.fd);
}

static bool fd_internal(const struct rt_ext *e)
{
	const struct fd_wait *w = (const struct fd_wait *)e;
	return rt_fd_internal(w->p.fd, w->p.events);
}

static const struct rt_ext_ops fd_ops = { fd_ready, fd_describe, fd_internal };

/* A socket's receive or send timeout, if it has one. */
static bool has_timeout(int fd, short events)
{
	struct timeval tv = { 0, 0 };
	socklen_t l = sizeof tv;
	int opt = events & POLLOUT ? SO_SNDTIMEO : SO_RCVTIMEO;
	return getsockopt(fd, SOL_SOCKET, opt, &tv, &l) == 0 && (tv.tv_sec || tv.tv_usec);
}

static void point(struct rt_thread *self, int fd, const void *site)
{
	self->trying = true; /* progress only if the call succeeds */
	rt_point(self, EV_FD_IO, (uintptr_t)fd, NULL, 0, site);
	self->trying = false;
}

/* A timerfd that is armed: its expiry is a timeout, a schedule decision
 * as time is virtual. When the schedule says it expired, it is made to
 * expire now (its interval kept), and its read completes. */
static bool armed_timer(int fd)
{
	char link[32], path[48];
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	ssize_t n = readlink(path, link, sizeof link - 1);
	if (n <= 0)
		return false;
	link[n] = 0;
	struct itimerspec its;
	return !strcmp(link, "anon_inode:[timerfd]") && timerfd_gettime(fd, &its) == 0 &&
	       (its.it_value.tv_sec || its.it_value.tv_nsec);
}

static void expire_now(int fd)
{
	struct itimerspec its;
	if (timerfd_gettime(fd, &its) != 0)
		return;
	its.it_value = (struct timespec){ 0, 1 };
	timerfd_settime(fd, 0, &its, NULL);
	struct pollfd p = { fd, POLLIN, 0 };
	IO_REAL(poll)(&p, 1, 1000);
}

static bool fd_wait(struct rt_thread *self, int fd, short events, const char *call,
		    const void *site);

/* Its probes (poll, fcntl, getsockopt, readlink) are the runtime's own:
 * when the call may proceed, errno is what the program left, for the
 * real call to set or not. */
bool rt_fd_wait(struct rt_thread *self, int fd, short events, const char *call, const void *site)
{
	int saved_errno = errno;
	bool go = fd_wait(self, fd, events, call, site);
	/* What one thread writes to a descriptor another may read: which
	 * one is not told apart, so every call orders with every other. */
	rt_race_sync(self, RT_RACE_KEY_IO);
	if (go)
		errno = saved_errno;
	return go;
}

static bool fd_wait(struct rt_thread *self, int fd, short events, const char *call,
		    const void *site)
{
	point(self, fd, site);
	rt_cancel_point(self); /* a cancellation point, blocking or not (POSIX 2.9.5.2) */
	struct pollfd p = { fd, events, 0 };
	if (IO_REAL(poll)(&p, 1, 0) != 0)
		return true; /* ready, hung up, or not a descriptor: the call says */
	int fl = fcntl(fd, F_GETFL);
	if (fl < 0 || (fl & O_NONBLOCK))
		return true;
	struct fd_wait w = { .base = { .ops = &fd_ops, .kernel = true, .pfd = &w.p, .npfd = 1,
				       .cancel_point = true },
			     .p = p,
			     .call = call };
	bool timer = (events & POLLIN) && armed_timer(fd);
	int r = rt_ext_block(self, &w.base, timer || has_timeout(fd, events), EV_FD_IO,
			     (uintptr_t)fd, site);
	rt_cancel_point(self); /* a cancel ended the wait: it acts before the call */
	if (r == EINTR) {
		errno = EINTR;
		return false;
	}
	if (r) {
		if (timer) {
			expire_now(fd);
			return true;
		}
		errno = EAGAIN;
		return false;
	}
	return true;
}

/* After the real call: progress if it did something, and waits on the
 * other end may have become ready. */
static ssize_t done(struct rt_thread *self, ssize_t r)
{
	int e = errno;
	rt_race_acquire(self, RT_RACE_KEY_IO);
	if (r >= 0)
		rt_progress(self);
	rt_ext_changed();
	errno = e;
	return r;
}

/* A socket call on a descriptor that is no socket, or accept on a socket
 * that does not listen, fails at once in the kernel (ENOTSOCK, EBADF,
 * EINVAL): the real call runs, with no wait and no write in its place. */
static bool fails_at_once(int fd, bool accepting)
{
	int saved_errno = errno, v = 0;
	socklen_t l = sizeof v;
	bool fails = getsockopt(fd, SOL_SOCKET, accepting ? SO_ACCEPTCONN : SO_TYPE, &v, &l) != 0 ||
		     (accepting && !v);
	errno = saved_errno;
	return fails;
}

/* ---- reads ------------------------------------------------------------------------------ */

#define RD (POLLIN | POLLRDHUP)

RT_INTERPOSE ssize_t read(int fd, void *buf, size_t n)
{
	struct rt_thread *self = rt_io_self(RT_CALLER());
	if (!self)
		return IO_REAL(read)(fd, buf, n);
	if (!rt_fd_wait(self, fd, RD, "read", RT_CALLER()))
		return -1;
	return done(self, IO_REAL(read)(fd, buf, n));
}

RT_INTERPOSE ssize_t readv(int fd, const struct iovec *iov, int n)
{
	struct rt_thread *self = rt_io_self(RT_CALLER());
	if (!self)
		return IO_REAL(readv)(fd, iov, n);
	if (!rt_fd_wait(self, fd, RD, "readv", RT_CALLER()))
		return -1;
	return done(self, IO_REAL(readv)(fd, iov, n));
}

RT_INTERPOSE ssize_t recv(int fd, void *buf, size_t n, int flags)
{
	struct rt_thread *self = rt_io_self(RT_CALLER());
	if (!self || (flags & MSG_DONTWAIT) || fails_at_once(fd, false))
		return IO_REAL(recv)(fd, buf, n, flags);
	if (!rt_fd_wait(self, fd, RD, "recv", RT_CALLER()))
		return -1;
	return done(self, IO_REAL(recv)(fd, buf, n, flags));
}

RT_INTERPOSE ssize_t recvfrom(int fd, void *buf, size_t n, int flags, struct sockaddr *from,
			   socklen_t *len)
{
	struct rt_thread *self = rt_io_self(RT_CALLER());
	if (!self || (flags & MSG_DONTWAIT) || fails_at_once(fd, false))
		return IO_REAL(recvfrom)(fd, buf, n, flags, from, len);
	if (!rt_fd_wait(self, fd, RD, "recvfrom", RT_CALLER()))
		return -1;
	return done(self, IO_REAL(recvfrom)(fd, buf, n, flags, from, len));
}

RT_INTERPOSE ssize_t recvmsg(int fd, struct msghdr *msg, int flags)
{
	struct rt_thread *self = rt_io_self(RT_CALLER());
	if (!self || (flags & MSG_DONTWAIT) || fails_at_once(fd, false))
		return IO_REAL(recvmsg)(fd, msg, flags);
	if (!rt_fd_wait(self, fd, RD, "recvmsg", RT_CALLER()))
		return -1;
	return done(self, IO_REAL(recvmsg)(fd, msg, flags));
}

/* ---- writes ------------------------------------------------------------------------------ */

static bool is_socket(int fd)
{
	int type;
	socklen_t l = sizeof type;
	return getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &l) == 0;
}

/* One attempt at writing, never blocking: a socket by MSG_DONTWAIT, else
 * with O_NONBLOCK set for the call when more than PIPE_BUF is written
 * (up to PIPE_BUF, a writable pipe takes it at once). */
static ssize_t write_once(int fd, const void *buf, size_t n, int flags, bool sock)
{
	if (sock)
		return IO_REAL(send)(fd, buf, n, flags | MSG_DONTWAIT);
	if (n <= PIPE_BUF)
		return IO_REAL(write)(fd, buf, n);
	int fl = fcntl(fd, F_GETFL);
	fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	ssize_t r = IO_REAL(write)(fd, buf, n);
	int e = errno;
	fcntl(fd, F_SETFL, fl);
	errno = e;
	return r;
}

/* A blocking write of n bytes: all of them, each piece once there is
 * room, and a scheduling point between pieces (a reader may run). */
static ssize_t write_all(struct rt_thread *self, int fd, const void *buf, size_t n, int flags,
			 const char *call, const void *site)
{
	int saved_errno = errno; /* each real call starts from it: probes and EAGAIN are ours */
	bool sock = is_socket(fd);
	int type = 0;
	socklen_t l = sizeof type;
	bool stream = !sock || (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &l) == 0 &&
				type == SOCK_STREAM);
	size_t sent = 0;
	do {
		if (!rt_fd_wait(self, fd, POLLOUT, call, site))
			return sent ? (ssize_t)sent : -1;
		int fl = fcntl(fd, F_GETFL);
		errno = saved_errno;
		if (fl >= 0 && (fl & O_NONBLOCK))
			return done(self, sock ? IO_REAL(send)(fd, buf, n, flags)
					       : IO_REAL(write)(fd, buf, n));
		ssize_t r = write_once(fd, (const char *)buf + sent, n - sent, flags, sock);
		if (r < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				continue;
			if (sent)
				break;
			return done(self, r);
		}
		sent += (size_t)r;
		done(self, r);
	} while (stream && sent < n);
	return (ssize_t)sent;
}

RT_INTERPOSE ssize_t write(int fd, const void *buf, size_t n)
{
	struct rt_thread *self = rt_io_self(RT_CALLER());
	if (!self)
		return IO_REAL(write)(fd, buf, n);
	return write_all(self, fd, buf, n, 0, "write", RT_CALLER());
}

RT_INTERPOSE ssize_t send(int fd, const void *buf, size_t n, int flags)
{
	struct rt_thread *self = rt_io_self(RT_CALLER());
	if (!self || (flags & MSG_DONTWAIT) || fails_at_once(fd, false))
		return IO_REAL(send)(fd, buf, n, flags);
	return write_all(self, fd, buf, n, flags, "send", RT_CALLER());
}

RT_INTERPOSE ssize_t writev(int fd, const struct iovec *iov, int n)
{
	struct rt_thread *self = rt_io_self(RT_CALLER());
	if (!self)
		return IO_REAL(writev)(fd, iov, n);
	if (!rt_fd_wait(self, fd, POLLOUT, "writev", RT_CALLER()))
		return -1;
	return done(self, IO_REAL(writev)(fd, iov, n));
}

RT_INTERPOSE ssize_t sendto(int fd, const void *buf, size_t n, int flags, const struct sockaddr *to,
			 socklen_t len)
{
	struct rt_thread *self = rt_io_self(RT_CALLER());
	if (!self || (flags & MSG_DONTWAIT) || fails_at_once(fd, false))
		return IO_REAL(sendto)(fd, buf, n, flags, to, len);
	if (!rt_fd_wait(self, fd, POLLOUT, "sendto", RT_CALLER()))
		return -1;
	return done(self, IO_REAL(sendto)(fd, buf, n, flags, to, len));
}

RT_INTERPOSE ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
{
	struct rt_thread *self = rt_io_self(RT_CALLER());
	if (!self || (flags & MSG_DONTWAIT) || fails_at_once(fd, false))
		return IO_REAL(sendmsg)(fd, msg, flags);
	if (!rt_fd_wait(self, fd, POLLOUT, "sendmsg", RT_CALLER()))
		return -1;
	return done(self, IO_REAL(sendmsg)(fd, msg, flags));
}

/* ---- connections ------------------------------------------------------------------------ */

RT_INTERPOSE int accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags)
{
	struct rt_thread *self = rt_io_self(RT_CALLER());
	if (!self || fails_at_once(fd, true))
		return IO_REAL(accept4)(fd, addr, len, flags);
	if (!rt_fd_wait(self, fd, POLLIN, "accept", RT_CALLER()))
		return -1;
	int r = (int)done(self, IO_REAL(accept4)(fd, addr, len, flags));
	if (r >= 0)
		rt_fd_created(r, -1);
	return r;
}

RT_INTERPOSE int accept(int fd, struct sockaddr *addr, socklen_t *len)
{
	struct rt_thread *self = rt_io_self(RT_CALLER());
	if (!self || fails_at_once(fd, true))
		return IO_REAL(accept)(fd, addr, len);
	if (!rt_fd_wait(self, fd, POLLIN, "accept", RT_CALLER()))
		return -1;
	int r = (int)done(self, IO_REAL(accept)(fd, addr, len));
	if (r >= 0)
		rt_fd_created(r, -1);
	return r;
}

/* A connect on loopback completes in the kernel without the listener's
 * help (the backlog takes it): a scheduling point, then the real call. A
 * listener waiting in accept or poll becomes ready. */
RT_INTERPOSE int connect(int fd, const struct sockaddr *addr, socklen_t len)
{
	struct rt_thread *self = rt_io_self(RT_CALLER());
	if (!self)
		return IO_REAL(connect)(fd, addr, len);
	point(self, fd, RT_CALLER());
	return (int)done(self, IO_REAL(connect)(fd, addr, len));
}
