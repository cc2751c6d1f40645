/* pipe.c - a worker fills a message and sends a byte through a pipe; the
 * reader reads the message once the byte arrives: the pipe orders them,
 * no race (the fixed twin). The bug: the reader does not wait for the
 * byte before it reads the message. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int fds[2];
static char message[32];

static void *writer(void *arg)
{
	(void)arg;
	strcpy(message, "hello");
	char b = 1;
	if (write(fds[1], &b, 1) != 1)
		return NULL;
	return NULL;
}

int main(void)
{
	if (pipe(fds) != 0)
		return 2;
	pthread_t t;
	pthread_create(&t, NULL, writer, NULL);
	char b = 0;
#ifdef FIXED
	if (read(fds[0], &b, 1) != 1)
		return 2;
#endif
	printf("%c\n", message[0] ? message[0] : '-');
#ifndef FIXED
	if (read(fds[0], &b, 1) != 1)
		return 2;
#endif
	pthread_join(t, NULL);
	return 0;
}
