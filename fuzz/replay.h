/* replay.h - `schedfuzz replay`, and running a program once under an
 * input with its interleaving traced, which `schedfuzz min` shares. */
#ifndef SCHEDFUZZ_REPLAY_H
#define SCHEDFUZZ_REPLAY_H

#include <stdbool.h>

/* A temporary file's path (malloc'd) for the runtime to write, or NULL. */
char *replay_temp_path(const char *what);

/* Run the program at path once under the input file, writing the trace
 * (and, if record is set, the executed schedule). Its status word, or -1. */
int replay_traced(const char *path, char **prog_argv, const char *input, const char *trace,
		  const char *record, bool quiet, unsigned timeout);

int cmd_replay(int argc, char **argv);

#endif
