/* fork_loop: a worker forks inside its loop over a private buffer, and the
 * child goes on with the same loop, uncontrolled, long past a tick's worth
 * of accesses, then exits; the parent waits for it while another worker
 * counts under a lock. The child's accesses go through the inline check as
 * rt_nobody's, or as its parent's thread where code generation kept that
 * in a register across the fork (clang 14 at -O2 reloads it): either way
 * no events, and the slow path must return at once. */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define WORDS 4096
#define STEPS 60000
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int count;

static unsigned churn(unsigned *buf, unsigned seed)
{
	unsigned sum = seed;
	for (unsigned i = 0; i < STEPS; i++) {
		buf[i % WORDS] += i ^ sum;
		sum += buf[(i * 7) % WORDS];
	}
	return sum;
}

static void *forker(void *arg)
{
	(void)arg;
	unsigned *buf = calloc(WORDS, sizeof *buf);
	unsigned sum = 0;
	for (int round = 0; round < 3; round++) {
		/* The fork comes halfway through the loop: parent and child go
		 * on with it from the same state. */
		pid_t pid = -1;
		for (unsigned i = 0; i < STEPS; i++) {
			if (i == STEPS / 2)
				pid = fork();
			buf[i % WORDS] += i ^ sum;
			sum += buf[(i * 7) % WORDS];
		}
		assert(pid >= 0);
		if (pid == 0)
			_exit(churn(buf, sum) == 1 ? 1 : 42);
		int status;
		assert(waitpid(pid, &status, 0) == pid);
		assert(WIFEXITED(status) && WEXITSTATUS(status) == 42);
	}
	free(buf);
	return NULL;
}

static void *counter(void *arg)
{
	(void)arg;
	for (int i = 0; i < 100; i++) {
		pthread_mutex_lock(&m);
		count++;
		pthread_mutex_unlock(&m);
	}
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, NULL, forker, NULL);
	pthread_create(&b, NULL, counter, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	assert(count == 100);
	return 0;
}
