/* account_harness: a libFuzzer-style harness whose bug needs both a
 * specific input and a specific interleaving. The input is a list of
 * deposits, dealt alternately to two teller threads. Deposits of a
 * multiple of 16 take a "fast path" that skips the lock: a read-modify-
 * write of the balance that loses a concurrent deposit when the other
 * teller writes between its read and its write.
 * expect: assert. FIXED: the fast path takes the lock too. */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#define MAX_DEPOSITS 8

static struct {
	pthread_mutex_t lock;
	long balance;
} account = { PTHREAD_MUTEX_INITIALIZER, 0 };

static const uint8_t *deposits;
static size_t ndeposits;

static void deposit(uint8_t amount)
{
#ifndef FIXED
	if (amount % 16 == 0) {
		long seen = account.balance; /* fast path: no lock */
		account.balance = seen + amount / 16;
		return;
	}
#endif
	pthread_mutex_lock(&account.lock);
	account.balance += amount % 16 ? amount % 16 : amount / 16;
	pthread_mutex_unlock(&account.lock);
}

static void *teller(void *arg)
{
	for (size_t i = (size_t)(intptr_t)arg; i < ndeposits; i += 2)
		deposit(deposits[i]);
	return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	deposits = data;
	ndeposits = size < MAX_DEPOSITS ? size : MAX_DEPOSITS;
	long expected = 0;
	for (size_t i = 0; i < ndeposits; i++)
		expected += data[i] % 16 ? data[i] % 16 : data[i] / 16;
	account.balance = 0;
	pthread_t a, b;
	pthread_create(&a, NULL, teller, (void *)0);
	pthread_create(&b, NULL, teller, (void *)1);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	assert(account.balance == expected);
	return 0;
}
