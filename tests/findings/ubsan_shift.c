/* ubsan_shift: a shift by more than the width, in code one thread runs
 * alone: UBSan reports it under every schedule. FIXED: the shift is
 * bounded. */
#include <pthread.h>
#include <stdio.h>

static volatile int width = 40;
static unsigned mask;

static void *make_mask(void *arg)
{
	(void)arg;
#ifdef FIXED
	mask = width < 32 ? 1u << width : 0;
#else
	mask = 1u << width;
#endif
	return NULL;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, make_mask, NULL);
	pthread_join(t, NULL);
	printf("%u\n", mask);
	return 0;
}
