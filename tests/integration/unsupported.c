/* unsupported: cancels a thread inside an execution; the runtime must say
 * in one line that it cannot model that, not misbehave. */
#include <pthread.h>

static void *idle(void *arg)
{
	return arg;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, idle, NULL);
	pthread_cancel(t);
	pthread_join(t, NULL);
	return 0;
}
