/* genome.h - the schedule genome: the fuzzer's bytes decoded into a plan.
 * The format is documented at the top of genome.c. */
#ifndef SCHEDFUZZ_GENOME_H
#define SCHEDFUZZ_GENOME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SF_GENOME_VERSION 1
#define SF_GENOME_HEADER 96    /* bytes of the fixed header */
#define SF_DECISION_BYTES 5    /* bytes of one explicit decision */
#define SF_MAX_DECISIONS 65535 /* the count is 16 bits */

#define SF_MAX_DEPTH 8         /* bug depth d: 1..8, so up to 7 change points */
#define SF_MAX_CP (SF_MAX_DEPTH - 1)
#define SF_MAX_VARS 4          /* PCTVB variable bound v: 1..4 */
#define SF_PRIO_SLOTS 8        /* threads whose initial priority is spelled out */

enum sf_kind {
	SF_KIND_RANDOM,   /* uniform random walk seeded by the genome */
	SF_KIND_EXPLICIT, /* an explicit list of decisions: replay, minimisation */
	SF_KIND_PCT,      /* priorities with d-1 change points over [1, k] */
	SF_KIND_RPRO,     /* PCT whose change points lie within radius r of the first */
	SF_KIND_PCTVB,    /* PCT whose change points are accesses to v chosen variables */
	SF_KIND_FOCUS,    /* PCT over a few roles (start routine, instance); the rest in order */
	SF_KIND_COUNT
};

/* Plan flags (byte 3). */
#define SF_FLAG_LOCKS 0x01  /* count only lock acquisitions (RPRO's deadlock mode) */
#define SF_FLAG_TB 0x02     /* thread bounding: change points take permutation priorities */
#define SF_FLAG_NO_SPURIOUS 0x04 /* condition waits never return without a signal */
/* Explicit lists: where the list says nothing, a thread that had to give
 * way (docs/liveness.md) runs again only after those that gave way longer
 * ago, instead of the lowest thread always taking over: no thread starves
 * behind two that spin in turn. The systematic search's lists (and
 * guided run's reversal arm's) set it. */
#define SF_FLAG_FAIR 0x08
#define SF_FLAGS_KNOWN (SF_FLAG_LOCKS | SF_FLAG_TB | SF_FLAG_NO_SPURIOUS | SF_FLAG_FAIR)

/* Variable ids (PCTVB). A global is its offset in the main executable; a
 * heap allocation site is the call site's offset with SF_VAR_HEAP set.
 * Ids below SF_VAR_AUTO_LIMIT are not offsets but ranks: "the (id+1)-th
 * variable to be touched by a second thread in this execution". */
#define SF_VAR_HEAP 0x80000000u
#define SF_VAR_AUTO_LIMIT 256u

/* FOCUS: a role word (var[r]) names one thread by its start routine and
 * the order it was created in among that routine's threads (focus.c).
 * Routine 0 is the thread that started the execution; routine m >= 1 is
 * the m-th distinct start routine a pthread_create named. */
#define SF_FOCUS_ROUTINES 8  /* routine = byte 0 of the word % 8 */
#define SF_FOCUS_INSTANCES 4 /* instance = byte 1 of the word % 4 */
uint32_t sf_focus_role(uint32_t routine, uint32_t instance);
uint32_t sf_focus_routine(uint32_t role_word);
uint32_t sf_focus_instance(uint32_t role_word);

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

	/* Priority kinds (PCT, RPRO, PCTVB). */
	uint8_t depth;  /* d, 1..SF_MAX_DEPTH */
	uint8_t flags;  /* SF_FLAG_* */
	uint16_t radius; /* RPRO's r, >= 1 */
	uint32_t k;     /* counted events per execution, as estimated when the plan was made; >= 1 */
	uint8_t prio[SF_PRIO_SLOTS];  /* initial priority keys of threads 0..7 (higher runs first) */
	uint32_t cp[SF_MAX_CP];       /* change point words; see each strategy for their reading */
	uint8_t cp_key[SF_MAX_CP];    /* thread bounding: priority key a change point gives */
	uint8_t nvars;                /* PCTVB's v, 1..SF_MAX_VARS; FOCUS: the number of roles */
	uint32_t var[SF_MAX_VARS];    /* PCTVB: the variables; FOCUS: the roles */
	uint32_t var_acc[SF_MAX_VARS]; /* PCTVB: a_i, estimated accesses per execution; >= 1;
				       * FOCUS: estimated events of each role's thread */

	/* Explicit decision lists. */
	uint32_t ndecisions;
	const uint8_t *decision_bytes; /* ndecisions * SF_DECISION_BYTES */
};

/* Decode any byte string (empty included) into *plan. Returns the number
 * of bytes the genome occupies; the rest of the input is the harness's. */
size_t sf_genome_decode(const uint8_t *data, size_t size, struct sf_plan *plan);

/* The i-th explicit decision, i < plan->ndecisions. */
struct sf_decision sf_plan_decision(const struct sf_plan *plan, uint32_t i);

/* Encode a plan; decisions (n of them) are written for SF_KIND_EXPLICIT.
 * Returns the encoded size; writes nothing unless all of it fits in cap
 * (so a short buffer tells the caller the size it needs). */
size_t sf_genome_encode(const struct sf_plan *plan, const struct sf_decision *decisions,
			uint32_t n, uint8_t *out, size_t cap);

/* The readable one-line form, e.g. "pct d=3 k=1000 prio=[2,0,1,...] cp=[113,870]".
 * Returns the length snprintf would have written. */
int sf_plan_format(const struct sf_plan *plan, char *buf, size_t cap);

/* A plan in its canonical form: every field inside its range, exactly what
 * decoding its encoding gives back. */
void sf_plan_normalize(struct sf_plan *plan);

/* Is this kind one of the priority strategies (PCT, RPRO, PCTVB)? */
bool sf_kind_has_priorities(enum sf_kind kind);

/* The seed the built-in explorer gives its i-th schedule from a starting
 * seed: independent of every other index. */
uint64_t sf_derive_seed(uint64_t start_seed, uint64_t index);

const char *sf_kind_name(enum sf_kind kind);

/* The build an explicit genome was recorded on, for saying so when it
 * does not replay elsewhere: 8 bytes of the binary's build-id, kept in
 * header fields an explicit plan does not read (PCTVB's variables), with
 * a tag and a check so that a fuzzed genome is not taken for one. The
 * stamp changes nothing a genome decodes to. */
void sf_genome_stamp(uint8_t *genome, size_t size, const uint8_t build[8]);
bool sf_genome_stamped(const uint8_t *data, size_t size, uint8_t build[8]);

#endif
