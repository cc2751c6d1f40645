/* program.c - finding, checking and running the program under test. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "program.h"

int program_option_value(int argc, char **argv, int i)
{
	if (i + 1 >= argc || !strcmp(argv[i + 1], "--")) {
		fprintf(stderr, "schedfuzz: %s needs a value\n", argv[i]);
		exit(SETUP);
	}
	return i + 1;
}

void program_races_default(void)
{
	if (getenv("SCHEDFUZZ_RACES"))
		return;
	setenv("SCHEDFUZZ_RACES", "off", 1);
	setenv("SCHEDFUZZ_RACES_DEFAULT", "1", 1);
}

int program_races_option(int argc, char **argv, int *i)
{
	const char *a = argv[*i], *mode;
	if (!strcmp(a, "--race-json") || !strncmp(a, "--race-json=", 12)) {
		const char *file = a[11] ? a + 12 : argv[*i = program_option_value(argc, argv, *i)];
		setenv("SCHEDFUZZ_RACE_JSON", file, 1);
		return 1;
	}
	if (!strncmp(a, "--races=", 8))
		mode = a + 8;
	else if (!strcmp(a, "--races"))
		mode = argv[*i = program_option_value(argc, argv, *i)];
	else
		return 0;
	if (strcmp(mode, "off") != 0 && strcmp(mode, "report") != 0 && strcmp(mode, "fail") != 0) {
		fprintf(stderr, "schedfuzz: --races takes off, report or fail, not '%s'\n", mode);
		exit(SETUP);
	}
	setenv("SCHEDFUZZ_RACES", mode, 1);
	unsetenv("SCHEDFUZZ_RACES_DEFAULT");
	return 1;
}

bool program_numeric(const char *s)
{
	/* strtoull takes "-5" as 2^64 - 5 and skips leading blanks: a count
	 * of -5 schedules would run forever, so only digits are numbers. */
	if (!*s || *s < '0' || *s > '9')
		return false;
	char *end;
	errno = 0;
	strtoull(s, &end, 0);
	return !*end && !errno;
}

uint64_t program_number(const char *opt, const char *value, uint64_t min, uint64_t max)
{
	if (!program_numeric(value)) {
		fprintf(stderr, "schedfuzz: %s takes a whole number, not '%s'\n", opt, value);
		exit(SETUP);
	}
	uint64_t v = strtoull(value, NULL, 0);
	if (v < min || v > max) {
		fprintf(stderr, "schedfuzz: %s %s is out of range (%" PRIu64 " to %" PRIu64 ")\n", opt,
			value, min, max);
		exit(SETUP);
	}
	return v;
}

/* Why a path that names a file cannot be run, or NULL when it can. */
static const char *not_runnable(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return strerror(errno);
	if (S_ISDIR(st.st_mode))
		return "is a directory";
	if (!S_ISREG(st.st_mode))
		return "is not a regular file";
	if (access(path, X_OK) != 0)
		return "is not executable (chmod +x?)";
	return NULL;
}

char *program_resolve(const char *prog)
{
	if (strchr(prog, '/'))
		return not_runnable(prog) ? NULL : strdup(prog);
	const char *path = getenv("PATH");
	for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
		const char *e = strchr(p, ':');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		char *cand;
		if (asprintf(&cand, "%.*s/%s", (int)len, p, prog) >= 0) {
			if (access(cand, X_OK) == 0)
				return cand;
			free(cand);
		}
		p += len + (e ? 1 : 0);
	}
	return NULL;
}

bool program_has_string(const char *path, const char *text)
{
	int fd = open(path, O_RDONLY);
	struct stat st;
	bool found = false;
	if (fd >= 0 && fstat(fd, &st) == 0 && st.st_size > 0) {
		void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (map != MAP_FAILED) {
			found = memmem(map, (size_t)st.st_size, text, strlen(text)) != NULL;
			munmap(map, (size_t)st.st_size);
		}
	}
	if (fd >= 0)
		close(fd);
	return found;
}

bool program_built_with_schedfuzz(const char *path)
{
	return program_has_string(path, "schedfuzz-runtime-v1");
}

char *program_check(char *const *prog_argv)
{
	char *path = program_resolve(prog_argv[0]);
	if (!path) {
		const char *why = strchr(prog_argv[0], '/') ? not_runnable(prog_argv[0]) : NULL;
		fprintf(stderr, "schedfuzz: %s: %s\n", prog_argv[0],
			why ? why : "no such program (not found in PATH)");
		return NULL;
	}
	if (!program_built_with_schedfuzz(path)) {
		fprintf(stderr, "schedfuzz: %s was not built with schedfuzz-cc (no runtime in it)\n", path);
		free(path);
		return NULL;
	}
	return path;
}

/* UBSan names the kind of each report in its summary line
 * ("shift-exponent", not "undefined-behavior"), which is what a report's
 * title and the explorer's summary say. Ours go first: the sanitizers
 * read options left to right, so whatever the user set wins. */
void program_sanitizer_defaults(void)
{
	const char *user = getenv("UBSAN_OPTIONS");
	char opts[4096];
	snprintf(opts, sizeof opts, "report_error_type=1%s%s", user && *user ? ":" : "",
		 user ? user : "");
	setenv("UBSAN_OPTIONS", opts, 1);
}

/* SIGINT and SIGTERM while the program runs are passed on to it as
 * SIGTERM, and we wait for it: its explorer stops every job, keeps what
 * was found and says so, and nothing of the run is left behind. */
static volatile pid_t running_program;

static void pass_on(int sig)
{
	if (running_program > 0)
		kill(running_program, SIGTERM);
}

