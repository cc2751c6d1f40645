/* fuzz_tally.c - the fuzzer of tally: two threads record hits (one to
 * three each, as the input's first two bytes say) and the total must be
 * their sum. Built with schedfuzz, every input begins with the schedule
 * the two threads run in; the bytes after it are these. */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "tally.h"

static struct tally tally;

struct hitter {
	int hits;
};

static void *hitter(void *arg)
{
	const struct hitter *h = arg;
	for (int i = 0; i < h->hits; i++)
		tally_hit(&tally);
	return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hitter h[2] = { { 1 + (size > 0 ? data[0] % 3 : 0) },
			       { 1 + (size > 1 ? data[1] % 3 : 0) } };
	tally_init(&tally);
	pthread_t a, b;
	pthread_create(&a, NULL, hitter, &h[0]);
	pthread_create(&b, NULL, hitter, &h[1]);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	assert(tally_total(&tally) == h[0].hits + h[1].hits);
	pthread_mutex_destroy(&tally.lock);
	return 0;
}
