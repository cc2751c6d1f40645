/* rt_abi.c - the ThreadSanitizer compiler ABI, implemented by our runtime.
 *
 * Code built with -fsanitize=thread calls these hooks before every memory
 * access, around every function, and in place of every atomic operation.
 * Every access hook funnels into one inline check (a controlled thread,
 * on memory only it touched? rt_own.h) and one out-of-line slow path
 * (KCSAN's layout). Atomic hooks
 * perform the operation themselves, after the scheduling point, so that
 * the schedule decides the order of atomics too. Since only one controlled
 * thread runs at a time, we perform every atomic as sequentially
 * consistent: weak-memory reorderings are out of scope.
 *
 * Progress, for fairness (rt_sched.c): an atomic load is a read, fresh or
 * repeated; a read-modify-write is progress only when it changed the value
 * (a failed CAS or a test-and-set on a held flag is what a spin lock's
 * retry loop does). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rt_internal.h"
#include "rt_own.h"
#include "rt_race.h"

/* The hooks are not the runtime's section (rt_section.h): a thread that
 * spins in a loop whose accesses the hooks wave through (its own stack)
 * spends its time here, where the watchdog must be able to preempt it.
 * What they change outside the runtime's calls is the thread's own call
 * context, and the progress counters after an atomic: nothing another
 * thread reads half-changed. */
#pragma clang section text = "schedfuzz_hooks"

#define HOOK RT_EXPORT

/* An access the check did not pass: an event of t's, unless t is
 * rt_nobody (an uncontrolled thread) or a forked child's copy of its
 * parent's thread, which a loop of the program kept (rt_self_or_nobody).
 * Nothing is written then: rt_nobody is every uncontrolled thread's, and
 * its count, which may wrap, means nothing. */
static inline void not_passed(struct rt_thread *t, const volatile void *p, uint32_t size,
			      bool write, const void *pc)
{
	if (RT_LIKELY(t == rt_self))
		rt_access(t, (uintptr_t)p, size, write, pc);
}

/* Memory only this thread touched so far is no scheduling point
 * (rt_own.h): the common case ends here, inline, the thread's own stack
 * included. aligned: the compiler knows the access naturally aligned (one
 * shadow lookup, rt_own_mine). The check compiled into the program
 * (rt_inline.c) is the same. */
static inline void check(const volatile void *p, uint32_t size, bool write, bool aligned,
			 const void *pc)
{
	struct rt_thread *t = rt_self_or_nobody;
	if (!rt_own_mine(t, (uintptr_t)p, size, write, aligned))
		not_passed(t, p, size, write, pc);
}

static inline void on_access(const volatile void *p, uint32_t size, bool write, const void *pc)
{
	check(p, size, write, false, pc);
}

static inline void on_aligned(const volatile void *p, uint32_t size, bool write, const void *pc)
{
	check(p, size, write, true, pc);
}

/* Entered from the check compiled into the program (rt_inline.c), when it
 * did not pass: its return address is in the program, at the access, as a
 * hook's is. */
HOOK RT_NOINLINE RT_SLOW_CALL void rt_access_slow(struct rt_thread *t, void *p, uint32_t size,
						  bool write)
{
	not_passed(t, p, size, write, RT_CALLER());
}

/* ---- plain, unaligned and compound accesses (volatile ones: rt_sched.c) -- */

#define ACCESS_HOOKS(N)                                                                    \
	HOOK void __tsan_read##N(void *p) { on_aligned(p, N, false, RT_CALLER()); }           \
	HOOK void __tsan_write##N(void *p) { on_aligned(p, N, true, RT_CALLER()); }           \
	HOOK void __tsan_read##N##_pc(void *p, void *pc) { on_aligned(p, N, false, pc); }     \
	HOOK void __tsan_write##N##_pc(void *p, void *pc) { on_aligned(p, N, true, pc); }     \
	HOOK void __tsan_unaligned_read##N(const void *p) { on_access(p, N, false, RT_CALLER()); } \
	HOOK void __tsan_unaligned_write##N(void *p) { on_access(p, N, true, RT_CALLER()); }  \
	/* A compound access (x += 1) is a read immediately followed by a      \
	 * write: one scheduling point, recorded as the write it ends with. */ \
	HOOK void __tsan_read_write##N(void *p) { on_aligned(p, N, true, RT_CALLER()); }      \
	HOOK void __tsan_unaligned_read_write##N(void *p) { on_access(p, N, true, RT_CALLER()); }