int program_run(const char *path, char **prog_argv, bool quiet, unsigned timeout)
{
	return program_run_to(path, prog_argv, quiet ? "/dev/null" : NULL, timeout);
}

int program_run_to(const char *path, char **prog_argv, const char *output, unsigned timeout)
{
	fflush(NULL);
	pid_t self = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "schedfuzz: fork: %s\n", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		/* Killed, we take the program along: its explorer would fork
		 * schedules for nobody (a systematic search stops cleanly on
		 * SIGTERM and keeps its state). */
		if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() != self)
			_exit(127);
		if (output) {
			int out = open(output, O_WRONLY | O_CREAT | O_TRUNC, 0600);
			if (out >= 0) {
				dup2(out, 1);
				dup2(out, 2);
			}
		}
		if (timeout) {
			/* The program's watchdog reports a hang at the timeout,
			 * with its interleaving; the alarm (which survives exec)
			 * ends a run whose watchdog could not. */
			char sec[16];
			snprintf(sec, sizeof sec, "%u", timeout);
			setenv("SCHEDFUZZ_TIMEOUT", sec, 1);
			alarm(timeout + timeout / 8 + 3);
		}
		program_sanitizer_defaults();
		/* The same addresses in every run and replay of the program, as
		 * under a debugger: what depends on where memory lies (a hash
		 * of pointers in the program, or its heap's layout in the
		 * features the guide keeps) is then the same for the same
		 * schedule. Where a seccomp filter refuses it, the runs stay
		 * randomised. */
		int persona = personality(0xffffffff);
		if (persona != -1 && !(persona & ADDR_NO_RANDOMIZE))
			personality((unsigned long)persona | ADDR_NO_RANDOMIZE);
		execv(path, prog_argv);
		fprintf(stderr, "schedfuzz: cannot run %s: %s\n", path, strerror(errno));
		_exit(127);
	}
	struct sigaction sa = { .sa_handler = pass_on }, old_int, old_term;
	sigemptyset(&sa.sa_mask);
	running_program = pid;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	if (old_int.sa_handler == SIG_IGN) /* a background job of a script: it stays so */
		sigaction(SIGINT, &old_int, NULL);
	int status, r;
	while ((r = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
		;
	running_program = 0;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	return r < 0 ? -1 : status;
}

unsigned program_count(const char *opt, const char *value)
{
	return (unsigned)program_number(opt, value, 1, UINT32_MAX);
}

unsigned program_timeout(const char *opt, const char *value)
{
	return (unsigned)program_number(opt, value, 1, PROGRAM_TIMEOUT_MAX);
}

int program_mkdir_p(const char *dir)
{
	char path[4096];
	if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (char *p = path + 1; *p; p++)
		if (*p == '/') {
			*p = 0;
			if (mkdir(path, 0777) != 0 && errno != EEXIST)
				return -1;
			*p = '/';
		}
	return mkdir(path, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

bool program_dir_writable(const char *dir)
{
	char *probe;
	if (asprintf(&probe, "%s/.schedfuzz-write-check-%d", dir, (int)getpid()) < 0)
		return false;
	int fd = open(probe, O_WRONLY | O_CREAT | O_EXCL, 0600);
	int err = errno;
	if (fd >= 0) {
		close(fd);
		unlink(probe);
	}
	free(probe);
	errno = err;
	return fd >= 0;
}

bool program_input_file(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0 || access(path, R_OK) != 0) {
		fprintf(stderr, "schedfuzz: cannot read %s: %s\n", path, strerror(errno));
		return false;
	}
	if (!S_ISREG(st.st_mode)) {
		fprintf(stderr, "schedfuzz: %s is %s, not an input file\n", path,
			S_ISDIR(st.st_mode) ? "a directory" : "not a regular file");
		return false;
	}
	return true;
}

bool program_output_file(const char *opt, const char *path)
{
	struct stat st;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		fprintf(stderr, "schedfuzz: %s %s is a directory, not a file\n", opt, path);
		return false;
	}
	char *dir = strdup(path);
	char *slash = dir ? strrchr(dir, '/') : NULL;
	const char *parent = !slash ? "." : slash == dir ? "/" : (*slash = 0, dir);
	bool ok = dir && program_dir_writable(parent);
	if (!ok)
		fprintf(stderr, "schedfuzz: %s %s: cannot write in %s: %s\n", opt, path,
			dir ? parent : ".", strerror(errno));
	free(dir);
	return ok;
}

bool program_output_dir(const char *opt, const char *dir)
{
	struct stat st;
	if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "schedfuzz: %s %s is not a directory\n", opt, dir);
		return false;
	}
	if (program_mkdir_p(dir) != 0) {
		fprintf(stderr, "schedfuzz: cannot create %s: %s\n", dir, strerror(errno));
		return false;
	}
	if (!program_dir_writable(dir)) {
		fprintf(stderr, "schedfuzz: cannot write in %s: %s\n", dir, strerror(errno));
		return false;
	}
	return true;
}

int program_write_file(const char *path, const void *data, size_t size)
{
	char *tmp;
	if (asprintf(&tmp, "%s.tmp-%d", path, (int)getpid()) < 0)
		return -1;
	FILE *f = fopen(tmp, "wb");
	bool ok = f && fwrite(data, 1, size, f) == size;
	if (f && fclose(f) != 0)
		ok = false;
	ok = ok && rename(tmp, path) == 0;
	int err = errno;
	if (!ok && f)
		unlink(tmp);
	free(tmp);
	errno = err;
	return ok ? 0 : -1;
}
