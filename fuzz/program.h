/* program.h - what the schedfuzz command's subcommands share: exit
 * statuses, and running the program under test. */
#ifndef SCHEDFUZZ_PROGRAM_H
#define SCHEDFUZZ_PROGRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { OK = 0, FAILED = 1, SETUP = 2 };
#define RUNTIME_SETUP_ERROR 3 /* the runtime's status for a setup error */

/* Command-line helpers: the index of option argv[i]'s value (exits with
 * SETUP and one line when it has none), and whether s is a number. */
int program_option_value(int argc, char **argv, int i);
bool program_numeric(const char *s);
/* Option opt's numeric value (exits with SETUP and one line if it is not one). */
unsigned program_count(const char *opt, const char *value);

/* The program as execvp would find it (malloc'd), or NULL. */
char *program_resolve(const char *prog);
/* Does the file hold our runtime? */
bool program_built_with_schedfuzz(const char *path);
/* Resolve and check prog_argv[0]; its path, or NULL after a one-line reason. */
char *program_check(char *const *prog_argv);
/* Run the program with the current environment; its status word, or -1.
 * quiet: its output goes to /dev/null; timeout: seconds, 0 for none. */
int program_run(const char *path, char **prog_argv, bool quiet, unsigned timeout);

#endif
