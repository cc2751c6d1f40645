/* long_loop: one thread and no other, making 50,000,000 heap accesses. With
 * a single thread there is only one schedule and nothing to interleave, so
 * the runtime must neither report a hang (the step bound) nor take much
 * longer than the accesses themselves.
 * expect: clean. */
#include <assert.h>
#include <stdlib.h>

#define WORDS 4096
#define ROUNDS 25000000 /* a read and a write each: 50,000,000 accesses */

int main(void)
{
	/* volatile: every access stays in the loop, as in a real program */
	volatile int *a = calloc(WORDS, sizeof *a);
	assert(a != NULL);
	for (long i = 0; i < ROUNDS; i++)
		a[i & (WORDS - 1)] += 1;
	long total = 0;
	for (int i = 0; i < WORDS; i++)
		total += a[i];
	assert(total == ROUNDS);
	free((void *)a);
	return 0;
}
