/* family.h - what the scalable families share: the thread count N, read
 * from argv[1] (or the environment variable FAMILY_THREADS), 2 to 100.
 * One binary serves every N, so a benchmark builds each family once. */
#ifndef SCHEDFUZZ_FAMILY_H
#define SCHEDFUZZ_FAMILY_H

#include <stdio.h>
#include <stdlib.h>

#define FAMILY_MAX_THREADS 100

static inline int family_threads(int argc, char **argv)
{
	const char *s = argc > 1 ? argv[1] : getenv("FAMILY_THREADS");
	if (!s || !*s)
		return 4;
	char *end;
	long n = strtol(s, &end, 10);
	if (*end || n < 2 || n > FAMILY_MAX_THREADS) {
		fprintf(stderr, "%s: the thread count is a number from 2 to %d, not '%s'\n", argv[0],
			FAMILY_MAX_THREADS, s);
		exit(2);
	}
	return (int)n;
}

#endif
