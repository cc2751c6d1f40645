/* cc_args.c - response files expanded as clang's driver expands them, so
 * that schedfuzz-cc classifies the command clang will see. The command
 * that runs keeps its @FILE words: clang reads the files itself. */
#define _GNU_SOURCE
#include "cc_args.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* clang gives up expanding past this depth as well (a file naming itself
 * is kept as a word, below). */
enum { MAX_DEPTH = 64 };

static char *read_whole(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t n = 0, cap = 4096;
	char *buf = malloc(cap);
	for (size_t got; buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0;) {
		n += got;
		if (cap - n < 2)
			buf = realloc(buf, cap *= 2);
	}
	if (!buf)
		exit(1);
	if (ferror(f)) { /* a directory, say: clang keeps the word */
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	buf[n] = 0;
	return buf;
}

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'; }

/* LLVM's TokenizeGNUCommandLine: whitespace separates words, a backslash
 * takes the next character as it is, quotes (' or ") group, with
 * backslash escapes inside them too. */
static void tokenize(const char *s, struct cc_words *out)
{
	size_t len = strlen(s), n = 0;
	char *tok = malloc(len + 1);
	if (!tok)
		exit(1);
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (c == '\\' && i + 1 < len) {
			tok[n++] = s[++i];
		} else if (c == '\'' || c == '"') {
			for (i++; i < len && s[i] != c; i++) {
				if (s[i] == '\\' && i + 1 < len)
					i++;
				tok[n++] = s[i];
			}
		} else if (is_space(c)) {
			if (n) {
				cc_words_add(out, strndup(tok, n));
				n = 0;
			}
		} else {
			tok[n++] = c;
		}
	}
	if (n)
		cc_words_add(out, strndup(tok, n));
	free(tok);
}

/* The files being expanded, outermost first: a file met again inside
 * itself stays a word. */
struct stack {
	char *real[MAX_DEPTH];
	int depth;
};

static void expand(const char *word, struct stack *st, struct cc_words *out)
{
	if (word[0] != '@' || st->depth == MAX_DEPTH) {
		cc_words_add(out, word);
		return;
	}
	const char *path = word + 1;
	char *real = realpath(path, NULL), *text = real ? read_whole(path) : NULL;
	for (int i = 0; text && i < st->depth; i++)
		if (!strcmp(st->real[i], real)) {
			free(text);
			text = NULL;
		}
	if (!text) {
		cc_words_add(out, word);
		free(real);
		return;
	}
	/* A UTF-8 byte order mark is not part of the first word. */
	const char *body = strncmp(text, "\xEF\xBB\xBF", 3) ? text : text + 3;
	struct cc_words inner = { 0 };
	tokenize(body, &inner);
	st->real[st->depth++] = real;
	for (int i = 0; i < inner.n; i++)
		expand(inner.v[i], st, out);
	st->depth--;
	free(inner.v);
	free(text);
	free(real);
}

void cc_expand_response_files(int argc, char **argv, struct cc_words *out)
{
	struct stack st = { .depth = 0 };
	cc_words_add(out, argv[0]);
	for (int i = 1; i < argc; i++)
		expand(argv[i], &st, out);
}

/* Is this linker word (as ld reads it, with the word after it) one that
 * makes undefined symbols an error: --no-undefined, -z defs, -zdefs? */
static bool ld_forbids_undefined(const char *w, const char *next)
{
	return !strcmp(w, "--no-undefined") || !strcmp(w, "-no-undefined") ||
	       !strcmp(w, "-zdefs") || (!strcmp(w, "-z") && next && !strcmp(next, "defs"));
}

bool cc_forbids_undefined(const struct cc_words *seen)
{
	for (int i = 1; i < seen->n; i++) {
		const char *a = seen->v[i], *next = i + 1 < seen->n ? seen->v[i + 1] : NULL;
		if (!strncmp(a, "-Wl,", 4)) {
			/* -Wl,A,B,C: the words A, B, C */
			char *copy = strdup(a + 4), *save = NULL;
			bool forbids = false;
			char *w = strtok_r(copy, ",", &save);
			while (w && !forbids) {
				char *after = strtok_r(NULL, ",", &save);
				forbids = ld_forbids_undefined(w, after);
				w = after;
			}
			free(copy);
			if (forbids)
				return true;
		} else if (!strcmp(a, "-Xlinker") && next) {
			const char *after = i + 3 < seen->n && !strcmp(seen->v[i + 2], "-Xlinker") ?
						    seen->v[i + 3] : NULL;
			if (ld_forbids_undefined(next, after))
				return true;
		} else if (ld_forbids_undefined(a, next)) {
			return true; /* clang passes -z defs through */
		}
	}
	return false;
}
