/* vault_harness: a lost update that needs a magic word, the data after it
 * and an interleaving. The input opens with a 4-byte word, compared with
 * memcmp; "Vlt!" switches the two tellers to a fast path that deposits
 * without the lock, and a deposit is lost when the other teller writes
 * between its read and its write. Engines find the word by learning
 * compared operands: libFuzzer's comparison hooks (rt_compare.c, or ASan's
 * interceptors), AFL++'s CmpLog or laf-intel's split comparisons.
 * expect: assert. FIXED: the fast path takes the lock too. */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define MAX_DEPOSITS 8

static struct {
	pthread_mutex_t lock;
	long balance;
} vault = { PTHREAD_MUTEX_INITIALIZER, 0 };

static const uint8_t *deposits;
static size_t ndeposits;
static int fast;

static void deposit(uint8_t amount)
{
#ifndef FIXED
	if (fast) {
		long seen = vault.balance; /* fast path: no lock */
		vault.balance = seen + amount;
		return;
	}
#endif
	pthread_mutex_lock(&vault.lock);
	vault.balance += amount;
	pthread_mutex_unlock(&vault.lock);
}

static void *teller(void *arg)
{
	for (size_t i = (size_t)(intptr_t)arg; i < ndeposits; i += 2)
		deposit(deposits[i]);
	return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 4)
		return 0;
	fast = memcmp(data, "Vlt!", 4) == 0;
	deposits = data + 4;
	ndeposits = size - 4 < MAX_DEPOSITS ? size - 4 : MAX_DEPOSITS;
	long expected = 0;
	for (size_t i = 0; i < ndeposits; i++)
		expected += deposits[i];
	vault.balance = 0;
	pthread_t a, b;
	pthread_create(&a, NULL, teller, (void *)0);
	pthread_create(&b, NULL, teller, (void *)1);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	assert(vault.balance == expected);
	return 0;
}
