/* rt_own.h - which thread owns each piece of memory in this execution, so
 * that only accesses to memory two threads touched are scheduling points.
 *
 * The shadow is one 16-bit cell per 16-byte granule (glibc's malloc
 * alignment, so two live heap blocks never share one), at a fixed offset
 * from the address as in ThreadSanitizer and ASan: one shift, one load,
 * a compare or three. A cell holds a generation (high byte) and a state
 * (low byte), the states of Eraser's memory (SOSP'97) with one more:
 * exclusive to one thread (its slot + 1), read by one thread only since
 * the last global synchronisation (RT_OWN_READ1 + slot), read by several
 * (RT_OWN_READ), read and written by several (RT_OWN_SHARED).
 *
 * The generation counts up at each execution and at each global
 * synchronisation within it (the first thread creation, a barrier
 * opening): a cell of an older generation of this execution was last
 * touched before everything that any thread does now (settled), one of an
 * earlier execution is untouched. So a new execution, or a new phase of
 * one, forgets in O(1); the whole shadow is dropped with one madvise when
 * the byte wraps. docs/cost.md says what this model keeps and what it
 * gives up. */
#ifndef SCHEDFUZZ_RT_OWN_H
#define SCHEDFUZZ_RT_OWN_H

#include "rt_internal.h"

#define RT_OWN_SHIFT 4
#define RT_OWN_GRANULE (1u << RT_OWN_SHIFT)
#define RT_OWN_ADDR_BITS 47 /* x86-64 user space without 5-level paging */
#define RT_OWN_READ1 0x81   /* + slot: read by that thread alone since it settled */
#define RT_OWN_READ1_SLOTS (RT_OWN_READ - RT_OWN_READ1) /* slots with a READ1 state */
#define RT_OWN_READ 0xfe    /* read by several since a write: reads are no points */
#define RT_OWN_SHARED 0xff  /* read and written by several */
/* No cell's value (generations stop at 0xfe): a tag that matches nothing. */
#define RT_OWN_NONE 0xffff
/* With SCHEDFUZZ_MEMORY=0, the value of the map's one cell and the tag of
 * every thread that reached the slow path since its last publication: its
 * accesses pass, and cost the check alone (rt_own_unwatched). No cell of
 * a reserved shadow has it either. */
#define RT_OWN_ALL 0xff00
/* Private accesses a thread makes between two that are scheduling points
 * anyway (a tick): a loop over private memory then still reaches points,
 * so that the watchdog sees it compute and fairness sees a spin on memory
 * nobody else touched yet, deterministically. */
#define RT_OWN_TICK (1u << 14)
_Static_assert(RT_MAX_THREADS < RT_OWN_READ1, "a slot + 1 fits below the other states");

struct rt_own_state {
	uintptr_t limit;  /* granules watched: 0 when every access is a point */
	uint16_t gen;     /* the current generation (1 to 0xfe), in the high byte */
	uint16_t first;   /* the generation this execution started with */
	uint16_t read;    /* gen | RT_OWN_READ, RT_OWN_NONE when not watching */
};
extern struct rt_own_state rt_own RT_HIDDEN;
/* Where the shadow is: set once, when it is reserved at start-up
 * (rt_own.c), before the program's own constructors. The check compiled
 * into the program (RT_INLINE_CONSTANTS, rt_inline.c) takes it for a
 * constant, so that its loops load it once rather than at every access,
 * across the slow path's calls too. Before the reservation, and where it
 * fails, the map is one cell (mask 0), which no tag matches; with
 * SCHEDFUZZ_MEMORY=0 it stays that cell, which RT_OWN_ALL tags match. */
struct rt_own_shadow {
	uint16_t *map;   /* cell of granule g at map[g & mask] */
	uintptr_t mask;
};
#ifdef RT_INLINE_CONSTANTS
extern const struct rt_own_shadow rt_own_shadow RT_HIDDEN;
#else
extern struct rt_own_shadow rt_own_shadow RT_HIDDEN;
#endif

/* t's tags are cell values of the current generation: its exclusive state
 * (own_tag) and its READ1 state (own_r1), or RT_OWN_NONE when its next
 * private access must be a point anyway (rt_own_thread_begin sets that). */
#define RT_OWN_PAIR(tag) ((uint32_t)(tag) * 0x10001u) /* two cells of tag, one word */
static inline void rt_own_set_tags(struct rt_thread *t, uint16_t tag, uint16_t r1)
{
	t->own_tag = tag;
	t->own_r1 = r1;
	t->own_tag_pair = RT_OWN_PAIR(tag);
	t->own_r1_pair = RT_OWN_PAIR(r1);
}
/* t's tags in the current generation: its exclusive state, and its READ1
 * state where its slot has one (else the exclusive one stands for it). */
