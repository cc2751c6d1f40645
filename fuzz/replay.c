/* replay.c - `schedfuzz replay [--record FILE] [--html FILE] [--events N]
 * INPUT -- PROG [ARGS...]`: run the program once under INPUT, let the
 * runtime print its report, then show the whole interleaving as thread
 * lanes (and, with --html, as a page).
 *
 * INPUT may be a portable reproducer (portable.c): its source lines are
 * translated to PROG's code first, and --record then writes the
 * binary-exact input of PROG's build. An input that does not fail says
 * which build it was made for, when it knows. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "genome.h"
#include "portable.h"
#include "program.h"
#include "read_file.h"
#include "replay.h"
#include "trace.h"

#define DEFAULT_EVENTS 200

char *replay_temp_path(const char *what)
{
	const char *dir = getenv("TMPDIR");
	char *path;
	if (asprintf(&path, "%s/schedfuzz-%s-XXXXXX", dir && *dir ? dir : "/tmp", what) < 0)
		return NULL;
	int fd = mkstemp(path);
	if (fd < 0) {
		fprintf(stderr, "schedfuzz: cannot create a temporary file %s: %s\n", path,
			strerror(errno));
		free(path);
		return NULL;
	}
	close(fd);
	return path;
}

int replay_traced(const char *path, char **prog_argv, const char *input, const char *trace,
		  const char *record, bool quiet, unsigned timeout)
{
	setenv("SCHEDFUZZ_INPUT", input, 1);
	setenv("SCHEDFUZZ_TRACE", trace, 1);
	if (record)
		setenv("SCHEDFUZZ_RECORD", record, 1);
	else
		unsetenv("SCHEDFUZZ_RECORD");
	unsetenv("SCHEDFUZZ_RUNS");
	int status = program_run(path, prog_argv, quiet, timeout);
	unsetenv("SCHEDFUZZ_TRACE");
	unsetenv("SCHEDFUZZ_RECORD");
	return status;
}

static char *command_text(const char *input, char **prog_argv)
{
	size_t cap = strlen(input) + 64;
	for (char **a = prog_argv; *a; a++)
		cap += strlen(*a) + 1;
	char *s = malloc(cap);
	if (!s)
		return NULL;
	int n = snprintf(s, cap, "schedfuzz replay %s --", input);
	for (char **a = prog_argv; *a; a++)
		n += snprintf(s + n, cap - (size_t)n, " %s", *a);
	return s;
}


/* A portable reproducer's replay: its lines translated to this binary, as
 * anchors for the runtime and an input for the rest, in temporary files. */
struct portable_replay {
	struct portable port;
	bool read;
	char *anchors, *input;
};

static void portable_replay_end(struct portable_replay *r)
{
	if (r->read)
		portable_free(&r->port);
	if (r->anchors)
		unlink(r->anchors);
	if (r->input)
		unlink(r->input);
	free(r->anchors);
	free(r->input);
}

static bool portable_replay_begin(struct portable_replay *r, const char *file, const char *prog)
{
	char err[512] = "out of memory";
	r->anchors = replay_temp_path("anchors");
	r->input = r->anchors ? replay_temp_path("input") : NULL;
	r->read = r->input && portable_read(file, &r->port, err, sizeof err);
	if (r->read && portable_translate(&r->port, prog, r->anchors, r->input, err, sizeof err))
		return true;
	fprintf(stderr, "schedfuzz: %s\n", err);
	portable_replay_end(r);
	return false;
}

