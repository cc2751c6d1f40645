/* bank_transfer: transfers between two accounts check the balance before
 * they lock the accounts, then move the money. Two transfers out of the
 * same account can both pass the check, and the account goes negative.
 * expect: assert. FIXED: the check is made with both accounts locked. */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>

struct account {
	pthread_mutex_t lock;
	volatile int balance;
};

static struct account acct[2] = {
	{ PTHREAD_MUTEX_INITIALIZER, 0 },
	{ PTHREAD_MUTEX_INITIALIZER, 0 },
};

/* Both locks, always in the same order: no deadlock. */
static void lock_both(void)
{
	pthread_mutex_lock(&acct[0].lock);
	pthread_mutex_lock(&acct[1].lock);
}

static void unlock_both(void)
{
	pthread_mutex_unlock(&acct[1].lock);
	pthread_mutex_unlock(&acct[0].lock);
}

static void transfer(struct account *from, struct account *to, int amount)
{
#ifdef FIXED
	lock_both();
	if (from->balance >= amount) {
#else
	if (from->balance >= amount) {
		lock_both();
#endif
		from->balance -= amount;
		to->balance += amount;
		assert(from->balance >= 0);
#ifdef FIXED
	}
	unlock_both();
#else
		unlock_both();
	}
#endif
}

static void *teller(void *arg)
{
	(void)arg;
	transfer(&acct[0], &acct[1], 70);
	return NULL;
}

int main(void)
{
	acct[0].balance = 100;
	acct[1].balance = 0;
	pthread_t a, b;
	pthread_create(&a, NULL, teller, NULL);
	pthread_create(&b, NULL, teller, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	assert(acct[0].balance + acct[1].balance == 100);
	return 0;
}
