/* cov_collect.c - merging coverage dumps into the corpus's union
 * (cov_collect.h). The dump is line-oriented text:
 *
 *   exec INPUT
 *   hapset HASH SITE NCTX CTX... SITE NCTX CTX...     predecessor, statement
 *   map HASH PATTERN NSTEPS SITE... NVARS VAR...
 *   site R|W SITE VAR
 *   end
 *
 * with VAR one of g:OFF, h:SITE+OFF, m:SITE and numbers in hex (counts in
 * decimal). A block without its "end" (the program died while writing) is
 * dropped whole. */
#include <stdlib.h>
#include <string.h>

#include "cov_collect.h"
#include "cov_hash.h"

/* ---- a u64 -> u32 hash index -------------------------------------------------- */

static bool index_grow(struct cc_index *ix)
{
	uint32_t cap = ix->cap ? ix->cap * 2 : 1024;
	uint64_t *keys = calloc(cap, sizeof *keys);
	uint32_t *vals = calloc(cap, sizeof *vals);
	if (!keys || !vals) {
		free(keys);
		free(vals);
		return false;
	}
	for (uint32_t i = 0; i < ix->cap; i++) {
		if (!ix->vals[i])
			continue;
		uint32_t j = (uint32_t)ix->keys[i] & (cap - 1);
		while (vals[j])
			j = (j + 1) & (cap - 1);
		keys[j] = ix->keys[i];
		vals[j] = ix->vals[i];
	}
	free(ix->keys);
	free(ix->vals);
	ix->keys = keys;
	ix->vals = vals;
	ix->cap = cap;
	return true;
}

/* The value stored for key (1-based), or 0; with add, store add if absent. */
static uint32_t index_get(struct cc_index *ix, uint64_t key, uint32_t add)
{
	if ((ix->used + 1) * 2 > ix->cap && !index_grow(ix))
		return 0;
	uint32_t j = (uint32_t)key & (ix->cap - 1);
	while (ix->vals[j]) {
		if (ix->keys[j] == key)
			return ix->vals[j];
		j = (j + 1) & (ix->cap - 1);
	}
	if (add) {
		ix->keys[j] = key;
		ix->vals[j] = add;
		ix->used++;
	}
	return 0;
}

static bool grow(void **p, uint32_t *cap, size_t elem)
{
	uint32_t n = *cap ? *cap * 2 : 64;
	void *q = realloc(*p, n * elem);
	if (!q)
		return false;
	*p = q;
	*cap = n;
	return true;
}

/* ---- parsing ------------------------------------------------------------------ */

static int var_index(struct cc_corpus *c, const char *text)
{
	struct cc_var v = { 0 };
	unsigned a = 0, b = 0;
	if (sscanf(text, "h:%x+%u", &a, &b) == 2)
		v.kind = 'h';
	else if (sscanf(text, "g:%x", &a) == 1)
		v.kind = 'g';
	else if (sscanf(text, "m:%x", &a) == 1)
		v.kind = 'm';
	else
		return -1;
	v.a = a;
	v.b = b;
	uint64_t key = cov_hash64(&v, sizeof v, 0);
	uint32_t found = index_get(&c->vidx, key, c->nvars + 1);
	if (found)
		return (int)found - 1;
	if (c->nvars == c->vars_cap && !grow((void **)&c->vars, &c->vars_cap, sizeof *c->vars))
		return -1;
	c->vars[c->nvars] = v;
	return (int)c->nvars++;
}

/* Words of a line, split in place. */
static int split(char *line, char **w, int max)
{
	int n = 0;
	for (char *save = NULL, *t = strtok_r(line, " \n", &save); t && n < max;
	     t = strtok_r(NULL, " \n", &save))
		w[n++] = t;
	return n;
}

static uint32_t hex(const char *s)
{
	return (uint32_t)strtoul(s, NULL, 16);
}

static void add_feature(struct cc_corpus *c, struct cc_feature *f)
{
	if (index_get(&c->fidx, f->hash, c->nfeatures + 1))
		return; /* covered before */
	if (c->nfeatures == c->features_cap &&
	    !grow((void **)&c->features, &c->features_cap, sizeof *c->features))
		return;
	c->features[c->nfeatures++] = *f;
	if (f->kind == COV_HAPSET) {
		c->hapset_pairs++;
	} else {
		c->map_covered++;
		if (f->var[0] >= 0)
			c->vars[f->var[0]].covered[f->pattern]++;
	}
}

static bool parse_hapset(char **w, int n, struct cc_feature *f)
{
	int k = 2;
	f->kind = COV_HAPSET;
	f->nsteps = 2;
	for (int s = 0; s < 2; s++) {
		if (k + 2 > n)
			return false;
		f->site[s] = hex(w[k++]);
		f->nctx[s] = (uint8_t)atoi(w[k++]);
		if (f->nctx[s] > COV_CTX_MAX || k + f->nctx[s] > n)
			return false;
		for (int i = 0; i < f->nctx[s]; i++)
			f->ctx[s][i] = hex(w[k++]);
	}
	return true;
}

