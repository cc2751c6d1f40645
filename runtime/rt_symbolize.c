/* rt_symbolize.c - turns code and data addresses into file:line and names,
 * with one llvm-symbolizer process per report.
 *
 * Addresses are sent as module + offset, so PIE and shared libraries work.
 * Code addresses are return addresses: we ask for the byte before, which
 * lies in the call instruction. Without a symbolizer, dladdr gives what
 * the dynamic symbol table knows, and a one-line note says why. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rt_internal.h"

extern char **environ;

static bool module_of(uintptr_t addr, char *path, size_t cap, uintptr_t *off)
{
	Dl_info info;
	struct link_map *lm = NULL;
	if (!dladdr1((void *)addr, &info, (void **)&lm, RTLD_DL_LINKMAP) || !lm)
		return false;
	if (lm->l_name && lm->l_name[0]) {
		snprintf(path, cap, "%s", lm->l_name);
	} else {
		ssize_t n = readlink("/proc/self/exe", path, cap - 1);
		if (n <= 0)
			return false;
		path[n] = 0;
	}
	*off = addr - lm->l_addr;
	return true;
}

static const char *find_symbolizer(void)
{
	static const char *const names[] = { "llvm-symbolizer-14", "llvm-symbolizer" };
	const char *env = getenv("SCHEDFUZZ_SYMBOLIZER");
	if (env && *env)
		return env;
	const char *path = getenv("PATH");
	if (!path)
		path = "/usr/bin:/bin";
	static char buf[4096];
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		for (const char *p = path; *p;) {
			const char *e = strchr(p, ':');
			size_t len = e ? (size_t)(e - p) : strlen(p);
			snprintf(buf, sizeof buf, "%.*s/%s", (int)len, p, names[i]);
			if (access(buf, X_OK) == 0)
				return buf;
			p += len + (e ? 1 : 0);
		}
	}
	return NULL;
}

static const char *basename_of(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

/* Fill out[] from the symbolizer's answers; false if it could not run. */
static bool run_symbolizer(const char *tool, const char *queries, size_t qlen, const bool *is_data,
			   struct rt_sym *out, int n)
{
	int in[2], res[2];
	if (pipe(in) || pipe(res))
		return false;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in[0], 0);
	posix_spawn_file_actions_adddup2(&fa, res[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addclose(&fa, in[1]);
	posix_spawn_file_actions_addclose(&fa, res[0]);
	char *argv[] = { (char *)tool, "--inlining=false", "--demangle", NULL };
	pid_t pid;
	int err = posix_spawn(&pid, tool, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(in[0]);
	close(res[1]);
	if (err) {
		close(in[1]);
		close(res[0]);
		return false;
	}
	/* Queries are a few kilobytes: they fit the pipe before any reply. */
	for (size_t done = 0; done < qlen;) {
		ssize_t w = write(in[1], queries + done, qlen - done);
		if (w <= 0)
			break;
		done += (size_t)w;
	}
	close(in[1]);
	FILE *f = fdopen(res[0], "r");
	char line[512], line2[512];
	for (int i = 0; f && i < n; i++) {
		if (!fgets(line, sizeof line, f) || !fgets(line2, sizeof line2, f))
			break;
		line[strcspn(line, "\n")] = 0;
		line2[strcspn(line2, "\n")] = 0;
		if (is_data[i]) {
			/* "name" then "start size" */
			unsigned long start = 0, size = 0;
			sscanf(line2, "%lu %lu", &start, &size);
			if (strcmp(line, "??") != 0)
				snprintf(out[i].text, sizeof out[i].text, "%s", line);
			out[i].start = start;
		} else if (strcmp(line2, "??:0:0") != 0 && strncmp(line2, "??", 2) != 0) {
			/* "function" then "file:line:column" */
			char *col = strrchr(line2, ':');
			if (col)
				*col = 0;
			snprintf(out[i].text, sizeof out[i].text, "%s", basename_of(line2));
			snprintf(out[i].func, sizeof out[i].func, "%s", line);
		} else if (strcmp(line, "??") != 0) {
			snprintf(out[i].func, sizeof out[i].func, "%s", line);
		}
		while (fgets(line, sizeof line, f) && line[0] != '\n') /* the blank separator */
			;
	}
	if (f)
		fclose(f);
	waitpid(pid, NULL, 0);
	return true;
}

void rt_symbolize(const uintptr_t *addrs, const bool *is_data, struct rt_sym *out, int n)
{
	size_t cap = (size_t)n * 4200 + 1, len = 0;
	char *q = malloc(cap);
	uintptr_t *offs = calloc((size_t)n + 1, sizeof *offs);
	for (int i = 0; i < n; i++) {
		out[i].text[0] = out[i].func[0] = 0;
		out[i].start = 0;
		out[i].offset = 0;
	}
	if (!q || !offs) {
		free(q);
		free(offs);
		return;
	}
	for (int i = 0; i < n; i++) {
		char path[4096];
		uintptr_t off = 0, a = addrs[i] - (is_data[i] || !addrs[i] ? 0 : 1);
		if (!addrs[i] || !module_of(a, path, sizeof path, &off))
			snprintf(path, sizeof path, "/nonexistent");
		offs[i] = off;
		len += (size_t)snprintf(q + len, cap - len, "%s %s 0x%lx\n",
					is_data[i] ? "DATA" : "CODE", path, (unsigned long)off);
	}
	static bool warned;
	const char *tool = find_symbolizer();
	if (!tool || !run_symbolizer(tool, q, len, is_data, out, n)) {
		if (!warned)
			fprintf(stderr, "schedfuzz: note: llvm-symbolizer not found (set "
					"SCHEDFUZZ_SYMBOLIZER); sites are shown without file:line\n");
		warned = true;
		for (int i = 0; i < n; i++) {
			Dl_info info;
			if (addrs[i] && dladdr((void *)addrs[i], &info) && info.dli_sname)
				snprintf(is_data[i] ? out[i].text : out[i].func, sizeof out[i].text,
					 "%s", info.dli_sname);
		}
	}
	for (int i = 0; i < n; i++)
		out[i].offset = is_data[i] && out[i].text[0] ? offs[i] - out[i].start : 0;
	free(q);
	free(offs);
}
