/* inlined_site: the racy read and write sit in a function that is always
 * inlined into its caller. The report must credit them to that function
 * (account_add), as llvm-symbolizer's inline frames do, not to the
 * function it was inlined into (deposit). */
#include <assert.h>
#include <pthread.h>

static int shared_ledger_balance_in_cents;

static inline __attribute__((always_inline)) void account_add(int n)
{
	int seen = shared_ledger_balance_in_cents;
	shared_ledger_balance_in_cents = seen + n;
}

static void *deposit(void *arg)
{
	(void)arg;
	account_add(1);
	return NULL;
}

int main(void)
{
	shared_ledger_balance_in_cents = 0;
	pthread_t a, b;
	pthread_create(&a, NULL, deposit, NULL);
	pthread_create(&b, NULL, deposit, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	assert(shared_ledger_balance_in_cents == 2);
	return 0;
}
