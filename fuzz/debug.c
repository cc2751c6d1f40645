/* debug.c - `schedfuzz debug [--step N] [--timeout SEC] INPUT [GDB OPTIONS]
 * -- PROG [ARGS...]`: gdb on the replay of INPUT, stopped at the start of
 * scheduling step N, before that step's operation; without --step, at
 * the last step of a failing execution.
 *
 * The input is replayed once first, quietly: its report (or, when it
 * passes, its trace) says how many steps it has and whether it fails, so
 * that a step past the end or an input that does not fail is refused
 * before gdb starts. gdb then
 * runs the program in the environment `schedfuzz replay` gives it, plus
 * SCHEDFUZZ_DEBUG_STEP (runtime/rt_debug.c), with our extension loaded
 * (schedfuzz_gdb.py, in lib/schedfuzz beside the runtime) and its
 * `sf start` first, then the user's gdb options in their order. Its exit
 * status is ours. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "debug.h"
#include "program.h"
#include "replay.h"
#include "trace.h"

#define EXTENSION "schedfuzz_gdb.py"

/* gdb's options that take the next word as their value. */
static bool gdb_takes_value(const char *opt)
{
	static const char *const with_value[] = {
		"ex", "eval-command", "iex", "init-eval-command", "x", "command", "ix",
		"init-command", "d", "directory", "cd", "data-directory", "tty", "l", "b", "D",
	};
	const char *name = opt + (opt[1] == '-' ? 2 : 1);
	if (strchr(name, '='))
		return false;
	for (size_t i = 0; i < sizeof with_value / sizeof *with_value; i++)
		if (!strcmp(name, with_value[i]))
			return true;
	return false;
}

/* The extension: in $SCHEDFUZZ_LIBDIR, else in lib/schedfuzz beside our
 * bin/ (where cmake --install puts it, and the build tree has it). */
static char *extension_path(void)
{
	const char *env = getenv("SCHEDFUZZ_LIBDIR");
	char *path = NULL;
	if (env && *env) {
		if (asprintf(&path, "%s/%s", env, EXTENSION) < 0)
			return NULL;
	} else {
		char self[PATH_MAX];
		ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
		if (n <= 0)
			return NULL;
		self[n] = 0;
		char *slash = strrchr(self, '/');
		if (slash)
			*slash = 0;
		if (asprintf(&path, "%s/../lib/schedfuzz/%s", self, EXTENSION) < 0)
			return NULL;
	}
	if (access(path, R_OK) != 0) {
		fprintf(stderr, "schedfuzz: the gdb extension %s: %s (set SCHEDFUZZ_LIBDIR)\n", path,
			strerror(errno));
		free(path);
		return NULL;
	}
	return path;
}

struct debug_opts {
	uint64_t step; /* 0: the failing one */
	unsigned timeout;
	const char *input;
	char **gdb_args;
	int ngdb_args;
	char **prog_argv;
};

static void usage_line(void)
{
	fprintf(stderr, "usage: schedfuzz debug [--step N] [--timeout SEC] INPUT [GDB OPTIONS] "
			"-- PROG [ARGS...]\n");
}

static bool parse(int argc, char **argv, struct debug_opts *o)
{
	*o = (struct debug_opts){ 0 };
	o->gdb_args = calloc((size_t)argc + 1, sizeof *o->gdb_args);
	if (!o->gdb_args)
		return false;
	int i;
	for (i = 0; i < argc && strcmp(argv[i], "--") != 0; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--step")) {
			i = program_option_value(argc, argv, i);
			o->step = program_number(a, argv[i], 1, UINT64_MAX);
		} else if (!strcmp(a, "--timeout")) {
			i = program_option_value(argc, argv, i);
			o->timeout = program_timeout(a, argv[i]);
		} else if (a[0] == '-' && a[1]) {
			o->gdb_args[o->ngdb_args++] = argv[i];
			if (gdb_takes_value(a))
				o->gdb_args[o->ngdb_args++] = argv[i = program_option_value(argc, argv, i)];
		} else if (!o->input) {
			o->input = a;
		} else {
			fprintf(stderr, "schedfuzz debug: one INPUT only ('%s' is a second)\n", a);
			return false;
		}
	}
	if (!o->input || i + 1 >= argc) {
		usage_line();
		return false;
	}
	o->prog_argv = argv + i + 1;
	return true;
}