static inline uint16_t rt_own_mine_tag(const struct rt_thread *t)
{
	return (uint16_t)(rt_own.gen | (t->slot + 1));
}
static inline uint16_t rt_own_r1_tag(const struct rt_thread *t)
{
	return t->slot < RT_OWN_READ1_SLOTS ? (uint16_t)(rt_own.gen | (RT_OWN_READ1 + t->slot))
					    : rt_own_mine_tag(t);
}
static inline __attribute__((always_inline)) bool rt_own_ok(const struct rt_thread *t, uint16_t c,
							     bool write)
{
	return c == t->own_tag || (!write && (c == t->own_r1 || c == rt_own.read));
}

/* The fast path: an access by t to granules (one, or two when it
 * straddles a boundary) it owns, or a read of granules only read since,
 * and not the tick's turn. The thread's own stack is no exception here:
 * t owns it like any memory it touched first, and the slow path claims it
 * back from a thread that used the same stack before.
 *
 * No test for the shadow's bounds: it covers the user address space below
 * 2^47 (RT_OWN_ADDR_BITS), and when accesses are not watched, no tag and
 * no read state matches a cell. The mask keeps an address above it (only
 * with 5-level paging, where a program asked for one) from reading outside
 * the shadow, but aliases it to a lower granule's cell, which may pass.
 *
 * aligned: the compiler knows the access naturally aligned (the hooks
 * without "unaligned" in their names), so that it straddles no granule but
 * in a program that breaks its alignment promises: one lookup, and a test
 * of the address's low bits (misaligned?) that such a program alone takes,
 * to look at the second granule too. An unaligned access (8 bytes at any
 * offset, as a match finder compares) straddles one time in two, and a
 * branch on that would be mispredicted half the time: so it loads its
 * granule's cell and the next one in one word, which passes in one
 * compare when both are t's, or both read by t alone (the bytes around it
 * belong to the same block, the common case). Otherwise the two granules
 * it touches, one by one: the next cell alone is not t's (the block ends
 * there) and the access does not reach it, or one of them is no pass.
 * The shadow has a cell past its last granule's for that load (rt_own.c). */
static inline __attribute__((always_inline)) bool rt_own_mine(struct rt_thread *t, uintptr_t a,
							       uint32_t size, bool write,
							       bool aligned)
{
	if (size > RT_OWN_GRANULE) /* a range: the slow path walks it */
		return false;
	const uint16_t *map = rt_own_shadow.map;
	uintptr_t m = rt_own_shadow.mask;
	uintptr_t g = a >> RT_OWN_SHIFT & m, h = (a + size - 1) >> RT_OWN_SHIFT & m;
	if (aligned && size <= 8) { /* 16 bytes are "aligned" at 8 */
		if (!rt_own_ok(t, map[g], write) ||
		    RT_UNLIKELY((a & (size - 1)) && h != g && !rt_own_ok(t, map[h], write)))
			return false;
	} else {
		uint32_t pair;
		__builtin_memcpy(&pair, &map[g], sizeof pair);
		if (pair != t->own_tag_pair && (write || pair != t->own_r1_pair) &&
		    (!rt_own_ok(t, map[g], write) || !rt_own_ok(t, map[h], write)))
			return false;
	}
	if (write) /* known where the hook is compiled: a store on writes alone */
		t->own_wrote = true;
	return --t->own_left != 0;
}

/* Is it the tick's turn (rt_own_mine counted down to it)? Then the next
 * one is RT_OWN_TICK private accesses away. A thread starts with a whole
 * count (rt_own_thread_begin): 0 is only ever the count's end, whatever
 * memory the access that reached it touched, its own stack included. */
static inline __attribute__((always_inline)) bool rt_own_tick_due(struct rt_thread *t)
{
	if (RT_LIKELY(t->own_left != 0))
		return false;
	t->own_left = RT_OWN_TICK;
	return true;
}
static inline void rt_own_thread_begin(struct rt_thread *t)
{
	rt_own_set_tags(t, RT_OWN_NONE, RT_OWN_NONE);
	t->own_left = RT_OWN_TICK;
	t->own_wrote = false;
	t->at_tick = false;
}

/* The slow path of a plain access: claims the untouched granules for t,
 * moves the others along the states, and says whether the access is a
 * scheduling point: RT_OWN_POINT_SHARED for the first access of a second
 * thread after a write, any write of a granule several threads touched,
 * and the first write of a settled one; RT_OWN_POINT for t's first
 * private access after it published something; RT_OWN_POINT_TICK for
 * the tick alone, a point in the middle of private work. */
