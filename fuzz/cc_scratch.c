/* cc_scratch.c - the private directory where schedfuzz-cc keeps its
 * intermediate files (bitcode, objects of a compile-and-link), so that
 * nothing but clang's own outputs appears where the build runs. */
#define _GNU_SOURCE
#include "cc_scratch.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *scratch;

/* The directory is flat: only files of ours are in it. Safe in a signal
 * handler but for opendir's allocation, which is acceptable there: the
 * process ends right after. */
static void remove_scratch(void)
{
	if (!scratch)
		return;
	DIR *d = opendir(scratch);
	if (d) {
		for (struct dirent *e; (e = readdir(d));) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			unlinkat(dirfd(d), e->d_name, 0);
		}
		closedir(d);
	}
	rmdir(scratch);
	scratch = NULL;
}

static void on_signal(int sig)
{
	remove_scratch();
	signal(sig, SIG_DFL);
	raise(sig);
}

const char *cc_scratch_dir(void)
{
	if (scratch)
		return scratch;
	const char *tmp = getenv("TMPDIR");
	char *dir;
	if (asprintf(&dir, "%s/schedfuzz-cc.XXXXXX", tmp && *tmp ? tmp : "/tmp") < 0)
		exit(1);
	if (!mkdtemp(dir)) {
		fprintf(stderr, "schedfuzz-cc: cannot make a scratch directory %s: %s\n", dir,
			strerror(errno));
		free(dir);
		return NULL;
	}
	scratch = dir;
	atexit(remove_scratch);
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
		signal(sigs[i], on_signal);
	return scratch;
}
