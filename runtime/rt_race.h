/* rt_race.h - the data-race detector: happens-before from every modelled
 * synchronisation, and the accesses the ownership model shows, checked in
 * every execution (docs/races.md).
 *
 * Clocks (rt_race_clock.c) are vector clocks indexed by thread slot, with
 * a thread's own component counted up at each release, as FastTrack
 * (PLDI'09) does: an access is named by an epoch (slot, clock), and it
 * happens before thread u's next access when u's clock knows that epoch.
 * Slots are reused: a new thread in a slot goes on counting from where
 * the old one stopped, so that an epoch of the old one never reads as one
 * of the new.
 *
 * Accesses (rt_race_shadow.c) are kept per 16-byte granule, as a few
 * records of (epoch, byte mask, read or write, stack), as
 * ThreadSanitizer's shadow cells are: two bytes of one word are no race.
 * Only accesses that reach the runtime are seen: the first of each thread
 * to memory it owns, and every access to memory two threads touched
 * (rt_own.h). A thread's later private accesses pass the inline check
 * unrecorded, so a record may carry an older epoch than the thread's last
 * access: that can hide a race, never make one up, since an older epoch
 * is known to more threads than a newer one.
 *
 * Only one controlled thread runs at a time: nothing here is atomic. */
#ifndef SCHEDFUZZ_RT_RACE_H
#define SCHEDFUZZ_RT_RACE_H

#include "rt_internal.h"

enum rt_race_mode { RT_RACES_OFF, RT_RACES_REPORT, RT_RACES_FAIL };

struct rt_race_state {
	bool on;	      /* this execution detects races */
	uint8_t mode;	      /* enum rt_race_mode, from SCHEDFUZZ_RACES */
	uint32_t hw;	      /* slots used in this execution: clocks' width */
};
extern struct rt_race_state rt_race RT_HIDDEN;

/* Keys of synchronisation that has no object of its own: every descriptor
 * read or write, every signal sent and delivered, every futex wake and
 * wait. One clock each: more order than the program has, never less. */
#define RT_RACE_KEY_IO ((uintptr_t)1)
#define RT_RACE_KEY_SIGNAL ((uintptr_t)2)
#define RT_RACE_KEY_FUTEX ((uintptr_t)3)

/* ---- rt_race_clock.c: happens-before -------------------------------------- */

/* Untouched memory, reserved only (its pages come when touched); a
 * one-line reason and exit when there is none. */
RT_HIDDEN void *rt_race_map(size_t bytes);
/* Built beside ASan: no detection (its callbacks cannot tell atomics). */
RT_HIDDEN bool rt_race_beside_asan(void);
/* A new execution: SCHEDFUZZ_RACES read once, clocks and tables empty. */
RT_HIDDEN void rt_race_begin(void);
RT_HIDDEN void rt_race_acquire_slow(struct rt_thread *self, uintptr_t key);
RT_HIDDEN void rt_race_release_slow(struct rt_thread *self, uintptr_t key);
/* Both at once: an operation ordered with everything on its key. */
RT_HIDDEN void rt_race_sync_slow(struct rt_thread *self, uintptr_t key);
static inline void rt_race_acquire(struct rt_thread *self, uintptr_t key)
{
	if (RT_UNLIKELY(rt_race.on))
		rt_race_acquire_slow(self, key);
}
static inline void rt_race_release(struct rt_thread *self, uintptr_t key)
{
	if (RT_UNLIKELY(rt_race.on))
		rt_race_release_slow(self, key);
}
static inline void rt_race_sync(struct rt_thread *self, uintptr_t key)
{
	if (RT_UNLIKELY(rt_race.on))
		rt_race_sync_slow(self, key);
}
/* Thread t was created by self (its clock starts from self's). */
RT_HIDDEN void rt_race_created(struct rt_thread *self, struct rt_thread *t);
/* t ends: what joins it acquires. */
RT_HIDDEN void rt_race_finished_slow(struct rt_thread *t);
static inline void rt_race_finished(struct rt_thread *t)
{
	if (RT_UNLIKELY(rt_race.on))
		rt_race_finished_slow(t);
}
/* self joined t (or saw it end: the harness's end waits for every thread). */
RT_HIDDEN void rt_race_joined_slow(struct rt_thread *self, const struct rt_thread *t);
static inline void rt_race_joined(struct rt_thread *self, const struct rt_thread *t)
{
	if (RT_UNLIKELY(rt_race.on))
		rt_race_joined_slow(self, t);
}
/* An atomic operation on addr, with the TSan ABI's memory orders (0
 * relaxed, 1 consume, 2 acquire, 3 release, 4 acq_rel, 5 seq_cst):
 * load and store say which halves it has; a failed compare-exchange is a
 * load with its failure order. */
RT_HIDDEN void rt_race_atomic_slow(struct rt_thread *self, uintptr_t addr, bool load, bool store,
				   int mo);
static inline void rt_race_atomic(struct rt_thread *self, uintptr_t addr, bool load, bool store,
				  int mo)
{
	if (RT_UNLIKELY(rt_race.on) && self)
		rt_race_atomic_slow(self, addr, load, store, mo);
}
RT_HIDDEN void rt_race_fence_slow(struct rt_thread *self, int mo);
static inline void rt_race_fence(struct rt_thread *self, int mo)
{
	if (RT_UNLIKELY(rt_race.on) && self)
		rt_race_fence_slow(self, mo);
}
/* Thread slot's current epoch, and whether self's clock knows (slot, c). */
RT_HIDDEN uint32_t rt_race_epoch(int slot);
RT_HIDDEN bool rt_race_knows(const struct rt_thread *self, int slot, uint32_t c);

