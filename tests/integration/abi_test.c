/* abi_test: every family of __tsan_* hook clang-14 emits for C, with the
 * atomics' results checked. Two threads run it so that every hook is also
 * a real scheduling point. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

struct __attribute__((packed)) packed {
	char c;
	int i;
	long l;
	__int128 x;
};

static struct packed pk;
static volatile int vol;
static uint8_t u8;
static uint16_t u16;
static uint32_t u32;
static uint64_t u64;
static __int128 i128;
static char buf[256], buf2[256];
static struct { long a[8]; } big_a, big_b;

#define CHECK_ATOMICS(T, obj)                                                           \
	do {                                                                            \
		_Atomic T *p = &obj;                                                    \
		atomic_store(p, (T)5);                                                  \
		assert(atomic_load(p) == (T)5);                                         \
		assert(atomic_exchange(p, (T)7) == (T)5);                               \
		assert(atomic_fetch_add(p, (T)3) == (T)7);                              \
		assert(atomic_fetch_sub(p, (T)2) == (T)10);                             \
		assert(atomic_fetch_and(p, (T)12) == (T)8);                             \
		assert(atomic_fetch_or(p, (T)3) == (T)8);                               \
		assert(atomic_fetch_xor(p, (T)1) == (T)11);                             \
		assert(atomic_load_explicit(p, memory_order_acquire) == (T)10);         \
		T e = 10;                                                               \
		assert(atomic_compare_exchange_strong(p, &e, (T)20));                   \
		e = 99;                                                                 \
		assert(!atomic_compare_exchange_strong(p, &e, (T)30) && e == (T)20);    \
		e = 20;                                                                 \
		assert(atomic_compare_exchange_weak(p, &e, (T)21));                     \
		assert(__atomic_fetch_nand((T *)p, (T)1, __ATOMIC_SEQ_CST) == (T)21);   \
		assert(atomic_load(p) == (T) ~(T)(21 & 1));                             \
	} while (0)

static _Atomic uint8_t a8;
static _Atomic uint16_t a16;
static _Atomic uint32_t a32;
static _Atomic uint64_t a64;
static _Atomic unsigned __int128 a128;

static void *exercise(void *arg)
{
	long n = (long)arg;
	/* plain, unaligned and volatile accesses of 1 to 16 bytes */
	u8 += (uint8_t)n;
	u16 += (uint16_t)n;
	u32 += (uint32_t)n;
	u64 += (uint64_t)n;
	i128 += n;
	pk.c = 1;
	pk.i += (int)n;
	pk.l += n;
	pk.x += n;
	vol = vol + 1;
	/* range accesses through the memory functions */
	memset(buf, (int)n, sizeof buf);
	memcpy(buf2, buf, sizeof buf);
	memmove(buf + 1, buf, 100);
	big_b = big_a;
	atomic_thread_fence(memory_order_seq_cst);
	atomic_signal_fence(memory_order_seq_cst);
	return NULL;
}

int main(void)
{
	CHECK_ATOMICS(uint8_t, a8);
	CHECK_ATOMICS(uint16_t, a16);
	CHECK_ATOMICS(uint32_t, a32);
	CHECK_ATOMICS(uint64_t, a64);
	CHECK_ATOMICS(unsigned __int128, a128);
	unsigned __int128 wide = ((unsigned __int128)1 << 100) | 3;
	atomic_store(&a128, wide);
	assert(atomic_load(&a128) == wide);

	pthread_t t[2];
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, exercise, (void *)(i + 1));
	exercise((void *)3);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	assert(buf2[0] >= 1 && buf2[0] <= 3);
	return 0;
}
