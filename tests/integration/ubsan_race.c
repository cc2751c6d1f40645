/* ubsan_race: undefined behaviour that only one interleaving reaches. A
 * reader scales by a shift that the configuring thread widens between the
 * reader's range check and its use; the too-wide shift is UBSan's report.
 * FIXED: check and use one snapshot of the shift. */
#include <pthread.h>

static volatile int shift = 4;
static volatile int scaled;

static void *configure(void *arg)
{
	(void)arg;
	shift = 40; /* meant for a 64-bit scale */
	return NULL;
}

int main(void)
{
	shift = 4; /* its own state first, so it can run as a harness too */
	pthread_t t;
	pthread_create(&t, NULL, configure, NULL);
#ifdef FIXED
	int s = shift;
	if (s < 32)
		scaled = 1 << s;
#else
	if (shift < 32)
		scaled = 1 << shift;
#endif
	pthread_join(t, NULL);
	return 0;
}