int cmd_replay(int argc, char **argv)
{
	const char *input = NULL, *record = NULL, *html = NULL;
	unsigned events = DEFAULT_EVENTS;
	unsigned timeout = 0;
	int width = 0; /* of a lane: 0 fits the text (and the terminal) */
	int i;
	for (i = 0; i < argc && strcmp(argv[i], "--") != 0; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--record")) {
			record = argv[i = program_option_value(argc, argv, i)];
		} else if (!strcmp(a, "--html")) {
			html = argv[i = program_option_value(argc, argv, i)];
		} else if (!strcmp(a, "--events")) {
			i = program_option_value(argc, argv, i);
			events = (unsigned)program_number(a, argv[i], 0, UINT32_MAX);
		} else if (!strcmp(a, "--timeout")) {
			i = program_option_value(argc, argv, i);
			timeout = program_timeout(a, argv[i]);
		} else if (!strcmp(a, "--width")) {
			i = program_option_value(argc, argv, i);
			width = (int)program_number(a, argv[i], 0, 1000);
		} else if (a[0] == '-') {
			fprintf(stderr, "schedfuzz replay: unknown option '%s'\n", a);
			return SETUP;
		} else if (!input) {
			input = a;
		} else {
			fprintf(stderr, "schedfuzz replay: one INPUT only\n");
			return SETUP;
		}
	}
	if (!input || i + 1 >= argc) {
		fprintf(stderr, "usage: schedfuzz replay [--record FILE] [--html FILE] [--events N] "
				"[--width N] [--timeout SEC] INPUT -- PROG [ARGS...]\n");
		return SETUP;
	}
	if (access(input, R_OK) != 0) {
		fprintf(stderr, "schedfuzz: cannot read %s: %s\n", input, strerror(errno));
		return SETUP;
	}
	char **prog_argv = argv + i + 1;
	char *path = program_check(prog_argv);
	char *trace_path = path ? replay_temp_path("trace") : NULL;
	if (!trace_path) {
		free(path);
		return SETUP;
	}
	const char *given = input;
	struct portable_replay pr = { 0 };
	bool is_portable = portable_is(input);
	if (is_portable) {
		if (!portable_replay_begin(&pr, input, path)) {
			unlink(trace_path);
			free(trace_path);
			free(path);
			return SETUP;
		}
		setenv("SCHEDFUZZ_ANCHORS", pr.anchors, 1);
		setenv("SCHEDFUZZ_INPUT_NAME", given, 1);
		if (pr.port.memory_all)
			setenv("SCHEDFUZZ_MEMORY", "2", 1);
		input = pr.input;
	}
	int status = replay_traced(path, prog_argv, input, trace_path, record, false, timeout);
	unsetenv("SCHEDFUZZ_ANCHORS");
	unsetenv("SCHEDFUZZ_INPUT_NAME");
	if (is_portable && pr.port.memory_all)
		unsetenv("SCHEDFUZZ_MEMORY");
	int result = status < 0 ? SETUP
		     : WIFEXITED(status) && WEXITSTATUS(status) == 0 ? OK
		     : WIFEXITED(status) && WEXITSTATUS(status) == RUNTIME_SETUP_ERROR ? SETUP
		     : FAILED;

	struct trace t;
	char err[512];
	if (result != SETUP && trace_load(trace_path, &t, err, sizeof err)) {
		bool symbolized;
		struct names *nm = names_open(path, &symbolized);
		trace_print_lanes(stderr, &t, nm, (size_t)events, width);
		if (html) {
			char *cmd = command_text(given, prog_argv);
			if (trace_write_html(html, &t, nm, given, cmd ? cmd : "") == 0)
				fprintf(stderr, "schedfuzz: timeline written to %s\n", html);
			else if (result == OK)
				result = SETUP;
			free(cmd);
		}
		names_close(nm);
		trace_free(&t);
	} else if (result != SETUP) {
		/* Killed before the runtime could write it (a timeout, SIGKILL). */
		fprintf(stderr, "schedfuzz: no interleaving to show: %s\n", err);
	}
	if (result == OK && is_portable) {
		portable_say_other_build(path, &pr.port);
	} else if (result == OK) {
		size_t size;
		uint8_t *data = read_whole_file(given, &size), build[8];
		if (data && sf_genome_stamped(data, size, build))
			portable_say_stamp(path, build, given);
		free(data);
	} else if (result == FAILED && is_portable) {
		fprintf(stderr, "schedfuzz: the portable reproducer failed on this build too (made "
				"for build %s, %s, where it failed with %s)\n",
			pr.port.made.id, pr.port.made.name, pr.port.failure);
	}
	if (is_portable && record && pr.port.memory_all)
		fprintf(stderr, "schedfuzz: %s numbers the decisions of a run where every memory "
				"access was a scheduling point: replay it with SCHEDFUZZ_MEMORY=2\n",
			record);
	if (is_portable)
		portable_replay_end(&pr);
	unlink(trace_path);
	free(trace_path);
	free(path);
	return result;
}
