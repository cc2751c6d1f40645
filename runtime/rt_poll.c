/* rt_poll.c - poll, ppoll, select, pselect, epoll_wait, epoll_pwait(2) as
 * modelled operations.
 *
 * A scheduling point, then the call with a zero timeout: if something is
 * ready, or the caller asked for no wait, that is the answer. Otherwise the
 * thread is blocked (rt_external.c) until a zero-timeout poll of its set
 * finds something ready; a finite timeout makes it a timed wait, and
 * whether it times out (returning 0) is a schedule decision, whatever its
 * length. The wait is internal, and so can be part of a deadlock, when
 * every descriptor in the set is (rt_fd.c); an epoll set is never, since
 * its members are not tracked. ppoll's and pselect's signal masks are not
 * applied while the thread waits (no signal reaches a controlled thread
 * during a wait in this model). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rt_io.h"
#include "rt_lifecycle.h"
#include "rt_race.h"

struct poll_wait {
	struct rt_ext base;
	const char *call;
	bool epoll;
};

static bool poll_ready(struct rt_ext *e)
{
	return IO_REAL(poll)(e->pfd, (nfds_t)e->npfd, 0) != 0;
}

static void poll_describe(const struct rt_ext *e, char *buf, size_t cap)
{
	const struct poll_wait *w = (const struct poll_wait *)e;
	size_t len = (size_t)snprintf(buf, cap, "%s on", w->call);
	int shown = 0;
	for (int i = 0; i < e->npfd && len < cap; i++) {
		if (e->pfd[i].fd < 0)
			continue;
		if (shown++ == 3) {
			snprintf(buf + len, cap - len, " and %d more", e->npfd - i);
			break;
		}
		char kind[48];
		rt_fd_kind(e->pfd[i].fd, kind, sizeof kind);
		len += (size_t)snprintf(buf + len, cap - len, "%s %s fd %d", shown > 1 ? "," : "", kind,
					e->pfd[i].fd);
	}
}

static bool poll_internal(const struct rt_ext *e)
{
	const struct poll_wait *w = (const struct poll_wait *)e;
	if (w->epoll)
		return false; /* its members are not tracked */
	for (int i = 0; i < e->npfd; i++)
		if (e->pfd[i].fd >= 0 && !rt_fd_internal(e->pfd[i].fd, e->pfd[i].events))
			return false;
	return true;
}

static const struct rt_ext_ops poll_ops = { poll_ready, poll_describe, poll_internal };

static void point(struct rt_thread *self, const void *site)
{
	self->trying = true; /* progress only if something was ready */
	rt_point(self, EV_FD_IO, 0, NULL, 0, site);
	self->trying = false;
}

/* Wait until something in p is ready (then 1), the timed wait timed out
 * (then 0), or the wait was interrupted (then -1, errno EINTR). */
static int wait_set(struct rt_thread *self, struct pollfd *p, nfds_t n, bool epoll, bool timed,
		    const char *call, const void *site)
{
	struct poll_wait w = { .base = { .ops = &poll_ops, .kernel = true, .pfd = p, .npfd = (int)n,
					 .cancel_point = true },
			       .call = call,
			       .epoll = epoll };
	int r = rt_ext_block(self, &w.base, timed, EV_FD_IO, 0, site);
	rt_race_sync(self, RT_RACE_KEY_IO);
	rt_cancel_point(self); /* a cancel ended the wait: it acts before the call returns */
	if (r == EINTR) {
		errno = EINTR;
		return -1;
	}
	return r == 0;
}

static int progress(struct rt_thread *self, int r)
{
	if (r > 0)
		rt_progress(self);
	return r;
}

static int poll_model(struct rt_thread *self, struct pollfd *fds, nfds_t n, bool block, bool timed,
		      const char *call, const void *site)
{
	point(self, site);
	int r = IO_REAL(poll)(fds, n, 0);
	if (r != 0 || !block)
		return progress(self, r);
	for (;;) {
		int w = wait_set(self, fds, n, false, timed, call, site);
		if (w <= 0)
			return w;
		r = IO_REAL(poll)(fds, n, 0);
		if (r != 0)
			return progress(self, r);
	}
}

static bool timespec_blocks(const struct timespec *ts)
{
	return !ts || ts->tv_sec || ts->tv_nsec;
}

RT_INTERPOSE int poll(struct pollfd *fds, nfds_t n, int timeout)
{
	struct rt_thread *self = rt_io_self(RT_CALLER());
	if (!self)
		return IO_REAL(poll)(fds, n, timeout);
	return poll_model(self, fds, n, timeout != 0, timeout > 0, "poll", RT_CALLER());
}

RT_INTERPOSE int ppoll(struct pollfd *fds, nfds_t n, const struct timespec *ts, const sigset_t *mask)
{
	struct rt_thread *self = rt_io_self(RT_CALLER());
	if (!self)
		return IO_REAL(ppoll)(fds, n, ts, mask);
	return poll_model(self, fds, n, timespec_blocks(ts), ts != NULL, "ppoll", RT_CALLER());
}

/* ---- select ------------------------------------------------------------------------------ */

