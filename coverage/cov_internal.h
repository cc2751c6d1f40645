/* cov_internal.h - what the coverage files share: the tracker's state and
 * the one way features leave it. */
#ifndef SCHEDFUZZ_COV_INTERNAL_H
#define SCHEDFUZZ_COV_INTERNAL_H

#include "cov.h"
#include "cov_shadow.h"

#define COV_WINDOW 16 /* recent accesses, all variables: MAP patterns 9-17 */
#define COV_LAST_READS 256 /* threads whose previous read reads-from chains to */

/* One access in the execution-wide window (and a step of a MAP instance). */
struct cov_wstep {
	uintptr_t granule;
	uint32_t site;
	uint16_t tid;
	uint8_t write;
	uint8_t mask;
};

/* The execution's last accesses, for MAP's patterns 9-17: a ring kept
 * twice over (each access at i and i + COV_WINDOW), so that the last
 * count accesses, oldest first, are the contiguous run ending at
 * [next + COV_WINDOW] with no copy per access; one array per field, so
 * that a pass comparing one field over the window is a few vector
 * instructions. */
struct cov_window {
	/* The granule's address in two halves: SSE2 compares 32-bit lanes. */
	uint32_t granule_lo[2 * COV_WINDOW], granule_hi[2 * COV_WINDOW];
	uint32_t site[2 * COV_WINDOW];
	/* The thread (bits 0-15), the kind (16) and the bytes (24-31) in one
	 * word: two accesses are the same step when their granules, sites
	 * and these agree. */
	uint32_t who[2 * COV_WINDOW];
	/* The latest earlier access with the same step, as its number in the
	 * execution plus one; 0 if none was in the window when it came. */
	uint64_t same[2 * COV_WINDOW];
	uint32_t next, count;
	uint64_t total; /* accesses so far in the execution */
};

/* Features already emitted in this execution: each is emitted once. A
 * set of hashes, open addressing, reset by generation like the shadow. */
struct cov_seen_slot {
	uint64_t hash;
	uint32_t gen;	/* in the set iff gen == cov_seen.gen */
	uint32_t count; /* times it occurred (counted features only) */
};
struct cov_seen {
	struct cov_seen_slot *t;
	uint32_t cap, used, gen;
};

struct cov_state {
	unsigned what;
	cov_emit_fn *emit;
	void *arg;
	struct cov_shadow shadow;
	struct cov_window window;
	struct cov_seen seen;
	struct cov_seen occ; /* accesses per (thread, site) so far: reads-from's occurrences */
	struct cov_seen site_cells; /* granules each site touched first, and tried to */
	uint32_t memory_cells;      /* granules tracked in this execution (cov.c's budgets) */
	struct cov_last_read {
		uint64_t hash; /* its reads-from feature with occurrences */
		uint32_t gen;  /* valid iff seen.gen: this execution's */
		uint16_t tid;
	} last_read[COV_LAST_READS]; /* per thread (tid modulo): its previous read */
};

#define COV_OCC_MAX 8 /* occurrences told apart; later ones count as the 8th */

/* Hand f to the sink unless this execution emitted it already. */
void cov_emit(struct cov_state *s, struct cov_feature *f);
/* True the first time this execution sees hash (then the caller builds
 * the feature and hands it to s->emit): most candidate features repeat
 * one already emitted, and are then dropped before they are built. */
bool cov_first(struct cov_state *s, uint64_t hash);
/* Count an occurrence of f in this execution and hand it to the sink at
 * its 1st, 2nd, 3rd, 4th, 8th, 16th, 32nd and 128th occurrence (AFL's
 * hit-count buckets), each time under another hash (f->count says which):
 * "it happened more often" is then new too. */
void cov_emit_counted(struct cov_state *s, struct cov_feature *f);

/* HaPSet's learning step for ev on one object (its cell). */
void cov_hapset_event(struct cov_state *s, struct cov_cell *c, const struct cov_event *ev,
		      uint8_t mask);
/* Build MAP's pattern table (once; before the first access is matched). */
void cov_map_init(void);
/* MAP's matching for an access to one granule; then the access is remembered. */
void cov_map_access(struct cov_state *s, struct cov_cell *c, const struct cov_event *ev,
		    uintptr_t granule, uint8_t mask);
/* Reads-from for an access to one granule: a write is remembered, a read
 * emits the write it saw. */
void cov_reads_from_access(struct cov_state *s, struct cov_cell *c, const struct cov_event *ev,
			   uint8_t mask, uint8_t occ);
/* The how-manieth access of ev's thread at ev's site this is, 1 to
 * COV_OCC_MAX. */
uint8_t cov_occurrence(struct cov_state *s, const struct cov_event *ev);

#endif