ACCESS_HOOKS(1)
ACCESS_HOOKS(2)
ACCESS_HOOKS(4)
ACCESS_HOOKS(8)
ACCESS_HOOKS(16)

HOOK void __tsan_read_range(void *p, unsigned long size)
{
	if (size)
		on_access(p, (uint32_t)(size > UINT32_MAX ? UINT32_MAX : size), false, RT_CALLER());
}

HOOK void __tsan_write_range(void *p, unsigned long size)
{
	if (size)
		on_access(p, (uint32_t)(size > UINT32_MAX ? UINT32_MAX : size), true, RT_CALLER());
}

/* C++ vtable pointer: a read of 8 bytes, and an update that is a write
 * only when the value really changes (constructors re-store the same one). */
HOOK void __tsan_vptr_read(void **p)
{
	on_aligned(p, sizeof *p, false, RT_CALLER());
}

HOOK void __tsan_vptr_update(void **p, void *new_val)
{
	if (*p != new_val)
		on_aligned(p, sizeof *p, true, RT_CALLER());
}

/* ---- call stack context ---------------------------------------------------- */

HOOK void __tsan_func_entry(void *pc)
{
	struct rt_thread *t = rt_self;
	if (t) {
		uint32_t d = t->depth++;
		t->ctx[d & (RT_CTX_RING - 1)] = pc;
		/* Frames [0, ctx_lost) were overwritten. A frame entered below
		 * that (after returns) is whole again, those under it stay
		 * lost; a frame RT_CTX_RING deeper overwrites frame d -
		 * RT_CTX_RING. Returns leave it as it is: readers clamp it to
		 * the depth (rt_ctx_count), so they cost nothing more. */
		if (RT_UNLIKELY(d < t->ctx_lost))
			t->ctx_lost = d;
		else if (RT_UNLIKELY(d >= RT_CTX_RING) && d - RT_CTX_RING + 1 > t->ctx_lost)
			t->ctx_lost = d - RT_CTX_RING + 1;
	}
}

HOOK void __tsan_func_exit(void)
{
	struct rt_thread *t = rt_self;
	if (t && t->depth)
		t->depth--;
}

HOOK void __tsan_ignore_thread_begin(void)
{
	rt_race_ignore_thread(1);
}

HOOK void __tsan_ignore_thread_end(void)
{
	rt_race_ignore_thread(-1);
}

HOOK void __tsan_init(void)
{
	rt_init();
}

/* ---- atomics ------------------------------------------------------------------ */

#ifdef RT_BESIDE_ASAN
/* In the ASan mode the wrappers have clang's TSan pass turn atomics (only
 * atomics) into these hooks, which SanitizerCoverage alone would not show
 * us. The operation then runs here, where ASan's instrumentation is not:
 * we ask ASan about the address as that instrumentation would, and let it
 * report with the program's frame on top. */
extern void *__asan_region_is_poisoned(void *beg, size_t size);
extern void __asan_report_error(const void *pc, void *bp, void *sp, const volatile void *addr,
				int is_write, size_t size);
/* The caller's frame pointer, saved at the bottom of ours (the runtime
 * keeps frame pointers): where ASan's unwinder starts above the hook. */
static inline __attribute__((always_inline)) void *caller_frame(void)
{
	return *(void **)__builtin_frame_address(0);
}
#define ASAN_CHECK(p, size, is_write, pc)                                                   \
	do {                                                                                \
		if (RT_UNLIKELY(__asan_region_is_poisoned((void *)(uintptr_t)(p), size)))    \
			__asan_report_error(pc, caller_frame(), __builtin_frame_address(0), \
					    p, is_write, size);                              \
	} while (0)
#else
#define ASAN_CHECK(p, size, is_write, pc) ((void)0)
#endif

/* Always inlined, so that the frames ASAN_CHECK names are the hook's.
 * An atomic is a scheduling point even on the thread's own stack: an
 * atomic there is shared on purpose (an MCS lock's queue node, a flag
 * whose address another thread was given). */
