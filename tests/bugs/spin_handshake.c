/* spin_handshake: a message passed through a spin-waited flag. The sender
 * raises the flag before it writes the message, so the receiver can read
 * a stale message. The receiver busy-waits: this program also checks that
 * spinning ends under every schedule (the fairness rule).
 * expect: assert. FIXED: the message is written before the flag. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static atomic_int flag;
static int message;

static void *sender(void *arg)
{
	(void)arg;
#ifdef FIXED
	message = 42;
	atomic_store(&flag, 1);
#else
	atomic_store(&flag, 1);
	message = 42;
#endif
	return NULL;
}

static void *receiver(void *arg)
{
	(void)arg;
	while (!atomic_load(&flag))
		; /* spin */
	assert(message == 42);
	return NULL;
}

int main(void)
{
	atomic_store(&flag, 0);
	message = 0;
	pthread_t s, r;
	pthread_create(&r, NULL, receiver, NULL);
	pthread_create(&s, NULL, sender, NULL);
	pthread_join(r, NULL);
	pthread_join(s, NULL);
	return 0;
}
