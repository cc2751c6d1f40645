/* own_write.c - a program that defines its own write (counting calls,
 * then making the system call itself): its calls, and libc's stdio ones,
 * reach it; the runtime's own writes do not. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static _Atomic int writes;

ssize_t write(int fd, const void *buf, size_t n)
{
	writes++;
	return syscall(SYS_write, fd, buf, n);
}

static void *worker(void *arg)
{
	const char *line = (const char *)arg;
	assert(write(1, line, strlen(line)) == (ssize_t)strlen(line));
	return NULL;
}

int main(void)
{
	writes = 0;
	static char one[] = "one\n", two[] = "two\n";
	pthread_t a, b;
	pthread_create(&a, NULL, worker, one);
	pthread_create(&b, NULL, worker, two);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	/* The two workers' writes and this one are the program's. */
	assert(write(1, "three\n", 6) == 6);
	assert(writes == 3);
	return 0;
}