static inline __attribute__((always_inline)) struct rt_thread *
atomic_point(const volatile void *p, uint32_t size, enum rt_ev ev, const void *pc)
{
	struct rt_thread *t = rt_self;
	if (t) {
		rt_own_share((uintptr_t)p, size);
		rt_point(t, ev, (uintptr_t)p, NULL, size, pc);
	}
	ASAN_CHECK(p, size, ev != EV_ATOMIC_LOAD, pc);
	return t;
}

static inline void atomic_after(struct rt_thread *t, const volatile void *p, bool changed)
{
	if (t && changed)
		rt_progress(t);
}

#define SC __ATOMIC_SEQ_CST

#define RMW(N, T, NAME, OP)                                                                  \
	HOOK T __tsan_atomic##N##_fetch_##NAME(volatile T *a, T v, int mo)                   \
	{                                                                                    \
		struct rt_thread *t = atomic_point(a, N / 8, EV_ATOMIC_RMW, RT_CALLER());    \
		T old = __atomic_load_n(a, SC), nv;                                          \
		do                                                                           \
			nv = (T)(OP);                                                        \
		while (!__atomic_compare_exchange_n(a, &old, nv, false, SC, SC));            \
		rt_race_atomic(t, (uintptr_t)a, true, true, mo);                             \
		atomic_after(t, a, nv != old);                                               \
		return old;                                                                  \
	}

#define ATOMICS(N, T)                                                                        \
	HOOK T __tsan_atomic##N##_load(const volatile T *a, int mo)                          \
	{                                                                                    \
		struct rt_thread *t = rt_self;                                               \
		if (t)                                                                       \
			rt_atomic_load_point(t, (uintptr_t)a, N / 8, RT_CALLER());           \
		ASAN_CHECK(a, N / 8, false, RT_CALLER());                                    \
		rt_race_atomic(t, (uintptr_t)a, true, false, mo);                            \
		return __atomic_load_n(a, SC);                                               \
	}                                                                                    \
	HOOK void __tsan_atomic##N##_store(volatile T *a, T v, int mo)                       \
	{                                                                                    \
		struct rt_thread *t = atomic_point(a, N / 8, EV_ATOMIC_STORE, RT_CALLER());  \
		__atomic_store_n(a, v, SC);                                                  \
		rt_race_atomic(t, (uintptr_t)a, false, true, mo);                            \
		atomic_after(t, a, true);                                                    \
	}                                                                                    \
	HOOK T __tsan_atomic##N##_exchange(volatile T *a, T v, int mo)                       \
	{                                                                                    \
		struct rt_thread *t = atomic_point(a, N / 8, EV_ATOMIC_RMW, RT_CALLER());    \
		T old = __atomic_exchange_n(a, v, SC);                                       \
		rt_race_atomic(t, (uintptr_t)a, true, true, mo);                             \
		atomic_after(t, a, old != v);                                                \
		return old;                                                                  \
	}                                                                                    \
	RMW(N, T, add, old + v)                                                              \
	RMW(N, T, sub, old - v)                                                              \
	RMW(N, T, and, old & v)                                                              \
	RMW(N, T, or, old | v)                                                               \
	RMW(N, T, xor, old ^ v)                                                              \
	RMW(N, T, nand, ~(old & v))                                                          \
	HOOK int __tsan_atomic##N##_compare_exchange_strong(volatile T *a, T *c, T v, int mo, \
							    int fmo)                         \
	{                                                                                    \
		struct rt_thread *t = atomic_point(a, N / 8, EV_ATOMIC_CAS, RT_CALLER());    \
		bool ok = __atomic_compare_exchange_n(a, c, v, false, SC, SC);               \
		rt_race_atomic(t, (uintptr_t)a, true, ok, ok ? mo : fmo);                    \
		atomic_after(t, a, ok && *c != v);                                           \
		return ok;                                                                   \
	}                                                                                    \
	/* A weak CAS never fails spuriously here: with one thread running at a  \
	 * time there is no contention to lose to. */                             \
	HOOK int __tsan_atomic##N##_compare_exchange_weak(volatile T *a, T *c, T v, int mo,   \
							  int fmo)                           \
	{                                                                                    \
		return __tsan_atomic##N##_compare_exchange_strong(a, c, v, mo, fmo);         \
	}                                                                                    \
	HOOK T __tsan_atomic##N##_compare_exchange_val(volatile T *a, T c, T v, int mo,       \
						       int fmo)                              \
	{                                                                                    \
		struct rt_thread *t = atomic_point(a, N / 8, EV_ATOMIC_CAS, RT_CALLER());    \
		T expected = c;                                                              \
		bool ok = __atomic_compare_exchange_n(a, &expected, v, false, SC, SC);       \
		rt_race_atomic(t, (uintptr_t)a, true, ok, ok ? mo : fmo);                    \
		atomic_after(t, a, ok && c != v);                                            \
		return expected;                                                             \
	}

