/* names.c - cached symbolization of sites and variables (names.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "symbolizer.h"

struct entry {
	uint32_t key; /* offset + 1; 0 is empty */
	bool data;
	char *text, *func;
	uint64_t start;
	bool known;
};

struct names {
	struct symbolizer *sym;
	struct entry *e;
	uint32_t cap, used;
};

static void *need(void *p)
{
	if (!p) {
		fprintf(stderr, "schedfuzz: out of memory\n");
		exit(2);
	}
	return p;
}

struct names *names_open(const char *binary, bool *symbolized)
{
	struct names *nm = need(calloc(1, sizeof *nm));
	nm->sym = binary ? symbolizer_open(binary) : NULL;
	nm->cap = 1024;
	nm->e = need(calloc(nm->cap, sizeof *nm->e));
	if (symbolized)
		*symbolized = nm->sym != NULL;
	return nm;
}

void names_close(struct names *nm)
{
	if (!nm)
		return;
	for (uint32_t i = 0; i < nm->cap; i++) {
		free(nm->e[i].text);
		free(nm->e[i].func);
	}
	free(nm->e);
	symbolizer_close(nm->sym);
	free(nm);
}

static struct entry *slot(struct names *nm, uint32_t off, bool data)
{
	for (uint32_t h = (off * 2654435761u) ^ data;; h++) {
		struct entry *e = &nm->e[h & (nm->cap - 1)];
		if (!e->key || (e->key == off + 1 && e->data == data))
			return e;
	}
}

static struct entry *lookup(struct names *nm, uint32_t off, bool data)
{
	struct entry *e = slot(nm, off, data);
	if (e->key)
		return e;
	if (2 * (nm->used + 1) > nm->cap) { /* grow, then find the new slot */
		struct entry *old = nm->e;
		uint32_t n = nm->cap;
		nm->cap *= 2;
		nm->e = need(calloc(nm->cap, sizeof *nm->e));
		for (uint32_t i = 0; i < n; i++)
			if (old[i].key)
				*slot(nm, old[i].key - 1, old[i].data) = old[i];
		free(old);
		e = slot(nm, off, data);
	}
	nm->used++;
	e->key = off + 1;
	e->data = data;
	char a[512], b[512];
	if (data) {
		e->known = nm->sym && symbolizer_data(nm->sym, off, a, sizeof a, &e->start) &&
			   e->start <= off;
		e->text = need(strdup(e->known ? a : ""));
		e->func = need(strdup(""));
	} else if (nm->sym) {
		symbolizer_code(nm->sym, off, a, sizeof a, b, sizeof b);
		e->text = need(strdup(a));
		e->func = need(strdup(b));
	} else {
		snprintf(a, sizeof a, "0x%x", off);
		e->text = need(strdup(a));
		e->func = need(strdup(""));
	}
	return e;
}

const char *names_where(struct names *nm, uint32_t site)
{
	return lookup(nm, site, false)->text;
}

const char *names_func(struct names *nm, uint32_t site)
{
	return lookup(nm, site, false)->func;
}

void names_site(struct names *nm, uint32_t site, char *out, size_t cap)
{
	struct entry *e = lookup(nm, site, false);
	if (e->func[0])
		snprintf(out, cap, "%s (%s)", e->text, e->func);
	else
		snprintf(out, cap, "%s", e->text);
}

void names_var(struct names *nm, char kind, uint32_t a, uint32_t b, char *out, size_t cap)
{
	char s[300];
	switch (kind) {
	case 'g': {
		struct entry *e = lookup(nm, a, true);
		if (!e->known)
			snprintf(out, cap, "global at 0x%x", a);
		else if (a != e->start)
			snprintf(out, cap, "%s+%llu", e->text, (unsigned long long)(a - e->start));
		else
			snprintf(out, cap, "%s", e->text);
		break;
	}
	case 'h':
		names_site(nm, a, s, sizeof s);
		snprintf(out, cap, "heap block from %s, +%u", s, b);
		break;
	default:
		names_site(nm, a, s, sizeof s);
		snprintf(out, cap, "memory first touched at %s", s);
		break;
	}
}
