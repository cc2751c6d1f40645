/* rt_libc.c - the functions rt_libc.h renames the runtime's own calls to:
 * each calls the next definition of its name (libc's, or in the ASan mode
 * ASan's interceptor), whatever the program defines. */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/wait.h>

#include "rt_internal.h"
#include "rt_io.h"

#define FORWARD(ret, name, params, args)                                              \
	RT_HIDDEN ret rt_libc_##name params __asm__("rt_libc_" #name);                \
	ret rt_libc_##name params                                                     \
	{                                                                             \
		static __typeof__(name) *real;                                        \
		if (!real)                                                            \
			real = (__typeof__(name) *)rt_real_next(#name);               \
		return real args;                                                     \
	}

FORWARD(ssize_t, read, (int fd, void *buf, size_t n), (fd, buf, n))
FORWARD(ssize_t, write, (int fd, const void *buf, size_t n), (fd, buf, n))
FORWARD(int, close, (int fd), (fd))
FORWARD(int, pipe2, (int fds[2], int flags), (fds, flags))
FORWARD(int, poll, (struct pollfd * fds, nfds_t n, int ms), (fds, n, ms))
FORWARD(pid_t, fork, (void), ())
FORWARD(pid_t, waitpid, (pid_t pid, int *status, int options), (pid, status, options))
FORWARD(unsigned, alarm, (unsigned s), (s))
FORWARD(int, sigprocmask, (int how, const sigset_t *set, sigset_t *old), (how, set, old))
FORWARD(int, pthread_sigmask, (int how, const sigset_t *set, sigset_t *old), (how, set, old))
FORWARD(int, sigtimedwait, (const sigset_t *set, siginfo_t *info, const struct timespec *t),
	(set, info, t))
FORWARD(int, kill, (pid_t pid, int sig), (pid, sig))
FORWARD(int, nanosleep, (const struct timespec *t, struct timespec *rem), (t, rem))
FORWARD(int, sched_yield, (void), ())

/* The runtime's own clone (the symbolizer's child) passes no thread ids
 * and no TLS; its own syscall passes at most six arguments. */
RT_HIDDEN int rt_libc_clone(int (*fn)(void *), void *stack, int flags, void *arg, ...)
	__asm__("rt_libc_clone");
int rt_libc_clone(int (*fn)(void *), void *stack, int flags, void *arg, ...)
{
	static __typeof__(clone) *real;
	if (!real)
		real = (__typeof__(clone) *)rt_real_next("clone");
	return real(fn, stack, flags, arg);
}

RT_HIDDEN long rt_libc_syscall(long nr, ...) __asm__("rt_libc_syscall");
long rt_libc_syscall(long nr, ...)
{
	va_list ap;
	va_start(ap, nr);
	long a[6];
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	return IO_REAL(syscall)(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}
