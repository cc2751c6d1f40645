/* rt_outfile.c - the files an execution writes at its end (the trace that
 * replay draws, the schedule min records), opened before the program runs.
 *
 * A program may sandbox itself (Landlock, seccomp, a chroot) once it has
 * started: a file opened before then can still be written, where opening
 * it at the end would fail and the trace would be lost. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "rt_internal.h"
#include "rt_libc.h"

int rt_outfile_open(const char *path, int *fd)
{
	if (*fd >= 0)
		return 0;
	*fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (*fd < 0) {
		fprintf(stderr, "schedfuzz: cannot write %s: %s\n", path, strerror(errno));
		return -errno;
	}
	return 0;
}

FILE *rt_outfile_rewrite(const char *path, int *fd, const char *mode)
{
	if (*fd < 0 && rt_outfile_open(path, fd) != 0)
		return NULL;
	int copy = dup(*fd);
	FILE *f = copy >= 0 && ftruncate(copy, 0) == 0 && lseek(copy, 0, SEEK_SET) == 0
			  ? fdopen(copy, mode)
			  : NULL;
	if (!f) {
		fprintf(stderr, "schedfuzz: cannot write %s: %s\n", path, strerror(errno));
		if (copy >= 0)
			close(copy);
	}
	return f;
}