enum rt_own_verdict { RT_OWN_PASS, RT_OWN_POINT_TICK, RT_OWN_POINT, RT_OWN_POINT_SHARED };
RT_HIDDEN enum rt_own_verdict rt_own_point(struct rt_thread *t, uintptr_t a, uint32_t size,
					   bool write, const void *site);
/* A first touch (rt_own_first.c): site claims untouched memory. Is that
 * a point? Yes for each site's first claim in an execution (bounded:
 * docs/cost.md). rt_own_first_begin starts an execution's count. */
RT_HIDDEN bool rt_own_first_touch(const void *site);
RT_HIDDEN void rt_own_first_begin(void);
/* The slow path of the fast path that schedfuzz-cc compiles into the
 * program itself (rt_inline.c): what the hooks do when rt_own_mine says
 * no. That code reads struct rt_thread and rt_own as this runtime lays
 * them out, so the name carries RT_INLINE_ABI, a hash of the runtime's
 * headers (runtime/CMakeLists.txt): an object compiled against another
 * build fails to link rather than reading the wrong fields.
 *
 * It keeps every register of its caller but r11 (preserve_most), so
 * that a loop with checks inline need not keep its values in the few
 * registers a call leaves alone, or spill them, for a call it rarely
 * makes: the slow path saves what it uses instead (a compressor's
 * worker loop went from 130 stack accesses to 99; docs/cost.md). */
#ifndef RT_INLINE_ABI
#define RT_INLINE_ABI 0
#endif
#define RT_ACCESS_SLOW_(abi) __schedfuzz_access_slow_##abi
#define RT_ACCESS_SLOW(abi) RT_ACCESS_SLOW_(abi)
#define rt_access_slow RT_ACCESS_SLOW(RT_INLINE_ABI)
#define RT_SLOW_CALL __attribute__((preserve_most))
RT_EXPORT RT_SLOW_CALL void rt_access_slow(struct rt_thread *t, void *p, uint32_t size, bool write);
/* An access to t's own stack: never a point; its granules become t's
 * (unless another thread was handed an object there). */
RT_HIDDEN void rt_own_stack(struct rt_thread *t, uintptr_t a, uint32_t size);
/* An atomic or volatile access: shared on purpose, whoever touched it. */
RT_HIDDEN void rt_own_share_slow(uintptr_t a, size_t size);
/* Shared already: the common case of a spin or a counter. */
static inline __attribute__((always_inline)) bool rt_own_is_shared(uintptr_t a, uint32_t size)
{
	uintptr_t g = a >> RT_OWN_SHIFT, h = (a + size - 1) >> RT_OWN_SHIFT;
	uint16_t shared = (uint16_t)(rt_own.gen | RT_OWN_SHARED);
	return size <= RT_OWN_GRANULE && h < rt_own.limit && rt_own_shadow.map[g] == shared &&
	       rt_own_shadow.map[h] == shared;
}
/* t's access to granules shared already (rt_own_is_shared), a point:
 * what rt_own_point does to t's tags and tick then, without its walk. */
static inline __attribute__((always_inline)) void rt_own_shared_access(struct rt_thread *t)
{
	if (t->own_tag != rt_own_mine_tag(t))
		rt_own_set_tags(t, rt_own_mine_tag(t), rt_own_r1_tag(t));
	rt_own_tick_due(t);
}
static inline __attribute__((always_inline)) void rt_own_share(uintptr_t a, uint32_t size)
{
	if (!rt_own_is_shared(a, size))
		rt_own_share_slow(a, size);
}
/* SCHEDFUZZ_MEMORY=0, no access a point: t's next accesses pass the check
 * (RT_OWN_ALL), a whole count of them before its next slow path. */
static inline void rt_own_unwatched(struct rt_thread *t)
{
	rt_own_set_tags(t, RT_OWN_ALL, RT_OWN_ALL);
	t->own_left = RT_OWN_TICK;
}
/* Freed memory belongs to nobody: its next user owns it afresh. */
RT_HIDDEN void rt_own_forget(uintptr_t a, size_t size);
/* A new execution: every granule untouched. watch: private accesses are
 * no scheduling points in it (else every access is one). */
RT_HIDDEN void rt_own_begin(bool watch);
/* Everything every thread did so far happens before everything any
 * thread does from now on (the first thread creation, a barrier opening
 * to all live threads): every touched granule is settled. */
RT_HIDDEN void rt_own_settle(void);
/* Self wrote shared memory or published otherwise (an atomic update, a
 * release, a thread created): its next private access is a point, so
 * that another thread can come between a publication and what follows. */
static inline void rt_own_published(struct rt_thread *self)
{
	self->own_tag = RT_OWN_NONE;
	self->own_tag_pair = RT_OWN_PAIR(RT_OWN_NONE);
}

#endif