/* How the input's replay went: its steps, and whether and how it failed. */
struct outcome {
	uint64_t steps;
	bool failed;
	char kind[64];
};

/* A failure's report: its kind and the steps its schedule line counts,
 * those of exit handlers included (as the trace counts them). */
static bool read_report(const char *output, struct outcome *o)
{
	FILE *f = fopen(output, "r");
	if (!f)
		return false;
	char line[4096];
	bool error = false, counted = false;
	while (fgets(line, sizeof line, f)) {
		const char *p;
		unsigned long long n;
		if (!strncmp(line, "==schedfuzz== ERROR: ", 21)) {
			p = line + 21;
			size_t len = strcspn(p, ":\n");
			snprintf(o->kind, sizeof o->kind, "%.*s", (int)len, p);
			error = true;
		} else if (!strncmp(line, "==schedfuzz== schedule: ", 24) && (p = strrchr(line, '(')) &&
			   sscanf(p, "(%llu steps,", &n) == 1) {
			o->steps = n;
			counted = true;
		}
	}
	fclose(f);
	o->failed = error && counted;
	return o->failed;
}

static bool first_replay(const char *path, char **prog_argv, const char *input, unsigned timeout,
			 struct outcome *o)
{
	*o = (struct outcome){ 0 };
	char *trace_path = replay_temp_path("trace");
	char *output = trace_path ? replay_temp_path("output") : NULL;
	if (!output) {
		free(trace_path);
		return false;
	}
	setenv("SCHEDFUZZ_INPUT", input, 1);
	setenv("SCHEDFUZZ_TRACE", trace_path, 1);
	unsetenv("SCHEDFUZZ_RECORD");
	unsetenv("SCHEDFUZZ_RUNS");
	/* Its report is read for two numbers: not worth a symbolizer's
	 * start, which costs this replay five times what the execution does. */
	const char *user = getenv("SCHEDFUZZ_SYMBOLIZER");
	char *kept = user ? strdup(user) : NULL;
	setenv("SCHEDFUZZ_SYMBOLIZER", "none", 1);
	int status = program_run_to(path, prog_argv, output, timeout);
	if (kept)
		setenv("SCHEDFUZZ_SYMBOLIZER", kept, 1);
	else
		unsetenv("SCHEDFUZZ_SYMBOLIZER");
	free(kept);
	unsetenv("SCHEDFUZZ_TRACE");

	struct trace t;
	char err[512] = "";
	bool ok = status >= 0 && !(WIFEXITED(status) && WEXITSTATUS(status) == RUNTIME_SETUP_ERROR);
	if (ok && !read_report(output, o)) {
		ok = trace_load(trace_path, &t, err, sizeof err);
		if (ok) {
			o->steps = t.steps;
			trace_free(&t);
		}
	}
	if (!ok)
		fprintf(stderr, "schedfuzz: the replay of %s on %s did not run to an end%s%s\n", input,
			path, err[0] ? ": " : "", err);
	unlink(output);
	unlink(trace_path);
	free(output);
	free(trace_path);
	return ok;
}

