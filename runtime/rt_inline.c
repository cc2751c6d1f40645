/* rt_inline.c - the memory-access hooks' fast path, compiled to LLVM
 * bitcode (schedfuzz_inline.bc) that schedfuzz-cc links into each object
 * it compiles, so that the common check, memory this thread owns, runs
 * inline where the program accesses it instead of in a call
 * (fuzz/schedfuzz_cc.c, docs/cost.md). These definitions replace
 * rt_abi.c's hooks of the same names inside that object: the same test
 * (rt_own_mine), and the same slow path, entered through
 * rt_access_slow, whose call's return address is the access's site as the
 * hook's was.
 *
 * Not part of the runtime's archive, and not in its code section: this
 * code runs as the program's own. */
/* What the runtime sets once for the program's code (rt_own_shadow) or
 * changes only outside its frames (rt_self_or_nobody) is constant here. */
#define RT_INLINE_CONSTANTS
#include "rt_own.h"

#define FAST(NAME, N, WRITE, ALIGNED)                                                        \
	__attribute__((always_inline)) void NAME(void *p)                                    \
	{                                                                                    \
		struct rt_thread *t = rt_self_or_nobody;                                         \
		if (!rt_own_mine(t, (uintptr_t)p, N, WRITE, ALIGNED))                            \
			rt_access_slow(t, p, N, WRITE);                                          \
	}

#define ACCESS(N)                                                                            \
	FAST(__tsan_read##N, N, false, true)                                                 \
	FAST(__tsan_write##N, N, true, true)                                                 \
	FAST(__tsan_unaligned_read##N, N, false, false)                                      \
	FAST(__tsan_unaligned_write##N, N, true, false)

ACCESS(1)
ACCESS(2)
ACCESS(4)
ACCESS(8)
ACCESS(16)
