/* replay.h - `schedfuzz replay`, and running a program once under an
 * input with its interleaving traced, which `schedfuzz min` shares. */
#ifndef SCHEDFUZZ_REPLAY_H
#define SCHEDFUZZ_REPLAY_H

#include <stdbool.h>

#include "portable.h"

/* A temporary file's path (malloc'd) for the runtime to write, or NULL. */
char *replay_temp_path(const char *what);

/* Run the program at path once under the input file, writing the trace
 * (and, if record is set, the executed schedule). Its status word, or -1. */
int replay_traced(const char *path, char **prog_argv, const char *input, const char *trace,
		  const char *record, bool quiet, unsigned timeout);

/* A portable reproducer's replay: its lines translated to this binary, as
 * anchors for the runtime and an input for the rest, in temporary files.
 * begin: false after a one-line reason; end removes the files. env sets
 * (on) or unsets the runtime's variables that replay it; given is the
 * name the report shows. */
struct portable_replay {
	struct portable port;
	bool read;
	char *anchors, *input;
};
bool replay_portable_begin(struct portable_replay *r, const char *file, const char *prog);
void replay_portable_env(const struct portable_replay *r, const char *given, bool on);
void replay_portable_end(struct portable_replay *r);

int cmd_replay(int argc, char **argv);

#endif
