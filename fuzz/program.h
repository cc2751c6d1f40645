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
/* --races=MODE or --races MODE (off, report, fail) at argv[*i]: sets
 * SCHEDFUZZ_RACES and moves *i past it; --race-json FILE sets
 * SCHEDFUZZ_RACE_JSON. 1 if it was one, 0 if argv[*i] is
 * another option; exits with SETUP and one line on a bad mode. */
int program_races_option(int argc, char **argv, int *i);
/* run's and replay's default, off for now, unless SCHEDFUZZ_RACES says
 * otherwise; SCHEDFUZZ_RACES_DEFAULT=1 tells the runtime it was not asked. */
void program_races_default(void);
/* Option opt's numeric value within [min, max] (exits with SETUP and one
 * line if it is not a whole number or out of range). */
uint64_t program_number(const char *opt, const char *value, uint64_t min, uint64_t max);
/* A count or a number of seconds: from 1 to UINT32_MAX. */
unsigned program_count(const char *opt, const char *value);
/* A timeout in seconds: from 1 to PROGRAM_TIMEOUT_MAX (0 would mean none
 * to some and at once to others, so it is refused). */
#define PROGRAM_TIMEOUT_MAX 1000000u
unsigned program_timeout(const char *opt, const char *value);
/* mkdir -p: 0, or -1 with errno. */
int program_mkdir_p(const char *dir);
/* Can files be created in dir? (errno says why not) */
bool program_dir_writable(const char *dir);

/* Paths given on the command line, checked before anything runs; false
 * after one line that says what is wrong. An input: a readable regular
 * file. An output file: not a directory, in a directory we can write in.
 * An output directory: created if missing, writable. */
bool program_input_file(const char *path);
bool program_output_file(const char *opt, const char *path);
bool program_output_dir(const char *opt, const char *dir);
/* Writes size bytes to path all or nothing: to a temporary name beside
 * it, renamed to path when complete, removed when not (a full disk must
 * not leave an empty or cut input, which would replay as another
 * schedule). 0, or -1 with errno. */
int program_write_file(const char *path, const void *data, size_t size);
/* The program as execvp would find it (malloc'd), or NULL. */
char *program_resolve(const char *prog);
/* Does the file hold these bytes (a symbol's name, a marker)? */
bool program_has_string(const char *path, const char *text);
/* Does the file hold our runtime? */
bool program_built_with_schedfuzz(const char *path);
/* Resolve and check prog_argv[0]; its path, or NULL after a one-line reason. */
char *program_check(char *const *prog_argv);
/* UBSAN_OPTIONS as every run of the program gets it (the kind of each
 * report named), the user's own options after ours. */
void program_sanitizer_defaults(void);
/* Run the program with the current environment; its status word, or -1.
 * quiet: its output goes to /dev/null; timeout: seconds, 0 for none. */
int program_run(const char *path, char **prog_argv, bool quiet, unsigned timeout);
/* The same, its stdout and stderr written to the file output (NULL:
 * ours). */
int program_run_to(const char *path, char **prog_argv, const char *output, unsigned timeout);

#endif
