/* fork_waitpid: a worker thread forks while main runs too (the child has
 * one thread and runs uncontrolled); the parent thread waits for it with
 * waitpid. Then a child that execs, system(), posix_spawn and a raw clone
 * without CLONE_THREAD, each waited for, while main counts under a lock. */
#define _GNU_SOURCE
#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int count;

static int exit_code(pid_t pid)
{
	int status = 0;
	assert(waitpid(pid, &status, 0) == pid);
	assert(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static int clone_child(void *arg)
{
	return (int)(long)arg;
}

static void *forker(void *arg)
{
	(void)arg;
	pid_t pid = fork();
	if (pid == 0) {
		pthread_mutex_lock(&m); /* uncontrolled, and the only thread */
		count += 100;
		pthread_mutex_unlock(&m);
		_exit(count >= 100 ? 42 : 1);
	}
	assert(exit_code(pid) == 42);
	pid = fork();
	if (pid == 0) {
		execl("/bin/sh", "sh", "-c", "exit 7", (char *)NULL);
		_exit(1);
	}
	assert(exit_code(pid) == 7);
	int s = system("exit 3");
	assert(WIFEXITED(s) && WEXITSTATUS(s) == 3);
	char *argv[] = { "sh", "-c", "exit 5", NULL };
	assert(posix_spawn(&pid, "/bin/sh", NULL, NULL, argv, environ) == 0);
	assert(exit_code(pid) == 5);
	static char stack[64 << 10];
	pid = clone(clone_child, stack + sizeof stack, SIGCHLD, (void *)9L);
	assert(pid > 0 && exit_code(pid) == 9);
	return NULL;
}

int main(void)
{
	count = 0;
	pthread_t t;
	pthread_create(&t, NULL, forker, NULL);
	for (int i = 0; i < 3; i++) {
		pthread_mutex_lock(&m);
		count++;
		pthread_mutex_unlock(&m);
	}
	pthread_join(t, NULL);
	assert(count == 3); /* the child's count stayed in the child */
	return 0;
}