/* gdb, in the foreground: its exit status, or -1. Ctrl-C is gdb's. */
static int run_gdb(char **argv)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "schedfuzz: fork: %s\n", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		execv(argv[0], argv);
		fprintf(stderr, "schedfuzz: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	struct sigaction ignore = { .sa_handler = SIG_IGN }, old_int, old_quit;
	sigaction(SIGINT, &ignore, &old_int);
	sigaction(SIGQUIT, &ignore, &old_quit);
	int status;
	pid_t got;
	while ((got = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
		;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	if (got < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static int debug_with(const struct debug_opts *o, const char *path, const char *gdb,
		      const char *extension, const char *input)
{
	struct outcome done;
	if (!first_replay(path, o->prog_argv, input, o->timeout, &done))
		return SETUP;
	uint64_t last = done.steps;
	bool failed = done.failed;
	const char *kind = done.kind;
	if (!last) {
		fprintf(stderr, "schedfuzz: the replay of %s on %s has no scheduling step\n", o->input,
			path);
		return SETUP;
	}
	uint64_t step = o->step;
	if (step > last) {
		fprintf(stderr, "schedfuzz: --step %llu: the replay of %s on %s has %llu steps\n",
			(unsigned long long)step, o->input, path, (unsigned long long)last);
		return SETUP;
	}
	if (!step && !failed) {
		fprintf(stderr, "schedfuzz: %s does not fail on %s (%llu steps): give the step to "
				"stop at with --step N\n",
			o->input, path, (unsigned long long)last);
		return SETUP;
	}
	if (!step)
		step = last;
	if (failed)
		fprintf(stderr, "schedfuzz: %s fails (%s) after step %llu; gdb stops at the "
				"start of step %llu\n",
			o->input, kind, (unsigned long long)last, (unsigned long long)step);
	else
		fprintf(stderr, "schedfuzz: %s runs %llu steps without failing; gdb stops at the "
				"start of step %llu\n",
			o->input, (unsigned long long)last, (unsigned long long)step);

	char num[24];
	snprintf(num, sizeof num, "%llu", (unsigned long long)step);
	setenv("SCHEDFUZZ_DEBUG_STEP", num, 1);
	snprintf(num, sizeof num, "%llu", (unsigned long long)last);
	setenv("SCHEDFUZZ_DEBUG_LAST", num, 1);
	setenv("SCHEDFUZZ_DEBUG_FAILURE", failed ? kind : "", 1);
	setenv("SCHEDFUZZ_INPUT", input, 1);
	/* A user at the prompt is no hang: no deadline unless asked for. */
	snprintf(num, sizeof num, "%u", o->timeout);
	setenv("SCHEDFUZZ_TIMEOUT", num, 1);
	unsetenv("SCHEDFUZZ_RUNS");
	unsetenv("SCHEDFUZZ_TRACE");
	unsetenv("SCHEDFUZZ_RECORD");
	program_sanitizer_defaults();

	size_t n = 0;
	for (char **a = o->prog_argv; *a; a++)
		n++;
	char **argv = calloc(n + (size_t)o->ngdb_args + 16, sizeof *argv);
	if (!argv)
		return SETUP;
	int k = 0;
	argv[k++] = (char *)gdb;
	argv[k++] = (char *)"-q";
	argv[k++] = (char *)"-x";
	argv[k++] = (char *)extension;
	argv[k++] = (char *)"-ex";
	argv[k++] = (char *)"sf start";
	for (int i = 0; i < o->ngdb_args; i++)
		argv[k++] = o->gdb_args[i];
	argv[k++] = (char *)"--args";
	argv[k++] = (char *)path;
	for (size_t i = 1; i < n; i++)
		argv[k++] = o->prog_argv[i];
	argv[k] = NULL;
	int status = run_gdb(argv);
	free(argv);
	return status < 0 ? SETUP : status;
}

int cmd_debug(int argc, char **argv)
{
	struct debug_opts o;
	if (!parse(argc, argv, &o)) {
		free(o.gdb_args);
		return SETUP;
	}
	int result = SETUP;
	char *path = NULL, *gdb = NULL, *extension = NULL;
	const char *gdb_name = getenv("SCHEDFUZZ_GDB");
	if (!program_input_file(o.input) || !(path = program_check(o.prog_argv)))
		goto out;
	if (!program_has_string(path, "__schedfuzz_step_stop")) {
		fprintf(stderr, "schedfuzz: %s was built with an older schedfuzz-cc, whose runtime "
				"cannot stop at a step: build it again\n", path);
		goto out;
	}
	gdb = program_resolve(gdb_name && *gdb_name ? gdb_name : "gdb");
	if (!gdb) {
		fprintf(stderr, "schedfuzz: gdb not found (install it, or set SCHEDFUZZ_GDB)\n");
		goto out;
	}
	if (!(extension = extension_path()))
		goto out;
	if (portable_is(o.input)) {
		struct portable_replay pr;
		if (!replay_portable_begin(&pr, o.input, path))
			goto out;
		replay_portable_env(&pr, o.input, true);
		result = debug_with(&o, path, gdb, extension, pr.input);
		replay_portable_end(&pr);
	} else {
		result = debug_with(&o, path, gdb, extension, o.input);
	}
out:
	free(path);
	free(gdb);
	free(extension);
	free(o.gdb_args);
	return result;
}
