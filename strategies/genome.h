/* genome.h - the schedule genome: the fuzzer's bytes decoded into a plan.
 * The format is documented at the top of genome.c. */
#ifndef SCHEDFUZZ_GENOME_H
#define SCHEDFUZZ_GENOME_H

#include <stddef.h>
#include <stdint.h>

#define SF_GENOME_VERSION 1
#define SF_GENOME_HEADER 32    /* bytes of the fixed header */
#define SF_DECISION_BYTES 5    /* bytes of one explicit decision */
#define SF_MAX_DECISIONS 65535 /* the count is 16 bits */

enum sf_kind {
	SF_KIND_RANDOM,   /* uniform random walk seeded by the genome */
	SF_KIND_EXPLICIT, /* an explicit list of decisions: replay, minimisation */
	SF_KIND_COUNT
};

/* "At the index-th decision of the execution, take value": a thread id for
 * a pick, an option number for a choice. Decisions are numbered over the
 * points where the strategy was asked, i.e. where there were >= 2 options. */
struct sf_decision {
	uint32_t index;
	uint16_t value;
};

/* A decoded genome. It borrows the input bytes for the decision list, so it
 * lives no longer than they do. */
struct sf_plan {
	enum sf_kind kind;
	uint8_t version;
	uint64_t seed;
	uint32_t ndecisions;
	const uint8_t *decision_bytes; /* ndecisions * SF_DECISION_BYTES */
};

/* Decode any byte string (empty included) into *plan. Returns the number
 * of bytes the genome occupies; the rest of the input is the harness's. */
size_t sf_genome_decode(const uint8_t *data, size_t size, struct sf_plan *plan);

/* The i-th explicit decision, i < plan->ndecisions. */
struct sf_decision sf_plan_decision(const struct sf_plan *plan, uint32_t i);

/* Encode a plan; decisions (n of them) are written for SF_KIND_EXPLICIT.
 * Returns the encoded size; writes nothing past cap (so a short buffer
 * tells the caller the size it needs). */
size_t sf_genome_encode(const struct sf_plan *plan, const struct sf_decision *decisions,
			uint32_t n, uint8_t *out, size_t cap);

/* The readable one-line form, e.g. "random seed=0x2a". Returns the length
 * snprintf would have written. */
int sf_plan_format(const struct sf_plan *plan, char *buf, size_t cap);

/* The genome that the built-in explorer tries as its i-th schedule from a
 * starting seed: a random-walk plan with a seed derived from both. */
uint64_t sf_derive_seed(uint64_t start_seed, uint64_t index);

const char *sf_kind_name(enum sf_kind kind);

#endif
