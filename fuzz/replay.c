/* replay.c - `schedfuzz replay [--record FILE] [--html FILE] [--events N]
 * INPUT -- PROG [ARGS...]`: run the program once under INPUT, let the
 * runtime print its report, then show the whole interleaving as thread
 * lanes (and, with --html, as a page). With --interactive the user takes
 * each decision among threads (interact.c), at the terminal or over JSON
 * lines on stdin and stdout.
 *
 * INPUT may be a portable reproducer (portable.c): its source lines are
 * translated to PROG's code first, and --record then writes the
 * binary-exact input of PROG's build. An input that does not fail says
 * which build it was made for, when it knows. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "genome.h"
#include "interact.h"
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


void replay_portable_end(struct portable_replay *r)
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

bool replay_portable_begin(struct portable_replay *r, const char *file, const char *prog)
{
	char err[512] = "out of memory";
	*r = (struct portable_replay){ 0 };
	r->anchors = replay_temp_path("anchors");
	r->input = r->anchors ? replay_temp_path("input") : NULL;
	r->read = r->input && portable_read(file, &r->port, err, sizeof err);
	if (r->read && portable_translate(&r->port, prog, r->anchors, r->input, err, sizeof err))
		return true;
	fprintf(stderr, "schedfuzz: %s\n", err);
	replay_portable_end(r);
	return false;
}

void replay_portable_env(const struct portable_replay *r, const char *given, bool on)
{
	if (!on) {
		unsetenv("SCHEDFUZZ_ANCHORS");
		unsetenv("SCHEDFUZZ_INPUT_NAME");
		if (r->port.memory_all)
			unsetenv("SCHEDFUZZ_MEMORY");
		return;
	}
	setenv("SCHEDFUZZ_ANCHORS", r->anchors, 1);
	setenv("SCHEDFUZZ_INPUT_NAME", given, 1);
	if (r->port.memory_all)
		setenv("SCHEDFUZZ_MEMORY", "2", 1);
}

struct replay_opts {
	const char *record, *html;
	unsigned events, timeout;
	int width;
	int interactive; /* 0 no, 1 at the terminal, 2 JSON lines */
};

