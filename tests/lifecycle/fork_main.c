/* fork_main: main forks in a single-threaded moment. The child, alone
 * and uncontrolled, starts threads of its own, joins them and returns
 * from main; the parent's execution goes on with its own thread and
 * waits for the child with wait(). */
#include <assert.h>
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int counter;

static void *work(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m);
	counter++;
	pthread_mutex_unlock(&m);
	return NULL;
}

int main(void)
{
	counter = 0;
	pid_t pid = fork();
	assert(pid >= 0);
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, work, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	if (pid == 0)
		return counter == 2 ? 0 : 1; /* the child leaves main as usual */
	int status = 0;
	assert(wait(&status) == pid);
	assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert(counter == 2);
	return 0;
}
