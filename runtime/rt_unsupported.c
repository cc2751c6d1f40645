/* rt_unsupported.c - calls the runtime cannot model inside an execution.
 *
 * Each gives a one-line reason and a setup-error exit (status 3) instead
 * of silently misbehaving; outside an execution they pass through. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "rt_internal.h"

void rt_unsupported(const char *what, const char *why)
{
	fprintf(stderr, "schedfuzz: unsupported in a controlled thread: %s (%s)\n", what, why);
	fflush(stderr);
	_exit(3);
}

#define NEXT(type, name) ((type)dlsym(RTLD_NEXT, name))

RT_EXPORT int pthread_cancel(pthread_t th)
{
	if (rt_self)
		rt_unsupported("pthread_cancel", "thread cancellation is not modelled");
	return NEXT(int (*)(pthread_t), "pthread_cancel")(th);
}

RT_EXPORT int pthread_kill(pthread_t th, int sig)
{
	if (rt_self && sig != 0)
		rt_unsupported("pthread_kill", "signals between threads are not modelled");
	return NEXT(int (*)(pthread_t, int), "pthread_kill")(th, sig);
}

RT_EXPORT pid_t fork(void)
{
	if (rt_self)
		rt_unsupported("fork", "a fork inside an execution would copy one running thread");
	static pid_t (*real)(void);
	if (!real)
		real = NEXT(pid_t (*)(void), "fork");
	return real();
}
