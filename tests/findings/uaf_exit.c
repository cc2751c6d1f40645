/* uaf_exit: main frees the job a detached worker still reads, and returns
 * without waiting for it. In the schedules where the worker reads between
 * the free and the end of the process, ASan reports a heap-use-after-free
 * while LeakSanitizer (on by default) is about to run its exit-time
 * check. FIXED: main joins the worker before it frees the job. */
#include <pthread.h>
#include <stdlib.h>

struct job {
	int steps;
	int done;
};

static void *worker(void *arg)
{
	struct job *job = arg;
	for (int i = 0; i < job->steps; i++)
		job->done++;
	return NULL;
}

int main(void)
{
	struct job *job = calloc(1, sizeof *job);
	job->steps = 3;
	pthread_t t;
	pthread_create(&t, NULL, worker, job);
#ifdef FIXED
	pthread_join(t, NULL);
#else
	pthread_detach(t);
#endif
	free(job);
	return 0;
}