/* Replays one input file of the program at path. */
static int replay_one(const char *input, char **prog_argv, const char *path,
		      const struct replay_opts *o)
{
	char *trace_path = replay_temp_path("trace");
	if (!trace_path)
		return SETUP;
	const char *given = input;
	struct portable_replay pr = { 0 };
	bool is_portable = portable_is(input);
	if (is_portable) {
		if (!replay_portable_begin(&pr, input, path)) {
			unlink(trace_path);
			free(trace_path);
			return SETUP;
		}
		replay_portable_env(&pr, given, true);
		input = pr.input;
	}
	struct interact ia;
	if (o->interactive && !interact_begin(&ia, o->interactive == 2)) {
		if (is_portable) {
			replay_portable_env(&pr, given, false);
			replay_portable_end(&pr);
		}
		unlink(trace_path);
		free(trace_path);
		return SETUP;
	}
	int status = replay_traced(path, prog_argv, input, trace_path, o->record, false, o->timeout);
	if (o->interactive)
		interact_end(&ia);
	if (is_portable)
		replay_portable_env(&pr, given, false);
	int result = status < 0 ? SETUP
		     : WIFEXITED(status) && WEXITSTATUS(status) == 0 ? OK
		     : WIFEXITED(status) && WEXITSTATUS(status) == RUNTIME_SETUP_ERROR ? SETUP
		     : FAILED;

	struct trace t;
	char err[512];
	if (result != SETUP && trace_load(trace_path, &t, err, sizeof err)) {
		bool symbolized;
		struct names *nm = names_open(path, &symbolized);
		trace_print_lanes(stderr, &t, nm, (size_t)o->events, o->width);
		if (o->html) {
			char *cmd = command_text(given, prog_argv);
			if (trace_write_html(o->html, &t, nm, given, cmd ? cmd : "") == 0)
				fprintf(stderr, "schedfuzz: timeline written to %s\n", o->html);
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
	if (is_portable && o->record && pr.port.memory_all)
		fprintf(stderr, "schedfuzz: %s numbers the decisions of a run where every memory "
				"access was a scheduling point: replay it with SCHEDFUZZ_MEMORY=2\n",
			o->record);
	if (is_portable)
		replay_portable_end(&pr);
	unlink(trace_path);
	free(trace_path);
	return result;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A directory given as INPUT, as libFuzzer takes one: every regular file
 * in it, in name order, each replayed in turn. FAILED if one fails. */
static int replay_dir(const char *dir, char **prog_argv, const char *path,
		      const struct replay_opts *o)
{
	DIR *d = opendir(dir);
	if (!d) {
		fprintf(stderr, "schedfuzz: cannot read %s: %s\n", dir, strerror(errno));
		return SETUP;
	}
	char **names = NULL;
	size_t n = 0;
	for (struct dirent *e; (e = readdir(d));) {
		char *p;
		struct stat st;
		if (e->d_name[0] == '.' || asprintf(&p, "%s/%s", dir, e->d_name) < 0)
			continue;
		char **more = stat(p, &st) == 0 && S_ISREG(st.st_mode)
				      ? realloc(names, (n + 1) * sizeof *names)
				      : NULL;
		if (!more) {
			free(p);
			continue;
		}
		names = more;
		names[n++] = p;
	}
	closedir(d);
	if (!n) {
		fprintf(stderr, "schedfuzz: no input files in %s\n", dir);
		free(names);
		return SETUP;
	}
	qsort(names, n, sizeof *names, by_name);
	fprintf(stderr, "schedfuzz: replaying the %zu input files in %s\n", n, dir);
	int result = OK;
	size_t failed = 0;
	for (size_t k = 0; k < n; k++) {
		int r = replay_one(names[k], prog_argv, path, o);
		fprintf(stderr, "schedfuzz: %s: %s\n", names[k],
			r == OK ? "passed" : r == FAILED ? "failed" : "could not be replayed");
		failed += r == FAILED;
		if (r == SETUP || (r == FAILED && result == OK))
			result = r;
		free(names[k]);
	}
	free(names);
	fprintf(stderr, "schedfuzz: %zu of %zu inputs failed\n", failed, n);
	return result;
}

int cmd_replay(int argc, char **argv)
{
	const char *input = NULL, *record = NULL, *html = NULL;
	unsigned events = DEFAULT_EVENTS;
	program_races_default();
	unsigned timeout = 0;
	int width = 0; /* of a lane: 0 fits the text (and the terminal) */
	int interactive = 0;
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
		} else if (!strcmp(a, "--interactive") || !strcmp(a, "--interactive=text")) {
			interactive = 1;
		} else if (!strcmp(a, "--interactive=json")) {
			interactive = 2;
		} else if (program_races_option(argc, argv, &i)) {
			/* SCHEDFUZZ_RACES: set */
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
				"[--width N] [--timeout SEC] [--interactive[=json]] INPUT -- PROG "
				"[ARGS...]\n");
		return SETUP;
	}
	struct stat st;
	if (stat(input, &st) != 0 || access(input, R_OK) != 0) {
		fprintf(stderr, "schedfuzz: cannot read %s: %s\n", input, strerror(errno));
		return SETUP;
	}
	bool dir = S_ISDIR(st.st_mode);
	if (dir && (record || html || interactive)) {
		fprintf(stderr, "schedfuzz: %s is a directory: --record, --html and --interactive take "
				"one input file\n",
			input);
		return SETUP;
	}
	if (!dir && !program_input_file(input))
		return SETUP;
	if ((record && !program_output_file("--record", record)) ||
	    (html && !program_output_file("--html", html)))
		return SETUP;
	char **prog_argv = argv + i + 1;
	char *path = program_check(prog_argv);
	if (!path)
		return SETUP;
	struct replay_opts o = { record, html, events, timeout, width, interactive };
	int result = dir ? replay_dir(input, prog_argv, path, &o) : replay_one(input, prog_argv, path, &o);
	free(path);
	return result;
}
