/* priority.h - what PCT, RPRO and PCTVB share: priorities, and change
 * points read out of a plan.
 *
 * The three differ only in where their change points fall and what they
 * count (pct.c, rpro.c, pctvb.c); the scheduling itself, "run the enabled
 * thread with the highest priority", is one strategy (priority.c). Reading
 * change points is a pure function of the plan, so the readable form of a
 * genome shows exactly the positions the strategy will use. */
#ifndef SCHEDFUZZ_PRIORITY_H
#define SCHEDFUZZ_PRIORITY_H

#include <stdint.h>

#include "genome.h"

/* What a strategy counts toward its change points (PCT's k). */
enum sf_count {
	SF_COUNT_NONE,   /* nothing: the strategy has no change points */
	SF_COUNT_EVENTS, /* every event at a scheduling point */
	SF_COUNT_LOCKS,  /* lock acquisitions only (RPRO's deadlock mode) */
	SF_COUNT_VARS,   /* accesses to each chosen variable, one count each */
	SF_COUNT_ROLES,  /* events of each role's thread, one count each (FOCUS) */
};

/* One change point: after the at-th counted event of its stream (1-based)
 * the thread that executed it takes a new priority. Stream is 0 except for
 * PCTVB, where it is the index of the variable whose accesses count. */
struct sf_change {
	uint64_t at;
	uint8_t stream;
	uint8_t slot;  /* the genome's change point word it came from */
	uint8_t label; /* PCT's priority value i: 1 is the lowest */
};

/* A priority: larger runs first. Initial priorities lie far above change
 * point labels, and starving threads go below everything (priority.c). */
typedef int64_t sf_prio;
#define SF_PRIO_BASE ((sf_prio)1 << 44)

/* The change points of a plan, sorted by (stream, at, label); returns how
 * many (at most depth - 1). */
int sf_plan_changes(const struct sf_plan *plan, struct sf_change out[SF_MAX_CP]);
enum sf_count sf_plan_counts(const struct sf_plan *plan);
/* Sort change points by (stream, at, label), keeping the order of ties. */
void sf_changes_sort(struct sf_change *c, int n);

/* The kinds' readings, behind sf_plan_changes. */
int sf_pct_changes(const struct sf_plan *plan, struct sf_change out[SF_MAX_CP]);
int sf_rpro_changes(const struct sf_plan *plan, struct sf_change out[SF_MAX_CP]);
int sf_pctvb_changes(const struct sf_plan *plan, struct sf_change out[SF_MAX_CP]);
int sf_focus_changes(const struct sf_plan *plan, struct sf_change out[SF_MAX_CP]);

/* Thread tid's initial priority: distinct for every tid, uniformly random
 * relative order when the genome bytes are random (one permutation,
 * Lemma 4.1). */
sf_prio sf_prio_initial(const struct sf_plan *plan, int tid);
/* FOCUS: the priority of role r's thread. Threads without a role have
 * SF_PRIO_DEFAULT: below every change point label, ties going to the
 * thread created first. */
sf_prio sf_prio_role(const struct sf_plan *plan, int role);
#define SF_PRIO_DEFAULT ((sf_prio)0)
/* The priority a change point gives: its label, or with thread bounding
 * the next element of the same permutation (a "thread fragment"). */
sf_prio sf_prio_change(const struct sf_plan *plan, const struct sf_change *c);

#endif
