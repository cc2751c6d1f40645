/* line_table.c - a binary's DWARF line table: which source line each code
 * address belongs to, and back, which addresses a source line became.
 *
 * Read from `llvm-dwarfdump --debug-line` (SCHEDFUZZ_DWARFDUMP names
 * another), which prints each compile unit's file table and then its rows:
 * a row's address starts a range of that row's file and line, up to the
 * next row of the sequence. This is the innermost location of inlined
 * code, as a symbolizer's first frame is, and it is what a build with
 * -gline-tables-only still has. Line 0 (code of no line, which clang
 * gives to some instructions of ordinary loops) is taken as the nearest
 * earlier line of its sequence, the statement the compiler made it for:
 * so a scheduling point there has a line to be anchored to, and the
 * other build's line-0 code after that line is part of it too. Line 0 at
 * the start of a sequence is left out. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "line_table.h"
#include "program.h"

struct lt_row {
	uint64_t lo, hi;
	uint32_t file; /* into files */
	uint32_t line;
};

struct line_table {
	struct lt_row *rows; /* sorted by lo, disjoint */
	size_t nrows, rcap;
	char **files;
	size_t nfiles, fcap;
};

static uint32_t intern_file(struct line_table *lt, const char *path)
{
	for (size_t i = lt->nfiles; i-- > 0;)
		if (!strcmp(lt->files[i], path))
			return (uint32_t)i;
	if (lt->nfiles == lt->fcap) {
		lt->fcap = lt->fcap ? lt->fcap * 2 : 64;
		lt->files = realloc(lt->files, lt->fcap * sizeof *lt->files);
		if (!lt->files)
			abort();
	}
	lt->files[lt->nfiles] = strdup(path);
	return (uint32_t)lt->nfiles++;
}

static void add_row(struct line_table *lt, uint64_t lo, uint64_t hi, uint32_t file, uint32_t line)
{
	if (!line || hi <= lo)
		return;
	if (lt->nrows == lt->rcap) {
		lt->rcap = lt->rcap ? lt->rcap * 2 : 4096;
		lt->rows = realloc(lt->rows, lt->rcap * sizeof *lt->rows);
		if (!lt->rows)
			abort();
	}
	lt->rows[lt->nrows++] = (struct lt_row){ lo, hi, file, line };
}

static int by_lo(const void *a, const void *b)
{
	const struct lt_row *x = a, *y = b;
	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* The quoted string of a `key = "value"` or `name: "value"` line. */
static bool quoted(const char *line, char *out, size_t cap)
{
	const char *a = strchr(line, '"'), *b = a ? strrchr(line, '"') : NULL;
	if (!a || b == a || (size_t)(b - a - 1) >= cap)
		return false;
	memcpy(out, a + 1, (size_t)(b - a - 1));
	out[b - a - 1] = 0;
	return true;
}

enum { MAX_UNIT_ENTRIES = 4096 };

struct unit {
	char *dirs[MAX_UNIT_ENTRIES];
	uint32_t file_of[MAX_UNIT_ENTRIES]; /* entry index -> interned file, or UINT32_MAX */
	char pending_name[4096];
	int pending_file; /* the file_names entry being read */
};

static void unit_reset(struct unit *u)
{
	for (int i = 0; i < MAX_UNIT_ENTRIES; i++) {
		free(u->dirs[i]);
		u->dirs[i] = NULL;
		u->file_of[i] = UINT32_MAX;
	}
	u->pending_file = -1;
}

/* A file_names entry is complete once its dir_index is known. */
static void unit_file(struct line_table *lt, struct unit *u, unsigned dir)
{
	if (u->pending_file < 0 || u->pending_file >= MAX_UNIT_ENTRIES)
		return;
	char path[8192];
	if (u->pending_name[0] == '/' || dir >= MAX_UNIT_ENTRIES || !u->dirs[dir])
		snprintf(path, sizeof path, "%s", u->pending_name);
	else
		snprintf(path, sizeof path, "%s/%s", u->dirs[dir], u->pending_name);
	u->file_of[u->pending_file] = intern_file(lt, path);
	u->pending_file = -1;
}

struct line_table *lt_load(const char *binary, char *err, size_t cap)
{
	const char *tool_env = getenv("SCHEDFUZZ_DWARFDUMP");
	char *tool = tool_env && *tool_env ? strdup(tool_env) : program_resolve("llvm-dwarfdump-14");
	if (!tool)
		tool = program_resolve("llvm-dwarfdump");
	if (!tool) {
		snprintf(err, cap, "no llvm-dwarfdump found (install llvm, or set SCHEDFUZZ_DWARFDUMP) "
				   "to read the line table of %s", binary);
		return NULL;
	}
	int pipefd[2];
	if (pipe(pipefd) != 0) {
		snprintf(err, cap, "pipe: %s", strerror(errno));
		free(tool);
		return NULL;
	}
	pid_t pid = fork();
	if (pid == 0) {
		dup2(pipefd[1], 1);
		close(pipefd[0]);
		close(pipefd[1]);
		execl(tool, tool, "--debug-line", binary, (char *)NULL);
		_exit(127);
	}
	close(pipefd[1]);
	free(tool);
	FILE *f = pid > 0 ? fdopen(pipefd[0], "r") : NULL;
	if (!f) {
		snprintf(err, cap, "cannot run llvm-dwarfdump: %s", strerror(errno));
		close(pipefd[0]);
		return NULL;
	}

	struct line_table *lt = calloc(1, sizeof *lt);
	struct unit *u = calloc(1, sizeof *u);
	if (!lt || !u)
		abort();
	unit_reset(u);
	char *line = NULL;
	size_t len = 0;
	bool have_prev = false;
	uint64_t prev_addr = 0;
	uint32_t prev_file = 0, prev_line = 0;
	uint32_t seq_file = 0, seq_line = 0; /* the sequence's last row with a line */
	while (getline(&line, &len, f) > 0) {
		unsigned idx, dir, ln, col, fidx;
		unsigned long long addr;
		char text[4096];
		if (!strncmp(line, "debug_line[", 11)) {
			unit_reset(u);
			have_prev = false;
		} else if (sscanf(line, "include_directories[%u] =", &idx) == 1 && quoted(line, text, sizeof text)) {
			if (idx < MAX_UNIT_ENTRIES) {
				free(u->dirs[idx]);
				u->dirs[idx] = strdup(text);
			}
		} else if (sscanf(line, "file_names[%u]:", &idx) == 1) {
			u->pending_file = (int)idx;
			u->pending_name[0] = 0;
		} else if (strstr(line, " name: ") && u->pending_file >= 0) {
			quoted(line, u->pending_name, sizeof u->pending_name);
		} else if (sscanf(line, " dir_index: %u", &dir) == 1) {
			unit_file(lt, u, dir);
		} else if (sscanf(line, "0x%llx %u %u %u", &addr, &ln, &col, &fidx) == 4) {
			if (have_prev)
				add_row(lt, prev_addr, addr, prev_file, prev_line);
			else
				seq_line = 0; /* a new sequence */
			have_prev = !strstr(line, "end_sequence");
			prev_addr = addr;
			prev_line = ln;
			prev_file = fidx < MAX_UNIT_ENTRIES && u->file_of[fidx] != UINT32_MAX
					    ? u->file_of[fidx]
					    : intern_file(lt, "?");
			if (ln) {
				seq_line = ln;
				seq_file = prev_file;
			} else {
				prev_line = seq_line;
				prev_file = seq_file;
			}
		}
	}
	free(line);
	fclose(f);
	unit_reset(u);
	free(u);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0) && lt->nrows == 0) {
		snprintf(err, cap, "llvm-dwarfdump could not read %s", binary);
		lt_free(lt);
		return NULL;
	}
	if (lt->nrows == 0) {
		snprintf(err, cap, "%s has no line table (built without -g or "
				   "-gline-tables-only): its scheduling points have no source lines",
			 binary);
		lt_free(lt);
		return NULL;
	}
	qsort(lt->rows, lt->nrows, sizeof *lt->rows, by_lo);
	return lt;
}