/* ---- rt_race_shadow.c: accesses ------------------------------------------- */

/* self made a plain access, just now (after its scheduling point). */
RT_HIDDEN void rt_race_access_slow(struct rt_thread *self, uintptr_t addr, uint32_t size,
				   bool write, const void *site);
static inline void rt_race_access(struct rt_thread *self, uintptr_t addr, uint32_t size,
				  bool write, const void *site)
{
	if (RT_UNLIKELY(rt_race.on))
		rt_race_access_slow(self, addr, size, write, site);
}
/* Memory freed, or a new thread's stack: what was recorded there is gone. */
RT_HIDDEN void rt_race_forget_slow(uintptr_t addr, size_t size);
static inline void rt_race_forget(uintptr_t addr, size_t size)
{
	if (RT_UNLIKELY(rt_race.on))
		rt_race_forget_slow(addr, size);
}
RT_HIDDEN void rt_race_shadow_begin(void);

/* ---- rt_race_report.c ----------------------------------------------------- */

/* One access as the shadow keeps it, and as a report shows it. */
struct rt_race_access {
	const void *site;
	uint32_t clock;	  /* its thread's epoch */
	uint32_t step;	  /* the scheduling step it came at */
	uint32_t stack;	  /* its call sites in the stack depot (0: none) */
	uint16_t mask;	  /* bytes of its granule */
	uint8_t slot;
	uint8_t flags;	  /* RT_RACE_WRITE */
	uint32_t size;	  /* the whole access's, for the report */
	uint32_t tid;	  /* its thread's creation number */
};
#define RT_RACE_WRITE 1

/* The call sites of self now, as a depot id (0 when the depot is full). */
RT_HIDDEN uint32_t rt_race_stack_of(const struct rt_thread *self);
/* A race between earlier access prev and self's access now, at addr. */
RT_HIDDEN void rt_race_found(struct rt_thread *self, uintptr_t addr,
			     const struct rt_race_access *prev, const struct rt_race_access *now);
RT_HIDDEN void rt_race_report_begin(void);

/* ---- rt_race_json.c: the report for machines ---------------------------- */

/* One reported race as rt_race_report.c symbolized it: the two accesses
 * (now, then the previous one) with their frames, and the location. */
struct rt_sym;
struct rt_race_seen {
	uint64_t key;
	uintptr_t addr;
	const struct rt_race_access *acc[2];
	const uintptr_t *pc[2];
	const struct rt_sym *sym[2];
	int n[2];
	const char *where; /* "heap", "global", "stack" or "memory" */
	const char *name;  /* a global's name, "" otherwise */
	uint32_t stack_tid; /* "stack": whose */
	uintptr_t block_lo, block_hi; /* "heap": the block */
	const struct rt_sym *alloc;   /* "heap": its allocation site, or NULL */
};
/* Appends the race as one line of JSON to SCHEDFUZZ_RACE_JSON, if set. */
RT_HIDDEN void rt_race_json(const struct rt_race_seen *r);
/* self created t: where, for the report's "created by". */
RT_HIDDEN void rt_race_note_created(const struct rt_thread *self, const struct rt_thread *t);

/* ---- rt_race_annotate.c, rt_race_suppress.c: what the program says ------- */

/* addr is in a range AnnotateBenignRaceSized marked. */
RT_HIDDEN bool rt_race_benign(uintptr_t addr);
/* self is inside AnnotateIgnoreReads (write: Writes) Begin/End. */
RT_HIDDEN bool rt_race_ignoring(const struct rt_thread *self, bool write);
RT_HIDDEN void rt_race_annotations_begin(void);
/* __tsan_ignore_thread_begin (+1) and _end (-1). */
RT_HIDDEN void rt_race_ignore_thread(int delta);
/* The rule (as written, with its file) that suppresses a race whose two
 * accesses' frames are pcs/syms [first[a], first[a] + count[a]); NULL if
 * none does. */
struct rt_sym;
RT_HIDDEN const char *rt_race_suppressed(const uintptr_t *pcs, const struct rt_sym *syms,
					 const int *first, const int *count);
/* Some suppression rule was given. */
RT_HIDDEN bool rt_race_suppressions_any(void);
/* TSan's pattern: '*' any run, '^' and '$' anchors, else a substring. */
RT_HIDDEN bool rt_race_pattern_matches(const char *pattern, const char *s);

/* ---- rt_race_keep.c: the explorer ----------------------------------------- */

/* SCHEDFUZZ_RACES as a mode: off when unset (a program run directly or
 * under an engine); `schedfuzz run` and `replay` set report unless told. */
RT_HIDDEN enum rt_race_mode rt_race_mode_from_env(void);
/* After a schedule: save and replay an input for a new race it showed
 * (report mode); not replayed when the schedule failed too (the failure's
 * replay shows it). False if no input could be saved. */
RT_HIDDEN bool rt_race_keep(const struct rt_result *r, bool failed, uint64_t index,
			    const uint8_t *input, size_t size, const char *out, int argc, char **argv, char **envp,
			    struct rt_result *shared, unsigned timeout);
/* Before the first schedule: say why races go undetected, if they do. */
RT_HIDDEN void rt_race_explore_begin(void);
/* Pairs kept so far, and the run's last line about them. */
RT_HIDDEN uint32_t rt_race_kept(void);
RT_HIDDEN void rt_race_summary(uint64_t runs);

#endif
