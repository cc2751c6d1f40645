/* search_internal.h - the search's own state, shared by search.c (the
 * tree and its schedules), dpor.c (backtrack points from races) and
 * search_state.c (the state file). */
#ifndef SCHEDFUZZ_SEARCH_INTERNAL_H
#define SCHEDFUZZ_SEARCH_INTERNAL_H

#include "search.h"

/* A set of thread ids or option numbers, 0..127. */
struct sx_set {
	uint64_t w[2];
};

static inline void sx_set_add(struct sx_set *s, unsigned v)
{
	s->w[v >> 6 & 1] |= 1ull << (v & 63);
}
static inline bool sx_set_has(const struct sx_set *s, unsigned v)
{
	return s->w[v >> 6 & 1] >> (v & 63) & 1;
}
static inline bool sx_set_empty(const struct sx_set *s)
{
	return !(s->w[0] | s->w[1]);
}
static inline struct sx_set sx_set_and(struct sx_set a, struct sx_set b)
{
	return (struct sx_set){ { a.w[0] & b.w[0], a.w[1] & b.w[1] } };
}
static inline struct sx_set sx_set_or(struct sx_set a, struct sx_set b)
{
	return (struct sx_set){ { a.w[0] | b.w[0], a.w[1] | b.w[1] } };
}
static inline struct sx_set sx_set_minus(struct sx_set a, struct sx_set b)
{
	return (struct sx_set){ { a.w[0] & ~b.w[0], a.w[1] & ~b.w[1] } };
}
/* The lowest member; the set must not be empty. */
static inline unsigned sx_set_first(struct sx_set s)
{
	return s.w[0] ? (unsigned)__builtin_ctzll(s.w[0]) : 64 + (unsigned)__builtin_ctzll(s.w[1]);
}

/* A decision a list must name whatever was taken (search.c, default_of). */
#define SX_NO_DEFAULT UINT16_MAX

/* One decision on the current path: the stack of CHESS and DPOR. */
struct sx_node {
	struct sx_set options; /* thread ids (picks) or option numbers */
	struct sx_set done;    /* taken in some explored schedule */
	struct sx_set todo;    /* to be taken (DPOR's backtrack set) */
	struct sx_set sleep;   /* DPOR: asleep here, explored from an equivalent state */
	uint16_t sel;          /* taken on the current path */
	uint16_t dflt;         /* what the default decision is, or SX_NO_DEFAULT */
	int16_t current;       /* picks: the thread that could go on, -1 none */
	uint16_t preemptions;  /* on the path before this decision */
	uint8_t pick;
};

/* Schedules waiting for a later ICB bound, in one flat array. */
struct sx_queue {
	struct sf_decision *dec;
	uint64_t ndec, cap_dec;
	uint64_t *start; /* item i is dec[start[i] .. start[i+1]) */
	uint64_t nitems, cap_items, head;
};

/* A set of 64-bit hashes (learned HaPSet pairs): open addressing, 0 is
 * stored apart. */
struct sx_hashset {
	uint64_t *slot;
	uint64_t cap, count;
	bool has_zero;
};
bool sx_hashset_add(struct sx_hashset *h, uint64_t v);
bool sx_hashset_has(const struct sx_hashset *h, uint64_t v);

struct sx_search {
	struct sx_spec spec;
	struct sx_node *node;
	uint32_t depth, cap;
	uint32_t fixed;  /* ICB: nodes below are the queued schedule's prefix */
	bool started, finished;
	int round;       /* ICB: the bound being explored */
	int bound_done;
	bool exhausted;
	struct sx_queue now, next;
	uint64_t queue_limit;
	int cut_round;   /* ICB: first bound whose work list was cut short */
	struct sx_hashset pairs;
	uint64_t schedules;
	uint64_t redundant; /* DPOR: executions that ran a sleeping thread */
	bool diverged;

	/* sx_next's answer. */
	struct sf_decision *out;
	uint32_t nout, cap_out;
};

/* DPOR: add the backtrack points the races of this execution call for. */
void sx_dpor_analyse(struct sx_search *s, const struct sx_log *log);

/* HaPSet's identity of the pair "remote came right before local". */
uint64_t sx_pair_hash(const struct sx_stmt *remote, const struct sx_stmt *local);

void sx_queue_free(struct sx_queue *q);

#endif