static bool parse_map(struct cc_corpus *c, char **w, int n, struct cc_feature *f)
{
	if (n < 5)
		return false;
	f->kind = COV_MAP;
	f->pattern = (uint8_t)atoi(w[2]);
	f->nsteps = (uint8_t)atoi(w[3]);
	if (f->pattern < 1 || f->pattern > COV_MAP_PATTERNS || f->nsteps > COV_MAX_STEPS ||
	    4 + f->nsteps + 1 > n)
		return false;
	for (int s = 0; s < f->nsteps; s++)
		f->site[s] = hex(w[4 + s]);
	f->nvars = (uint8_t)atoi(w[4 + f->nsteps]);
	if (f->nvars > 2 || 5 + f->nsteps + f->nvars > n)
		return false;
	f->var[0] = f->var[1] = -1;
	for (int v = 0; v < f->nvars; v++)
		f->var[v] = var_index(c, w[5 + f->nsteps + v]);
	return true;
}

static void add_site(struct cc_corpus *c, char **w, int n)
{
	if (n < 4)
		return;
	int v = var_index(c, w[3]);
	if (v < 0)
		return;
	bool write = w[1][0] == 'W';
	uint64_t key = (uint64_t)v << 33 | (uint64_t)write << 32 | hex(w[2]);
	if (index_get(&c->sidx, key ^ 0x5be0cd19137e2179ull, 1))
		return;
	if (write)
		c->vars[v].writes++;
	else
		c->vars[v].reads++;
}

void cc_merge_dump(struct cc_corpus *c, FILE *dump)
{
	/* Lines of one block are kept until its "end" arrives. */
	char **block = NULL;
	uint32_t nblock = 0, cap = 0;
	char line[4096];
	bool open = false;
	while (fgets(line, sizeof line, dump)) {
		if (!strncmp(line, "exec ", 5)) {
			for (uint32_t i = 0; i < nblock; i++)
				free(block[i]);
			nblock = 0;
			open = true;
			continue;
		}
		if (!open)
			continue;
		if (strcmp(line, "end\n") != 0) {
			if (nblock == cap && !grow((void **)&block, &cap, sizeof *block))
				break;
			block[nblock++] = strdup(line);
			continue;
		}
		c->executions++;
		for (uint32_t i = 0; i < nblock; i++) {
			char *w[64];
			int n = split(block[i], w, 64);
			struct cc_feature f = { 0 };
			if (n >= 2 && !strcmp(w[0], "site"))
				add_site(c, w, n);
			else if (n >= 2 && !strcmp(w[0], "hapset") && parse_hapset(w, n, &f))
				f.hash = strtoull(w[1], NULL, 16), add_feature(c, &f);
			else if (n >= 2 && !strcmp(w[0], "map") && parse_map(c, w, n, &f))
				f.hash = strtoull(w[1], NULL, 16), add_feature(c, &f);
			free(block[i]);
		}
		nblock = 0;
		open = false;
	}
	for (uint32_t i = 0; i < nblock; i++)
		free(block[i]);
	free(block);
}

/* ---- totals ------------------------------------------------------------------- */

double cc_map_total(const struct cc_corpus *c, double by_pattern[COV_MAP_PATTERNS + 1])
{
	struct cov_var_sites *v = calloc(c->nvars ? c->nvars : 1, sizeof *v);
	if (!v)
		return 0;
	for (uint32_t i = 0; i < c->nvars; i++)
		v[i] = (struct cov_var_sites){ c->vars[i].reads, c->vars[i].writes };
	double by[COV_MAP_PATTERNS + 1], total = 0;
	cov_map_total_by_pattern(v, c->nvars, by);
	for (int p = 1; p <= COV_MAP_PATTERNS; p++)
		total += by[p];
	if (by_pattern)
		memcpy(by_pattern, by, sizeof by);
	free(v);
	return total;
}

double cc_var_total(const struct cc_corpus *c, uint32_t x)
{
	struct cov_var_sites one = { c->vars[x].reads, c->vars[x].writes };
	double by[COV_MAP_PATTERNS + 1], total = 0;
	cov_map_total_by_pattern(&one, 1, by);
	for (int p = 1; p <= 8; p++)
		total += by[p];
	/* Pairs (x, y) for every y != x: 3 |Iw(x)|^2 |Iw(y)|^2 + 6 (|Iw||Ir|)(x) (|Iw||Ir|)(y). */
	double wx = one.writes, rx = one.reads, sum_w2 = 0, sum_wr = 0;
	for (uint32_t y = 0; y < c->nvars; y++) {
		if (y == x)
			continue;
		double wy = c->vars[y].writes, ry = c->vars[y].reads;
		sum_w2 += wy * wy;
		sum_wr += wy * ry;
	}
	return total + 3 * wx * wx * sum_w2 + 6 * wx * rx * sum_wr;
}

void cc_note_growth(struct cc_corpus *c)
{
	if (c->ngrowth == c->growth_cap && !grow((void **)&c->growth, &c->growth_cap, sizeof *c->growth))
		return;
	c->growth[c->ngrowth++] = (struct cc_growth){ c->inputs, c->hapset_pairs, c->map_covered,
						      cc_map_total(c, NULL) };
}

void cc_free(struct cc_corpus *c)
{
	free(c->features);
	free(c->vars);
	free(c->growth);
	struct cc_index *ix[] = { &c->fidx, &c->vidx, &c->sidx };
	for (int i = 0; i < 3; i++) {
		free(ix[i]->keys);
		free(ix[i]->vals);
	}
	memset(c, 0, sizeof *c);
}
