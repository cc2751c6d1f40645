/* rt_race_suppress.c - suppressions in ThreadSanitizer's syntax: files of
 * "type:pattern" lines, from SCHEDFUZZ_RACE_SUPPRESSIONS (several, joined
 * by ':') and from TSAN_OPTIONS' suppressions=FILE, so that a project's
 * TSan suppressions work unchanged.
 *
 *   race:PAT             a frame of either access matches (its function,
 *                        file or module)
 *   race_top:PAT         the top frame of either access matches
 *   called_from_lib:LIB  a frame of either access is in library LIB
 *
 * A pattern matches as a substring, with '*' for any run of characters,
 * '^' anchoring it at the start and '$' at the end, as TSan's do. Other
 * types (thread:, mutex:, signal:, deadlock:) are about reports schedfuzz
 * does not make: kept out without a word. Comments start with '#'. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_race.h"

enum kind { RACE, RACE_TOP, FROM_LIB };
#define RULES 256

static struct rule {
	enum kind kind;
	char pattern[120];
	char text[160]; /* as written, for --verbose */
} rules[RULES];
static int nrules;

/* '*' any run, '^' and '$' anchors; else a substring. */
static bool matches_at(const char *p, const char *s, bool anchored_end)
{
	for (; *p && *p != '$'; p++, s++) {
		if (*p == '*') {
			for (const char *t = s;; t++) {
				if (matches_at(p + 1, t, anchored_end))
					return true;
				if (!*t)
					return false;
			}
		}
		if (*s != *p)
			return false;
	}
	return !anchored_end || !*s;
}

bool rt_race_pattern_matches(const char *pattern, const char *s)
{
	if (!s || !*s)
		return false;
	bool end = pattern[0] && pattern[strlen(pattern) - 1] == '$';
	if (pattern[0] == '^')
		return matches_at(pattern + 1, s, end);
	for (const char *t = s; *t; t++)
		if (matches_at(pattern, t, end))
			return true;
	return false;
}

static void load_file(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "schedfuzz: cannot read race suppressions %s\n", path);
		return;
	}
	char line[512];
	while (fgets(line, sizeof line, f) && nrules < RULES) {
		char *s = line + strspn(line, " \t");
		s[strcspn(s, "\r\n")] = 0;
		for (size_t n = strlen(s); n && (s[n - 1] == ' ' || s[n - 1] == '\t'); n--)
			s[n - 1] = 0;
		char *colon = strchr(s, ':');
		if (!*s || *s == '#' || !colon || !colon[1])
			continue;
		*colon = 0;
		enum kind k;
		if (!strcmp(s, "race"))
			k = RACE;
		else if (!strcmp(s, "race_top"))
			k = RACE_TOP;
		else if (!strcmp(s, "called_from_lib"))
			k = FROM_LIB;
		else
			continue;
		struct rule *r = &rules[nrules++];
		r->kind = k;
		snprintf(r->pattern, sizeof r->pattern, "%s", colon + 1);
		snprintf(r->text, sizeof r->text, "%s:%s (%s)", s, colon + 1, path);
	}
	fclose(f);
}

static void load(void)
{
	static bool loaded;
	if (loaded)
		return;
	loaded = true;
	const char *list = rt_env_str("SCHEDFUZZ_RACE_SUPPRESSIONS");
	char buf[4096];
	if (list) {
		snprintf(buf, sizeof buf, "%s", list);
		for (char *save, *p = strtok_r(buf, ":", &save); p; p = strtok_r(NULL, ":", &save))
			load_file(p);
	}
	const char *tsan = rt_env_str("TSAN_OPTIONS");
	const char *at = tsan ? strstr(tsan, "suppressions=") : NULL;
	if (at) {
		at += strlen("suppressions=");
		size_t n = strcspn(at, " :,");
		snprintf(buf, sizeof buf, "%.*s", (int)n, at);
		if (*buf)
			load_file(buf);
	}
}

bool rt_race_suppressions_any(void)
{
	load();
	return nrules > 0;
}

static const char *module_of(uintptr_t pc)
{
	Dl_info info;
	if (!dladdr((void *)pc, &info) || !info.dli_fname)
		return NULL;
	const char *slash = strrchr(info.dli_fname, '/');
	return slash ? slash + 1 : info.dli_fname;
}

static bool frame_matches(const struct rule *r, uintptr_t pc, const struct rt_sym *y)
{
	if (r->kind == FROM_LIB)
		return rt_race_pattern_matches(r->pattern, module_of(pc));
	return rt_race_pattern_matches(r->pattern, y->func) ||
	       rt_race_pattern_matches(r->pattern, y->text) ||
	       rt_race_pattern_matches(r->pattern, module_of(pc));
}

const char *rt_race_suppressed(const uintptr_t *pcs, const struct rt_sym *syms,
			       const int *first, const int *count)
{
	load();
	for (int i = 0; i < nrules; i++) {
		const struct rule *r = &rules[i];
		for (int a = 0; a < 2; a++) {
			int n = r->kind == RACE_TOP ? 1 : count[a];
			for (int k = first[a]; k < first[a] + n; k++)
				if (frame_matches(r, pcs[k], &syms[k]))
					return r->text;
		}
	}
	return NULL;
}
