/* estimates_file.h - what executions showed, shared through a file between
 * the program under test and a mutator in another process (AFL++'s
 * afl-fuzz runs the mutator; the forked program learns the counts).
 *
 * The mutator creates the file and names it in SCHEDFUZZ_ESTIMATES, which
 * afl-fuzz passes on to the program; the program folds each execution's
 * counts in (sf_estimates_merge), the mutator reads them when it writes a
 * genome. afl-fuzz runs one execution at a time and mutates between them,
 * so the two never write at once. */
#ifndef SCHEDFUZZ_ESTIMATES_FILE_H
#define SCHEDFUZZ_ESTIMATES_FILE_H

#include <stdint.h>

#include "generate.h"

#define SF_ESTIMATES_MAGIC 0x5346455354494d31ull /* "SFESTIM1" */

struct sf_estimates_file {
	uint64_t magic;
	struct sf_estimates est;
};

#endif
