/* rt_libc.h - the runtime's own system calls reach libc, never a function
 * of the same name that the program defines.
 *
 * The interposers are weak (RT_INTERPOSE): a program may define write,
 * poll or kill itself, and its definition then takes the name for every
 * caller in the executable, the runtime's code included. A file that calls
 * one of these names for the runtime's own work (reports, the symbolizer's
 * pipes, the driver's fork and wait, the watchdog) includes this header:
 * its calls are renamed, by an assembler label, to rt_libc_NAME
 * (rt_libc.c), which calls the next definition in lookup order, as the
 * interposer does for a caller in the runtime. Nothing changes at the call
 * sites. tests/libc/weak_interposers.sh finds any call to an
 * interposed name left in the runtime's own files. */
#ifndef SCHEDFUZZ_RT_LIBC_H
#define SCHEDFUZZ_RT_LIBC_H

#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Full prototypes, not __typeof__: pipe2 and clone are declared only
 * under _GNU_SOURCE, which not every including file defines. */
#define RT_LIBC(name) __asm__("rt_libc_" #name)
extern ssize_t read(int, void *, size_t) RT_LIBC(read);
extern ssize_t write(int, const void *, size_t) RT_LIBC(write);
extern int close(int) RT_LIBC(close);
extern int pipe2(int[2], int) RT_LIBC(pipe2);
extern int poll(struct pollfd *, nfds_t, int) RT_LIBC(poll);
extern pid_t fork(void) RT_LIBC(fork);
extern pid_t waitpid(pid_t, int *, int) RT_LIBC(waitpid);
extern unsigned alarm(unsigned) RT_LIBC(alarm);
extern int clone(int (*)(void *), void *, int, void *, ...) RT_LIBC(clone);
extern int sigprocmask(int, const sigset_t *, sigset_t *) RT_LIBC(sigprocmask);
extern int pthread_sigmask(int, const sigset_t *, sigset_t *) RT_LIBC(pthread_sigmask);
extern int sigtimedwait(const sigset_t *, siginfo_t *, const struct timespec *)
	RT_LIBC(sigtimedwait);
extern long syscall(long, ...) RT_LIBC(syscall);
extern int kill(pid_t, int) RT_LIBC(kill);
extern int nanosleep(const struct timespec *, struct timespec *) RT_LIBC(nanosleep);
extern int sched_yield(void) RT_LIBC(sched_yield);
#undef RT_LIBC

#endif
