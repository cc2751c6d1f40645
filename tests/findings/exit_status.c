/* exit_status: a worker checks its input and the program exits with
 * status 3 when it is bad, which it always is here: a failure that does
 * not depend on the interleaving. FIXED: the input is good. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static int checked;

static void *check(void *arg)
{
	const char *input = arg;
	checked = input[0] == 'o' && input[1] == 'k';
	return NULL;
}

int main(void)
{
#ifdef FIXED
	char input[] = "ok";
#else
	char input[] = "no";
#endif
	pthread_t t;
	pthread_create(&t, NULL, check, input);
	pthread_join(t, NULL);
	if (!checked) {
		fprintf(stderr, "bad input\n");
		exit(3);
	}
	return 0;
}
