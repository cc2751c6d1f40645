/* cov.h - interleaving coverage: HaPSet pairs and MAP memory access
 * patterns (docs/design/algorithms.md), computed from an execution's event
 * stream.
 *
 * The runtime feeds every executed event (cov_event) and receives each
 * feature it produces through a callback: the exporters turn features into
 * fuzzer map entries, the coverage report collects them. Pure logic, no
 * threads, no runtime internals: unit tests feed hand-made streams.
 *
 * Features are abstract (docs/design/architecture.md, decision 9): sites,
 * a local/remote flag, a short call context and pattern ids, never thread
 * ids or addresses, so the same scenario gives the same feature in every
 * run and process. */
#ifndef SCHEDFUZZ_COV_H
#define SCHEDFUZZ_COV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What an event does to its object, as the conflict rules see it. */
enum cov_op {
	COV_READ,	    /* memory: a load, atomic or not */
	COV_WRITE,	    /* memory: a store, read-modify-write or CAS */
	COV_ACQUIRE,	    /* lock: exclusive acquire (mutex, write lock, retake) */
	COV_ACQUIRE_SHARED, /* lock: read lock */
	COV_RELEASE,	    /* lock: unlock of a recursive mutex (others are ignored) */
	COV_WAIT,	    /* condition or semaphore: wait */
	COV_NOTIFY,	    /* condition or semaphore: signal, broadcast, post */
	COV_OP_COUNT
};

static inline bool cov_op_is_memory(enum cov_op op)
{
	return op == COV_READ || op == COV_WRITE;
}

/* One executed event. Sites and contexts must be the same in every process
 * (offsets in the executable), or features would not replay. */
#define COV_CTX_MAX 4 /* call sites a statement may carry (HaPSet's c) */
struct cov_event {
	uintptr_t obj; /* memory address, or the sync object's address */
	uint32_t size; /* bytes, memory events only */
	uint32_t site; /* the instruction */
	uint32_t ctx[COV_CTX_MAX]; /* the innermost call sites, innermost first */
	uint8_t nctx;  /* how many of ctx are set: HaPSet's c, or fewer */
	uint8_t op;    /* enum cov_op */
	uint16_t tid;
};

/* Memory granules an execution tracks: each costs a cell of the tracker's
 * table (224 bytes), and a real program touches hundreds of thousands
 * within the events coverage looks at (rt_cov.c): zstd's match finder
 * filled a table of 524,288 cells (117 MB) in one schedule, and a guided
 * schedule cost seven times an unguided one, in page faults and cache
 * misses. A site makes at most COV_SITE_CELLS granules tracked, so that
 * one loop over a buffer does not take the execution's budget from the
 * objects other code touches later; features name sites, not addresses,
 * so granules past that bring the same pairs and patterns again. An event
 * on an untracked granule adds nothing. Both limits depend on the
 * execution alone, so its features replay. Sync objects are not counted. */
#define COV_MAX_CELLS (1u << 15)
#define COV_SITE_CELLS 1024u

/* Memory is tracked by 8-byte granule (ThreadSanitizer's unit). */
static inline uintptr_t cov_granule(uintptr_t addr)
{
	return addr & ~(uintptr_t)7;
}

/* Which features to compute. COV_BOTH is HaPSet and MAP (the two papers'
 * features); COV_ALL adds reads-from. */
enum {
	COV_HAPSET = 1,
	COV_MAP = 2,
	COV_READS_FROM = 4,
	COV_BOTH = COV_HAPSET | COV_MAP,
	COV_ALL = COV_BOTH | COV_READS_FROM,
	/* A kind only: a pair of racing sites, which the runtime's race
	 * detector adds to the stream when it is on (no tracker computes it). */
	COV_RACE = 8
};

#define COV_MAP_PATTERNS 17
#define COV_MAX_STEPS 4

/* One feature, with what a report needs to explain it. */
struct cov_feature {
	uint64_t hash;	/* the feature's identity: xxHash of the fields below */
	uint8_t kind;	/* COV_HAPSET, COV_MAP, COV_READS_FROM or COV_RACE */
	uint8_t pattern; /* MAP: 1..17 */
	uint8_t nsteps;	/* HaPSet: 2 (predecessor, statement); MAP: 2..4 */
	uint8_t nvars;	/* MAP: 1 or 2 */
	uint8_t remote; /* reads-from: the write was another thread's */
	uint8_t count;	/* reads-from: its occurrence in the execution, 1, 2, 3, 4, 8 ... 128 */
	/* Reads-from by occurrence: the write's and the read's, each the how-
	 * manieth access of its thread at its site (1..8, 8 for later ones);
	 * 0 in the plain feature. */
	uint8_t occ[2];
	uint8_t chained; /* reads-from: this read after the thread's previous one, as one feature */
	/* Reads-from: site[0] the write (0: the initial value), site[1] the read. */
	uint32_t site[COV_MAX_STEPS];
	/* HaPSet: the predecessor's and the statement's call contexts. */
	uint32_t ctx[2][COV_CTX_MAX];
	uint8_t nctx[2];
	uintptr_t var[2]; /* MAP: the variables' granules (x, y); HaPSet: the object */
	uint8_t write[COV_MAX_STEPS]; /* MAP: each step's access */
};

/* A HaPSet pair's feature hash: remote's statement came right before
 * local's (the systematic search asks whether an order is learned). */
uint64_t cov_hapset_pair_hash(uint32_t remote_site, const uint32_t *remote_ctx, uint8_t remote_nctx,
			      uint32_t local_site, const uint32_t *local_ctx, uint8_t local_nctx);

/* A reads-from feature's hash: the read at read_site saw the write at
 * write_site (0: the initial value), made by another thread if remote. */
uint64_t cov_reads_from_hash(uint32_t read_site, uint32_t write_site, bool remote);
/* The same with occurrences (1..8): the read_occ-th read at read_site of
 * its thread saw the write_occ-th write at write_site of its writer's. */
uint64_t cov_reads_from_occ_hash(uint32_t read_site, uint8_t read_occ, uint32_t write_site,
				 uint8_t write_occ, bool remote);

typedef void cov_emit_fn(void *arg, const struct cov_feature *f);

struct cov_state;

/* A tracker; NULL when out of memory. */
struct cov_state *cov_create(void);
void cov_destroy(struct cov_state *s);
/* Start an execution: forget the last one in O(1). */
void cov_begin(struct cov_state *s, unsigned what, cov_emit_fn *emit, void *arg);
/* The execution just executed ev. */
void cov_event(struct cov_state *s, const struct cov_event *ev);
/* The site of the first event on addr's granule in this execution; 0 if
 * none (or unknown). The report names memory that has no symbol by it. */
uint32_t cov_first_site(struct cov_state *s, uintptr_t addr);

/* ---- MAP's total: the patterns possible from the sites seen (TC) -------- */

/* The read and write sites seen on one variable. */
struct cov_var_sites {
	uint64_t reads, writes;
};
/* TC over n variables (docs/design/algorithms.md, MAP): the instances of
 * patterns 1-8 per variable and of 9-17 per ordered pair of distinct
 * variables, from the numbers of read and write sites. An over-estimate by
 * construction. */
double cov_map_total(const struct cov_var_sites *v, size_t n);
/* The same, split by pattern: out[p] for p = 1..17 (out[0] unused). */
void cov_map_total_by_pattern(const struct cov_var_sites *v, size_t n,
			      double out[COV_MAP_PATTERNS + 1]);

/* The steps of pattern p (1..17) as text, e.g. "a:R x, b:W x". */
const char *cov_map_pattern_text(int p);

#endif
