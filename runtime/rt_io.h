/* rt_io.h - blocking system calls as modelled operations: the real calls
 * behind ours, the registry of descriptors the execution created, and the
 * wait on a descriptor that rt_io.c, rt_poll.c and rt_fd.c share.
 * docs/blocking.md describes the model. */
#ifndef SCHEDFUZZ_RT_IO_H
#define SCHEDFUZZ_RT_IO_H

#include <poll.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "rt_internal.h"

struct rt_io_real {
	ssize_t (*read)(int, void *, size_t);
	ssize_t (*write)(int, const void *, size_t);
	ssize_t (*readv)(int, const struct iovec *, int);
	ssize_t (*writev)(int, const struct iovec *, int);
	ssize_t (*recv)(int, void *, size_t, int);
	ssize_t (*recvfrom)(int, void *, size_t, int, struct sockaddr *, socklen_t *);
	ssize_t (*recvmsg)(int, struct msghdr *, int);
	ssize_t (*send)(int, const void *, size_t, int);
	ssize_t (*sendto)(int, const void *, size_t, int, const struct sockaddr *, socklen_t);
	ssize_t (*sendmsg)(int, const struct msghdr *, int);
	int (*accept)(int, struct sockaddr *, socklen_t *);
	int (*accept4)(int, struct sockaddr *, socklen_t *, int);
	int (*connect)(int, const struct sockaddr *, socklen_t);
	int (*poll)(struct pollfd *, nfds_t, int);
	int (*ppoll)(struct pollfd *, nfds_t, const struct timespec *, const sigset_t *);
	int (*select)(int, fd_set *, fd_set *, fd_set *, struct timeval *);
	int (*pselect)(int, fd_set *, fd_set *, fd_set *, const struct timespec *, const sigset_t *);
	int (*epoll_wait)(int, struct epoll_event *, int, int);
	int (*epoll_pwait)(int, struct epoll_event *, int, int, const sigset_t *);
	int (*epoll_pwait2)(int, struct epoll_event *, int, const struct timespec *, const sigset_t *);
	int (*pipe)(int[2]);
	int (*pipe2)(int[2], int);
	int (*socketpair)(int, int, int, int[2]);
	int (*socket)(int, int, int);
	int (*eventfd)(unsigned, int);
	int (*close)(int);
	long (*syscall)(long, ...);
};
extern struct rt_io_real rt_io_real RT_HIDDEN;
RT_HIDDEN void rt_io_real_init(void);
RT_HIDDEN void *rt_real_next(const char *name);
#define IO_REAL(fn) (RT_LIKELY(rt_io_real.fn != NULL) ? (void)0 : rt_io_real_init(), rt_io_real.fn)

/* Is this call the program's, made by a controlled thread of a running
 * execution? The runtime's own calls (its symbolizer's pipes, reports)
 * and everybody else's pass through. */
static inline struct rt_thread *rt_io_self(const void *site)
{
	struct rt_thread *self = rt_self;
	if (RT_LIKELY(self == NULL) || !rt.active || rt.reported || rt_in_runtime_code(site))
		return NULL;
	return self;
}

/* ---- rt_fd.c: descriptors this execution created ---------------------- */

/* fd was created by a controlled thread, with the other end peer (-1:
 * none, or a socket whose peer is found by address). */
RT_HIDDEN void rt_fd_created(int fd, int peer);
RT_HIDDEN void rt_fd_closed(int fd);
/* Can nothing but this process's threads make fd ready for events? */
RT_HIDDEN bool rt_fd_internal(int fd, short events);
/* What fd is, for reports: "pipe", "TCP socket", "eventfd", ... */
RT_HIDDEN void rt_fd_kind(int fd, char *buf, size_t cap);
/* A fork: every descriptor may now have holders in another process. */
RT_HIDDEN void rt_fd_forked(void);

/* ---- rt_io.c: waiting for one descriptor -------------------------------- */

/* Self, about to make call on fd, waits until fd is ready for events (or
 * the call would not block anyway: a regular file, O_NONBLOCK, where the
 * call itself then fails with EAGAIN). Returns true when the call may
 * proceed, false (errno set) when the wait timed out (EAGAIN: a socket
 * timeout) or was interrupted (EINTR). */
RT_HIDDEN bool rt_fd_wait(struct rt_thread *self, int fd, short events, const char *call,
			  const void *site);

#endif