ATOMICS(8, uint8_t)
ATOMICS(16, uint16_t)
ATOMICS(32, uint32_t)
ATOMICS(64, uint64_t)
ATOMICS(128, unsigned __int128)

HOOK void __tsan_atomic_thread_fence(int mo)
{
	struct rt_thread *t = rt_self;
	if (t)
		rt_point(t, EV_FENCE, 0, NULL, 0, RT_CALLER());
	rt_race_fence(t, mo);
	__atomic_thread_fence(SC);
}

HOOK void __tsan_atomic_signal_fence(int mo)
{
	__atomic_signal_fence(SC);
}

/* ---- SanitizerCoverage's load and store callbacks (the ASan mode) ------------
 *
 * Clang will not combine the TSan instrumentation with ASan, so the ASan
 * mode builds with -fsanitize-coverage=trace-loads,trace-stores instead:
 * one callback before each load and store, with the address. They see what
 * the TSan hooks above see of plain accesses; atomics come through the
 * atomic hooks above, and an atomic load or store reaches both (the
 * callback first, as a plain access). Memory intrinsics (memcpy, memset)
 * are left to ASan's own checks and are no scheduling points. */

#define SANCOV_HOOKS(N, T)                                                                  \
	HOOK void __sanitizer_cov_load##N(T *p) { on_access(p, N, false, RT_CALLER()); }      \
	HOOK void __sanitizer_cov_store##N(T *p) { on_access(p, N, true, RT_CALLER()); }

SANCOV_HOOKS(1, uint8_t)
SANCOV_HOOKS(2, uint16_t)
SANCOV_HOOKS(4, uint32_t)
SANCOV_HOOKS(8, uint64_t)
SANCOV_HOOKS(16, __int128)

#ifndef RT_BESIDE_ASAN
/* ---- memcpy, memmove, memset ---------------------------------------------------
 *
 * Under -fsanitize=thread, clang turns struct copies and memory intrinsics
 * into plain calls to these, which the sanitizer runtime is expected to
 * intercept: each becomes one range read and one range write. Before the
 * real functions are found (early constructors), a byte loop serves; it is
 * volatile so that the compiler cannot turn it back into a memcpy call. */

static void *bytes_copy(void *d, const void *s, size_t n)
{
	volatile unsigned char *dst = d;
	const volatile unsigned char *src = s;
	if (dst < src) {
		for (size_t i = 0; i < n; i++)
			dst[i] = src[i];
	} else {
		for (size_t i = n; i-- > 0;)
			dst[i] = src[i];
	}
	return d;
}

static inline void ranges(const void *src, void *dst, size_t n, const void *pc)
{
	if ((uintptr_t)pc - rt.quiet_code_lo < rt.quiet_code_size)
		return;
	uint32_t size = (uint32_t)(n > UINT32_MAX ? UINT32_MAX : n);
	if (src)
		on_access(src, size, false, pc);
	on_access(dst, size, true, pc);
}

RT_INTERPOSE void *memcpy(void *restrict d, const void *restrict s, size_t n)
{
	if (rt_self && n)
		ranges(s, d, n, RT_CALLER());
	return rt_real.memcpy ? rt_real.memcpy(d, s, n) : bytes_copy(d, s, n);
}

RT_INTERPOSE void *memmove(void *d, const void *s, size_t n)
{
	if (rt_self && n)
		ranges(s, d, n, RT_CALLER());
	return rt_real.memmove ? rt_real.memmove(d, s, n) : bytes_copy(d, s, n);
}

RT_INTERPOSE void *memset(void *d, int c, size_t n)
{
	if (rt_self && n)
		ranges(NULL, d, n, RT_CALLER());
	if (rt_real.memset)
		return rt_real.memset(d, c, n);
	volatile unsigned char *p = d;
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)c;
	return d;
}
#endif /* ASan's own interceptors check and serve these beside it */
