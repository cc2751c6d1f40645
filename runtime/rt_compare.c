/* rt_compare.c - memcmp, strcmp and the other comparison functions libFuzzer
 * learns from: each calls the real function, then libFuzzer's hook with the
 * operands and the result.
 *
 * libFuzzer fills its table of compared operands (what mutations insert
 * into inputs) through the __sanitizer_weak_hook_* functions. A sanitizer
 * runtime's interceptors call them, and without a sanitizer clang links
 * libFuzzer's own interceptors instead; a default-mode program has neither
 * (TSan's runtime is never linked, and clang leaves libFuzzer's interceptors
 * out beside -fsanitize=thread), so a magic word compared with memcmp was
 * never learned. These are the interceptors, for the default mode only: in
 * the ASan mode ASan's own call the hooks (this file is not in that build).
 *
 * The hooks are weak: without libFuzzer (afl-fuzz, standalone, schedfuzz
 * run) they are absent and only the real function runs. libFuzzer's hooks
 * do nothing outside its callback. While one runs, rt_self is cleared: its
 * bookkeeping (a memcpy into its table) is not the program's access.
 *
 * Before the real function is found, and while it is looked up (dlsym may
 * compare strings itself), a byte loop serves. These run in the program's
 * threads as libc's would, so they sit with the ABI hooks, where the
 * watchdog may preempt a thread (rt_abi.c). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rt_internal.h"

#pragma clang section text = "schedfuzz_hooks"

#define WEAK_HOOK RT_EXPORT __attribute__((weak))
WEAK_HOOK void __sanitizer_weak_hook_memcmp(void *pc, const void *s1, const void *s2, size_t n,
					    int result);
WEAK_HOOK void __sanitizer_weak_hook_strncmp(void *pc, const char *s1, const char *s2, size_t n,
					     int result);
WEAK_HOOK void __sanitizer_weak_hook_strcmp(void *pc, const char *s1, const char *s2, int result);
WEAK_HOOK void __sanitizer_weak_hook_strncasecmp(void *pc, const char *s1, const char *s2,
						 size_t n, int result);
WEAK_HOOK void __sanitizer_weak_hook_strcasecmp(void *pc, const char *s1, const char *s2,
						int result);
WEAK_HOOK void __sanitizer_weak_hook_strstr(void *pc, const char *s1, const char *s2,
					    char *result);
WEAK_HOOK void __sanitizer_weak_hook_strcasestr(void *pc, const char *s1, const char *s2,
						char *result);
WEAK_HOOK void __sanitizer_weak_hook_memmem(void *pc, const void *s1, size_t n1, const void *s2,
					    size_t n2, void *result);

/* The real functions, from libc. */
static struct {
	int (*memcmp)(const void *, const void *, size_t);
	int (*bcmp)(const void *, const void *, size_t);
	int (*strncmp)(const char *, const char *, size_t);
	int (*strcmp)(const char *, const char *);
	int (*strncasecmp)(const char *, const char *, size_t);
	int (*strcasecmp)(const char *, const char *);
	char *(*strstr)(const char *, const char *);
	char *(*strcasestr)(const char *, const char *);
	void *(*memmem)(const void *, size_t, const void *, size_t);
} real;
static atomic_int found; /* 0: not looked up, 1: under way, 2: done */

static bool find_real(void)
{
	int state = atomic_load_explicit(&found, memory_order_acquire);
	if (RT_LIKELY(state == 2))
		return true;
	int expected = 0;
	if (state == 1 || !atomic_compare_exchange_strong(&found, &expected, 1))
		return false; /* being looked up: the byte loops serve meanwhile */
	real.memcmp = dlsym(RTLD_NEXT, "memcmp");
	real.bcmp = dlsym(RTLD_NEXT, "bcmp");
	real.strncmp = dlsym(RTLD_NEXT, "strncmp");
	real.strcmp = dlsym(RTLD_NEXT, "strcmp");
	real.strncasecmp = dlsym(RTLD_NEXT, "strncasecmp");
	real.strcasecmp = dlsym(RTLD_NEXT, "strcasecmp");
	real.strstr = dlsym(RTLD_NEXT, "strstr");
	real.strcasestr = dlsym(RTLD_NEXT, "strcasestr");
	real.memmem = dlsym(RTLD_NEXT, "memmem");
	if (!real.memcmp || !real.bcmp || !real.strncmp || !real.strcmp || !real.strncasecmp ||
	    !real.strcasecmp || !real.strstr || !real.strcasestr || !real.memmem) {
		atomic_store_explicit(&found, 0, memory_order_release);
		return false;
	}
	atomic_store_explicit(&found, 2, memory_order_release);
	return true;
}

/* Looked up before the program runs, not at a first call that might come
 * from a signal handler, where dlsym is no safe call. */
__attribute__((constructor)) static void find_real_early(void)
{
	find_real();
}

/* ---- byte loops, for before the real functions are found ---------------- */