void lt_free(struct line_table *lt)
{
	if (!lt)
		return;
	for (size_t i = 0; i < lt->nfiles; i++)
		free(lt->files[i]);
	free(lt->files);
	free(lt->rows);
	free(lt);
}

bool lt_lookup(const struct line_table *lt, uint64_t addr, const char **file, uint32_t *line)
{
	size_t lo = 0, hi = lt->nrows;
	while (lo < hi) { /* the last row starting at or before addr */
		size_t mid = (lo + hi) / 2;
		if (lt->rows[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || addr >= lt->rows[lo - 1].hi)
		return false;
	*file = lt->files[lt->rows[lo - 1].file];
	*line = lt->rows[lo - 1].line;
	return true;
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

/* How many trailing path components a and b share. */
static int common_tail(const char *a, const char *b)
{
	size_t i = strlen(a), j = strlen(b);
	int parts = 0;
	while (i > 0 && j > 0 && a[i - 1] == b[j - 1]) {
		i--, j--;
		if (a[i] == '/')
			parts++;
	}
	if ((i == 0 || a[i - 1] == '/') && (j == 0 || b[j - 1] == '/'))
		parts++;
	return parts;
}

size_t lt_ranges(const struct line_table *lt, const char *file, uint32_t line, uint64_t (*out)[2],
		 size_t cap)
{
	/* The same source may have been built from another directory: the
	 * files of that name whose path has the longest tail in common. */
	int best = 0;
	for (size_t i = 0; i < lt->nfiles; i++)
		if (!strcmp(base_name(lt->files[i]), base_name(file))) {
			int t = common_tail(lt->files[i], file);
			if (t > best)
				best = t;
		}
	size_t n = 0;
	for (size_t r = 0; best > 0 && r < lt->nrows; r++) {
		const struct lt_row *row = &lt->rows[r];
		if (row->line != line || common_tail(lt->files[row->file], file) != best)
			continue;
		if (n > 0 && n <= cap && out[n - 1][1] == row->lo) {
			out[n - 1][1] = row->hi; /* adjacent rows of the line: one range */
			continue;
		}
		if (n < cap) {
			out[n][0] = row->lo;
			out[n][1] = row->hi;
		}
		n++;
	}
	return n;
}

bool lt_knows_file(const struct line_table *lt, const char *file)
{
	for (size_t i = 0; i < lt->nfiles; i++)
		if (!strcmp(base_name(lt->files[i]), base_name(file)))
			return true;
	return false;
}
