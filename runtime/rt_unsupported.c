/* rt_unsupported.c - the one way out for calls the runtime cannot model
 * inside an execution (asynchronous cancellation, clone with
 * CLONE_THREAD, ...): a one-line reason and a setup-error exit (status 3)
 * instead of silently misbehaving; outside an execution they pass
 * through. */
#define _GNU_SOURCE
#include <stdio.h>
#include <unistd.h>

#include "rt_internal.h"

void rt_unsupported(const char *what, const char *why)
{
	fprintf(stderr, "schedfuzz: unsupported in a controlled thread: %s (%s)\n", what, why);
	fflush(stderr);
	_exit(3);
}
