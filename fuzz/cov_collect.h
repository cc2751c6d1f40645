/* cov_collect.h - the union of what a corpus covers: features and the
 * sites that read and write each variable, merged from the runtime's dump
 * (runtime/rt_cov.c, SCHEDFUZZ_COV_DUMP) over every replayed input. */
#ifndef SCHEDFUZZ_COV_COLLECT_H
#define SCHEDFUZZ_COV_COLLECT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cov.h"

/* A variable, named as the runtime names it (rt_cov.c, struct var_id). */
struct cc_var {
	char kind; /* 'g' global, 'h' heap field, 'm' other memory */
	uint32_t a, b;
	uint32_t reads, writes; /* distinct sites */
	uint32_t covered[COV_MAP_PATTERNS + 1]; /* instances with this variable as x */
};

struct cc_feature {
	uint64_t hash;
	uint8_t kind, pattern, nsteps, nvars;
	uint32_t site[COV_MAX_STEPS];
	uint8_t nctx[2];
	uint32_t ctx[2][COV_CTX_MAX];
	int32_t var[2]; /* MAP: indexes into vars */
};

struct cc_growth {
	uint32_t inputs;
	uint32_t hapset_pairs, map_covered;
	double map_total;
};

struct cc_corpus {
	uint32_t inputs, executions, failures;
	struct cc_feature *features;
	uint32_t nfeatures, features_cap;
	uint32_t hapset_pairs, map_covered;
	struct cc_var *vars;
	uint32_t nvars, vars_cap;
	struct cc_growth *growth;
	uint32_t ngrowth, growth_cap;
	/* Private: hash indexes of features, variables and (variable, site, access). */
	struct cc_index { uint64_t *keys; uint32_t *vals; uint32_t cap, used; } fidx, vidx, sidx;
};

/* Merge one dump file (complete "exec ... end" blocks only). */
void cc_merge_dump(struct cc_corpus *c, FILE *dump);
/* TC from the variables' site counts, and per pattern. */
double cc_map_total(const struct cc_corpus *c, double by_pattern[COV_MAP_PATTERNS + 1]);
/* TC of the patterns whose x is variable v. */
double cc_var_total(const struct cc_corpus *c, uint32_t v);
/* Note the totals after the inputs so far. */
void cc_note_growth(struct cc_corpus *c);
void cc_free(struct cc_corpus *c);

#endif