/* The sets as a poll set; returns its size. */
static nfds_t sets_to_poll(int nfds, fd_set *r, fd_set *w, fd_set *x, struct pollfd *p)
{
	nfds_t n = 0;
	for (int fd = 0; fd < nfds && fd < FD_SETSIZE; fd++) {
		short ev = (short)((r && FD_ISSET(fd, r) ? POLLIN : 0) |
				   (w && FD_ISSET(fd, w) ? POLLOUT : 0) |
				   (x && FD_ISSET(fd, x) ? POLLPRI : 0));
		if (ev)
			p[n++] = (struct pollfd){ fd, ev, 0 };
	}
	return n;
}

static int select_model(struct rt_thread *self, int nfds, fd_set *r, fd_set *w, fd_set *x,
			bool block, bool timed, const char *call, const void *site)
{
	point(self, site);
	fd_set r0, w0, x0;
	if (r)
		r0 = *r;
	if (w)
		w0 = *w;
	if (x)
		x0 = *x;
	struct timeval zero = { 0, 0 };
	int got = IO_REAL(select)(nfds, r, w, x, &zero);
	if (got != 0 || !block)
		return progress(self, got);
	struct pollfd p[FD_SETSIZE];
	nfds_t n = sets_to_poll(nfds, r ? &r0 : NULL, w ? &w0 : NULL, x ? &x0 : NULL, p);
	for (;;) {
		int ws = wait_set(self, p, n, false, timed, call, site);
		if (ws <= 0)
			return ws; /* timed out: the sets are empty already */
		if (r)
			*r = r0;
		if (w)
			*w = w0;
		if (x)
			*x = x0;
		zero = (struct timeval){ 0, 0 };
		got = IO_REAL(select)(nfds, r, w, x, &zero);
		if (got != 0)
			return progress(self, got);
	}
}

RT_INTERPOSE int select(int nfds, fd_set *r, fd_set *w, fd_set *x, struct timeval *tv)
{
	struct rt_thread *self = rt_io_self(RT_CALLER());
	if (!self)
		return IO_REAL(select)(nfds, r, w, x, tv);
	int got = select_model(self, nfds, r, w, x, !tv || tv->tv_sec || tv->tv_usec, tv != NULL,
			       "select", RT_CALLER());
	if (got == 0 && tv)
		*tv = (struct timeval){ 0, 0 }; /* Linux leaves the time not slept */
	return got;
}

RT_INTERPOSE int pselect(int nfds, fd_set *r, fd_set *w, fd_set *x, const struct timespec *ts,
		      const sigset_t *mask)
{
	struct rt_thread *self = rt_io_self(RT_CALLER());
	if (!self)
		return IO_REAL(pselect)(nfds, r, w, x, ts, mask);
	return select_model(self, nfds, r, w, x, timespec_blocks(ts), ts != NULL, "pselect",
			    RT_CALLER());
}

/* ---- epoll ------------------------------------------------------------------------------ */

/* An epoll descriptor is readable while its ready list is not empty. */
static int epoll_model(struct rt_thread *self, int epfd, struct epoll_event *ev, int max,
		       int timeout, const void *site)
{
	point(self, site);
	int got = IO_REAL(epoll_wait)(epfd, ev, max, 0);
	if (got != 0 || timeout == 0)
		return progress(self, got);
	struct pollfd p = { epfd, POLLIN, 0 };
	for (;;) {
		int w = wait_set(self, &p, 1, true, timeout > 0, "epoll_wait", site);
		if (w <= 0)
			return w;
		got = IO_REAL(epoll_wait)(epfd, ev, max, 0);
		if (got != 0)
			return progress(self, got);
	}
}

RT_INTERPOSE int epoll_wait(int epfd, struct epoll_event *ev, int max, int timeout)
{
	struct rt_thread *self = rt_io_self(RT_CALLER());
	if (!self)
		return IO_REAL(epoll_wait)(epfd, ev, max, timeout);
	return epoll_model(self, epfd, ev, max, timeout, RT_CALLER());
}

RT_INTERPOSE int epoll_pwait(int epfd, struct epoll_event *ev, int max, int timeout,
			  const sigset_t *mask)
{
	struct rt_thread *self = rt_io_self(RT_CALLER());
	if (!self)
		return IO_REAL(epoll_pwait)(epfd, ev, max, timeout, mask);
	return epoll_model(self, epfd, ev, max, timeout, RT_CALLER());
}

/* glibc 2.35's epoll_pwait with a timespec (libevent uses it when it can):
 * NULL waits for ever, zero polls, anything else is a timed wait. */
RT_INTERPOSE int epoll_pwait2(int epfd, struct epoll_event *ev, int max, const struct timespec *ts,
			   const sigset_t *mask)
{
	struct rt_thread *self = rt_io_self(RT_CALLER());
	if (!self)
		return IO_REAL(epoll_pwait2)(epfd, ev, max, ts, mask);
	int timeout = !ts ? -1 : ts->tv_sec == 0 && ts->tv_nsec == 0 ? 0 : 1;
	return epoll_model(self, epfd, ev, max, timeout, RT_CALLER());
}