static int lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

static int bytes_cmp(const void *a, const void *b, size_t n, bool nul_ends, bool fold)
{
	const volatile unsigned char *p = a, *q = b;
	for (size_t i = 0; i < n; i++) {
		int x = p[i], y = q[i];
		if (fold) {
			x = lower(x);
			y = lower(y);
		}
		if (x != y)
			return x - y;
		if (nul_ends && !x)
			return 0;
	}
	return 0;
}

static const void *bytes_find(const void *hay, size_t nh, const void *needle, size_t nn, bool fold)
{
	const unsigned char *h = hay;
	for (size_t i = 0; nn <= nh && i <= nh - nn; i++)
		if (bytes_cmp(h + i, needle, nn, false, fold) == 0)
			return h + i;
	return NULL;
}

static size_t bytes_len(const char *s)
{
	const volatile char *p = s;
	size_t n = 0;
	while (p[n])
		n++;
	return n;
}

/* ---- the hooks' side: libFuzzer's code is not the program's ------------- */

#define CALL_HOOK(hook, ...)                                         \
	do {                                                         \
		if (hook) {                                          \
			struct rt_thread *self_ = rt_own_work_begin(); \
			hook(__VA_ARGS__);                           \
			rt_own_work_end(self_);                      \
		}                                                    \
	} while (0)

/* ---- the interceptors ----------------------------------------------------- */

RT_INTERPOSE RT_NOINLINE int memcmp(const void *s1, const void *s2, size_t n)
{
	int r = find_real() ? real.memcmp(s1, s2, n) : bytes_cmp(s1, s2, n, false, false);
	CALL_HOOK(__sanitizer_weak_hook_memcmp, RT_CALLER(), s1, s2, n, r);
	return r;
}

/* What clang makes of "memcmp(...) == 0" where it may. */
RT_INTERPOSE RT_NOINLINE int bcmp(const void *s1, const void *s2, size_t n)
{
	int r = find_real() ? real.bcmp(s1, s2, n) : bytes_cmp(s1, s2, n, false, false);
	CALL_HOOK(__sanitizer_weak_hook_memcmp, RT_CALLER(), s1, s2, n, r);
	return r;
}

RT_INTERPOSE RT_NOINLINE int strncmp(const char *s1, const char *s2, size_t n)
{
	int r = find_real() ? real.strncmp(s1, s2, n) : bytes_cmp(s1, s2, n, true, false);
	CALL_HOOK(__sanitizer_weak_hook_strncmp, RT_CALLER(), s1, s2, n, r);
	return r;
}

RT_INTERPOSE RT_NOINLINE int strcmp(const char *s1, const char *s2)
{
	int r = find_real() ? real.strcmp(s1, s2) : bytes_cmp(s1, s2, SIZE_MAX, true, false);
	CALL_HOOK(__sanitizer_weak_hook_strcmp, RT_CALLER(), s1, s2, r);
	return r;
}

RT_INTERPOSE RT_NOINLINE int strncasecmp(const char *s1, const char *s2, size_t n)
{
	int r = find_real() ? real.strncasecmp(s1, s2, n) : bytes_cmp(s1, s2, n, true, true);
	CALL_HOOK(__sanitizer_weak_hook_strncasecmp, RT_CALLER(), s1, s2, n, r);
	return r;
}

RT_INTERPOSE RT_NOINLINE int strcasecmp(const char *s1, const char *s2)
{
	int r = find_real() ? real.strcasecmp(s1, s2) : bytes_cmp(s1, s2, SIZE_MAX, true, true);
	CALL_HOOK(__sanitizer_weak_hook_strcasecmp, RT_CALLER(), s1, s2, r);
	return r;
}

RT_INTERPOSE RT_NOINLINE char *strstr(const char *s1, const char *s2)
{
	char *r = find_real() ? real.strstr(s1, s2)
			      : (char *)bytes_find(s1, bytes_len(s1), s2, bytes_len(s2), false);
	CALL_HOOK(__sanitizer_weak_hook_strstr, RT_CALLER(), s1, s2, r);
	return r;
}

RT_INTERPOSE RT_NOINLINE char *strcasestr(const char *s1, const char *s2)
{
	char *r = find_real() ? real.strcasestr(s1, s2)
			      : (char *)bytes_find(s1, bytes_len(s1), s2, bytes_len(s2), true);
	CALL_HOOK(__sanitizer_weak_hook_strcasestr, RT_CALLER(), s1, s2, r);
	return r;
}

RT_INTERPOSE RT_NOINLINE void *memmem(const void *s1, size_t n1, const void *s2, size_t n2)
{
	void *r = find_real() ? real.memmem(s1, n1, s2, n2) : (void *)bytes_find(s1, n1, s2, n2, false);
	CALL_HOOK(__sanitizer_weak_hook_memmem, RT_CALLER(), s1, n1, s2, n2, r);
	return r;
}
