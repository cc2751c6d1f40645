/* cov_shadow.h - what coverage remembers per object during one execution:
 * each thread's last event on it (HaPSet) and its recent accesses (MAP).
 *
 * Memory is tracked by 8-byte granule (ThreadSanitizer's unit): an access
 * is an event on every granule it touches, with a byte mask, and two
 * accesses are to the same variable when their masks overlap in one
 * granule. Sync objects are keyed by address, tagged apart from memory.
 * The table holds only what this execution touched and forgets it in O(1)
 * (a generation number), so per-execution work never grows with history.
 *
 * The hash index holds keys and cell numbers only; the cells themselves
 * are in an array in order of creation. Each execution runs in a fresh
 * child, so every page the table touches is a page fault there: a cell
 * is 224 bytes, and cells spread over a sparse table touched nearly all
 * of its pages (a data-parallel loop's schedule: some 600 faults, the
 * largest share of what coverage cost it), where dense chunks touch only
 * as many pages as the cells fill. */
#ifndef SCHEDFUZZ_COV_SHADOW_H
#define SCHEDFUZZ_COV_SHADOW_H

#include <stdint.h>

#include "cov.h"

#define COV_LAST 4 /* threads per object whose last event is remembered */
#define COV_HIST 8 /* accesses per granule remembered for MAP's patterns 1-8 */

/* A thread's last event on the object, for HaPSet. */
struct cov_last {
	uint32_t seq;  /* the object's event number: orders events on it */
	uint32_t site;
	uint32_t ctx[COV_CTX_MAX];
	uint16_t tid;
	uint8_t op;
	uint8_t mask;  /* bytes of the granule, memory only */
	uint8_t nctx;
};

/* One access, for MAP. */
struct cov_step {
	uint32_t site;
	uint16_t tid;
	uint8_t write;
	uint8_t mask;
};

struct cov_cell {
	uintptr_t key;
	uint32_t seq; /* events on the object so far */
	uint32_t first_site; /* of the first event on it */
	uint32_t w_site; /* the last write's site (reads-from) */
	uint16_t w_tid;	 /* and its thread */
	uint8_t w_mask;	 /* and bytes; 0: no write yet in this execution */
	uint8_t w_occ;	 /* and its occurrence in its thread (cov_occurrence) */
	struct cov_last last[COV_LAST];
	uint8_t nlast;
	uint8_t nhist;	/* valid entries of hist, at most COV_HIST */
	uint8_t hnext;	/* where the next access goes (ring) */
	struct cov_step hist[COV_HIST];
};

/* A slot of the index: live in this execution iff gen == the table's. */
struct cov_slot {
	uintptr_t key;
	uint32_t gen;
	uint32_t cell; /* its cell's number in cells */
};

/* Cells come in chunks that never move, allocated as the cells fill
 * them and kept for the next execution of the same process. */
#define COV_CHUNK_SHIFT 9
#define COV_CHUNK_CELLS (1u << COV_CHUNK_SHIFT)
#define COV_CHUNKS 4096 /* at most 2 million objects an execution */

struct cov_shadow {
	struct cov_slot *slots;
	uint32_t cap;	 /* slots, a power of two */
	uint32_t used;	 /* live cells this execution: cell n is chunk[n >> SHIFT] */
	uint32_t chunks; /* allocated */
	uint32_t gen;
	struct cov_cell *chunk[COV_CHUNKS];
};

#define COV_KEY_SYNC 1 /* tag of sync objects' keys; granules are 8-aligned */

/* The cell of key, created empty on first touch (by an event at site);
 * NULL if out of memory. */
struct cov_cell *cov_shadow_get(struct cov_shadow *sh, uintptr_t key, uint32_t site);
/* The cell of key if this execution touched it, else NULL. */
struct cov_cell *cov_shadow_find(const struct cov_shadow *sh, uintptr_t key);
/* Forget every cell. */
void cov_shadow_reset(struct cov_shadow *sh);
void cov_shadow_free(struct cov_shadow *sh);

#endif
