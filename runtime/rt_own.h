/* rt_own.h - which thread owns each piece of memory in this execution, so
 * that only accesses to memory two threads touched are scheduling points.
 *
 * The shadow is one 16-bit cell per 16-byte granule (glibc's malloc
 * alignment, so two live heap blocks never share one), at a fixed offset
 * from the address as in ThreadSanitizer and ASan: one shift, one load,
 * one compare. A cell holds the execution's generation (high byte) and
 * the owner's slot + 1, RT_OWN_READ or RT_OWN_SHARED (low byte), the
 * states of Eraser's memory (SOSP'97): exclusive to one thread, read by
 * several, read and written by several. A cell of
 * another generation is untouched in this execution, so a new execution
 * forgets everything by counting up (the whole shadow is dropped with one
 * madvise when the byte wraps). docs/cost.md says what this model keeps
 * and what it gives up. */
#ifndef SCHEDFUZZ_RT_OWN_H
#define SCHEDFUZZ_RT_OWN_H

#include "rt_internal.h"

#define RT_OWN_SHIFT 4
#define RT_OWN_GRANULE (1u << RT_OWN_SHIFT)
#define RT_OWN_ADDR_BITS 47 /* x86-64 user space without 5-level paging */
#define RT_OWN_INIT 0xfd    /* low byte of a cell touched before the execution's
			     * first thread creation: every later access is
			     * ordered after it, so the next thread owns it */
#define RT_OWN_READ 0xfe    /* low byte of a cell a second thread read, and nobody
			     * wrote since: reads of it are no points, a write is */
#define RT_OWN_SHARED 0xff  /* low byte of a cell two threads touched, one writing */
/* Private accesses a thread makes between two that are scheduling points
 * anyway (a tick): a loop over private memory then still reaches points,
 * so that the watchdog sees it compute and fairness sees a spin on memory
 * nobody else touched yet, deterministically. */
#define RT_OWN_TICK (1u << 14)
_Static_assert(RT_MAX_THREADS < RT_OWN_INIT, "a slot + 1 fits below the other marks");

struct rt_own_state {
	uint16_t *map;    /* cell of granule g at map[g] */
	uintptr_t limit;  /* granules watched: 0 when every access is a point */
	uint16_t gen;     /* this execution's generation (1 to 0xfe), in the high byte */
	uint16_t read;    /* gen | RT_OWN_READ */
};
extern struct rt_own_state rt_own RT_HIDDEN;

/* The fast path: a plain access by t to granules t owns (one, or two when
 * it straddles a boundary), or a read of granules only read since a
 * second thread came, and not the tick's turn. t->own_tag is the
 * complement of the cell value of t's granules, or 0 when t's next
 * private access must be a point anyway (a new thread's zeroed tag is
 * that too). Complemented, an untouched cell (0) never matches, and no
 * cell matches 0: generations stop at 0xfe, so no cell is 0xffff. The
 * thread's own stack is no exception here: t owns it like any memory it
 * touched first, and the slow path claims it back from a thread that
 * used the same stack before. */
static inline __attribute__((always_inline)) bool rt_own_ok(uint16_t c, uint16_t tag, bool write)
{
	return (uint16_t)~c == tag || (!write && c == rt_own.read);
}

static inline __attribute__((always_inline)) bool rt_own_mine(struct rt_thread *t, uintptr_t a,
							       uint32_t size, bool write)
{
	if (size > RT_OWN_GRANULE) /* a range: the slow path walks it */
		return false;
	uintptr_t g = a >> RT_OWN_SHIFT, h = (a + size - 1) >> RT_OWN_SHIFT;
	uint16_t tag = t->own_tag;
	if (RT_UNLIKELY(h >= rt_own.limit) || !rt_own_ok(rt_own.map[g], tag, write) ||
	    !rt_own_ok(rt_own.map[h], tag, write))
		return false;
	return --t->own_left != 0;
}

/* The slow path of a plain access: claims the untouched granules for t,
 * moves the others along Eraser's states, and says whether the access is
 * a scheduling point (the first access of a second thread, any write of
 * a granule several threads touched, any read of one written since:
 * RT_OWN_POINT_SHARED; t's first private access after it published
 * something, the tick: RT_OWN_POINT). */
enum rt_own_verdict { RT_OWN_PASS, RT_OWN_POINT, RT_OWN_POINT_SHARED };
RT_HIDDEN enum rt_own_verdict rt_own_point(struct rt_thread *t, uintptr_t a, uint32_t size,
					   bool write);
/* An access to t's own stack: never a point; its granules become t's
 * (unless another thread was handed an object there). */
RT_HIDDEN void rt_own_stack(struct rt_thread *t, uintptr_t a, uint32_t size);
/* An atomic or volatile access: shared on purpose, whoever touched it. */
RT_HIDDEN void rt_own_share(uintptr_t a, uint32_t size);
/* Freed memory belongs to nobody: its next user owns it afresh. */
RT_HIDDEN void rt_own_forget(uintptr_t a, size_t size);
/* A new execution: every granule untouched. watch: private accesses are
 * no scheduling points in it (else every access is one). */
RT_HIDDEN void rt_own_begin(bool watch);
/* Self wrote shared memory or published otherwise (an atomic update, a
 * release, a thread created): its next private access is a point, so
 * that another thread can come between a publication and what follows. */
static inline void rt_own_published(struct rt_thread *self) { self->own_tag = 0; }

#endif
