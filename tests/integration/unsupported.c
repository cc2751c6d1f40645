/* unsupported: a thread asks for asynchronous cancellation and is
 * cancelled; the runtime must say in one line that it cannot model that,
 * not misbehave. */
#include <pthread.h>

static void *idle(void *arg)
{
	pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, NULL);
	pthread_cancel(pthread_self());
	return arg;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, idle, NULL);
	pthread_join(t, NULL);
	return 0;
}
