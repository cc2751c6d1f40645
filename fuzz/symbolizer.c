/* symbolizer.c - llvm-symbolizer as a co-process (symbolizer.h).
 *
 * The co-process starts at the first question, not at open: starting it
 * (loading libLLVM) costs about 20 ms, more than a whole schedule of many
 * programs, and a replay whose shown events carry no site asks nothing. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "program.h"
#include "symbolizer.h"

extern char **environ;

struct symbolizer {
	char *tool, *binary;
	bool started, failed; /* the co-process was spawned / could not be */
	pid_t pid;
	FILE *to, *from;
};

static char *find_tool(void)
{
	const char *env = getenv("SCHEDFUZZ_SYMBOLIZER");
	if (env && *env)
		return program_resolve(env);
	char *t = program_resolve("llvm-symbolizer-14");
	return t ? t : program_resolve("llvm-symbolizer");
}

struct symbolizer *symbolizer_open(const char *binary)
{
	char *tool = find_tool();
	if (!tool)
		return NULL;
	struct symbolizer *s = calloc(1, sizeof *s);
	char *copy = strdup(binary);
	if (!s || !copy) {
		free(s);
		free(copy);
		free(tool);
		return NULL;
	}
	s->tool = tool;
	s->binary = copy;
	return s;
}

/* Spawns the co-process on the first question; false if it cannot run. */
static bool start(struct symbolizer *s)
{
	if (s->started || s->failed)
		return s->started;
	s->failed = true;
	int in[2], out[2];
	if (pipe(in))
		return false;
	if (pipe(out)) {
		close(in[0]);
		close(in[1]);
		return false;
	}
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in[0], 0);
	posix_spawn_file_actions_adddup2(&fa, out[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addclose(&fa, in[1]);
	posix_spawn_file_actions_addclose(&fa, out[0]);
	char *obj;
	if (asprintf(&obj, "--obj=%s", s->binary) < 0)
		obj = NULL;
	char *argv[] = { s->tool, "--inlining=true", "--demangle", obj, NULL };
	int err = !obj || posix_spawn(&s->pid, s->tool, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(in[0]);
	close(out[1]);
	free(obj);
	if (err) {
		close(in[1]);
		close(out[0]);
		return false;
	}
	signal(SIGPIPE, SIG_IGN);
	s->to = fdopen(in[1], "w");
	s->from = fdopen(out[0], "r");
	s->started = true;
	s->failed = false;
	return true;
}

void symbolizer_close(struct symbolizer *s)
{
	if (!s)
		return;
	if (s->started) {
		fclose(s->to);
		fclose(s->from);
		waitpid(s->pid, NULL, 0);
	}
	free(s->tool);
	free(s->binary);
	free(s);
}

/* Ask one question; the answer's first two lines. */
static int ask(struct symbolizer *s, const char *kind, uint64_t addr, char *l1, char *l2, size_t cap)
{
	if (!s || !start(s))
		return 0;
	fprintf(s->to, "%s 0x%llx\n", kind, (unsigned long long)addr);
	fflush(s->to);
	if (!fgets(l1, (int)cap, s->from) || !fgets(l2, (int)cap, s->from))
		return 0;
	char rest[512];
	while (fgets(rest, sizeof rest, s->from) && rest[0] != '\n') /* up to the blank line */
		;
	l1[strcspn(l1, "\n")] = 0;
	l2[strcspn(l2, "\n")] = 0;
	return 1;
}

void symbolizer_code(struct symbolizer *s, uint32_t off, char *where, size_t cap, char *func,
		     size_t fcap)
{
	char l1[512], l2[512];
	snprintf(where, cap, "0x%x", off);
	func[0] = 0;
	/* A return address: the byte before it lies in the call. */
	if (!off || !ask(s, "CODE", off - 1, l1, l2, sizeof l1))
		return;
	if (strcmp(l1, "??") != 0)
		snprintf(func, fcap, "%s", l1);
	if (strncmp(l2, "??", 2) == 0)
		return;
	char *col = strrchr(l2, ':');
	if (col)
		*col = 0; /* drop the column */
	const char *base = strrchr(l2, '/');
	snprintf(where, cap, "%s", base ? base + 1 : l2);
}

int symbolizer_data(struct symbolizer *s, uint32_t off, char *name, size_t cap, uint64_t *start)
{
	char l1[512], l2[512];
	if (!ask(s, "DATA", off, l1, l2, sizeof l1) || strcmp(l1, "??") == 0)
		return 0;
	unsigned long long st = 0, size = 0;
	sscanf(l2, "%llu %llu", &st, &size);
	snprintf(name, cap, "%s", l1);
	*start = st;
	return 1;
}
