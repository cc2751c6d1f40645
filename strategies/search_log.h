/* search_log.h - what one execution tells the systematic search: its
 * transitions, in order, and every decision it made, with the options.
 *
 * The runtime writes it into memory shared with the explorer (a forked
 * child per execution); the search (search.c, dpor.c) reads it. Plain data
 * in one mapping, so that a child that dies still leaves what it did.
 *
 * A transition is what one thread does from the moment it is picked until
 * its next scheduling point: the operation it was parked on (its primary
 * event) and whatever else it changed before it stopped again (a thread's
 * exit, a lock released inside a condition wait). Its items are the
 * objects it touched, as the dependence relation (dpor.c) reads them. */
#ifndef SCHEDFUZZ_SEARCH_LOG_H
#define SCHEDFUZZ_SEARCH_LOG_H

#include <stdbool.h>
#include <stdint.h>

#define SX_MAX_ITEMS 6 /* items kept per transition; more makes it touch everything */
#define SX_CTX_MAX 4   /* call sites in a statement, as HaPSet's (COV_CTX_MAX) */
#define SX_NONE UINT32_MAX

/* What a transition does to an object. Memory items are 8-byte granules
 * with a byte mask; the others are keyed by the sync object's address
 * (low bit set) or by a thread (sx_thread_key). */
enum sx_op {
	SX_READ,
	SX_WRITE,
	SX_ACQ,        /* takes a lock exclusively (mutex, write lock, retake after a wait) */
	SX_ACQ_SHARED, /* takes a read lock */
	SX_REL,        /* releases a lock */
	SX_TRY,        /* trylock: succeeds or fails depending on the holder */
	SX_WAIT,       /* becoming a condition's waiter, or a semaphore wait */
	SX_NOTIFY,     /* condition signal or broadcast */
	SX_POST,       /* semaphore post */
	SX_SYNC,       /* barrier, once: conflicts with everything on the object */
	SX_WAKE,       /* resumes from a wait that another thread's step ended */
	SX_EXIT,       /* the thread keyed ends */
	SX_JOIN,       /* waited for the thread keyed to end */
	SX_JOIN_ALL,   /* waited for every other thread to end (a harness's end) */
	SX_JOIN_TRY,   /* asked whether a thread has ended (tryjoin): any exit */
	SX_END,        /* ended the process (exit, main's return): every other step races it */
	SX_OP_COUNT
};

struct sx_item {
	uint64_t key;
	uint8_t op;   /* enum sx_op */
	uint8_t mask; /* memory: the bytes of the granule */
};

static inline uint64_t sx_sync_key(uintptr_t obj)
{
	return (uint64_t)obj | 1;
}

static inline uint64_t sx_thread_key(unsigned tid)
{
	return (uint64_t)tid << 3 | 2;
}

/* A statement as HaPSet names it (cov.h): site and innermost call sites. */
struct sx_stmt {
	uint32_t site;
	uint8_t nctx;
	uint8_t hapset; /* the event is one HaPSet pairs (a conflict-rule event) */
	uint32_t ctx[SX_CTX_MAX];
};

struct sx_trans {
	uint16_t tid;
	uint8_t nitems;
	uint8_t global;   /* too many items: depends on everything */
	uint32_t creator; /* a thread's first transition: the one that created it */
	struct sx_stmt stmt; /* of the primary event */
	struct sx_item item[SX_MAX_ITEMS];
};

/* One pending operation of a candidate, when it was offered. */
struct sx_cand {
	uint16_t tid;
	uint8_t timeout; /* would run only by timing out */
	uint8_t has_item;
	struct sx_item item;
	struct sx_stmt stmt;
};

/* A decision with two or more options, numbered as the explicit genome
 * numbers them. A pick precedes transition `trans`; a choice (which waiter
 * a signal wakes, a spurious wakeup) is made inside the transition before. */
struct sx_decision {
	uint32_t trans;
	uint32_t first_cand; /* picks: options are cand[first_cand .. +nopt) */
	uint16_t nopt;
	uint16_t value;   /* what was taken: a tid (picks) or an option */
	uint16_t dflt;    /* what the default decision is */
	int16_t current;  /* picks: the thread that could have gone on, or -1 */
	uint8_t pick;
};

/* The shared region: this header, then the arrays at fixed offsets. */
struct sx_log {
	uint32_t ntrans, ndec, ncand, nhap;
	uint32_t cap_trans, cap_dec, cap_cand, cap_hap;
	uint8_t overflow;    /* the execution was longer than the log */
	uint8_t want_hapset; /* send HaPSet pairs (guided search) */
	/* The execution runs as `schedfuzz replay` would run its input
	 * (memory its thread owns is no point, finished threads' slots are
	 * reused): guided run's reversal arm, whose failures must replay.
	 * Otherwise every access is logged, for a complete search. */
	uint8_t as_replayed;
	uint64_t off_trans, off_dec, off_cand, off_hap;
};

static inline struct sx_trans *sx_log_trans(const struct sx_log *l)
{
	return (struct sx_trans *)((char *)l + l->off_trans);
}
static inline struct sx_decision *sx_log_dec(const struct sx_log *l)
{
	return (struct sx_decision *)((char *)l + l->off_dec);
}
static inline struct sx_cand *sx_log_cand(const struct sx_log *l)
{
	return (struct sx_cand *)((char *)l + l->off_cand);
}
/* HaPSet pairs the execution produced (coverage feature hashes). */
static inline uint64_t *sx_log_hap(const struct sx_log *l)
{
	return (uint64_t *)((char *)l + l->off_hap);
}

#endif
