/* global_send.c - a program whose globals are named send and receive, as
 * libc's functions are: it links, and its threads use its own variables. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

int send, receive;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *sender(void *arg)
{
	(void)arg;
	for (int i = 0; i < 3; i++) {
		pthread_mutex_lock(&lock);
		send++;
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

static void *receiver(void *arg)
{
	(void)arg;
	for (int i = 0; i < 3; i++) {
		pthread_mutex_lock(&lock);
		if (receive < send)
			receive++;
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

int main(void)
{
	send = receive = 0;
	pthread_t s, r;
	pthread_create(&s, NULL, sender, NULL);
	pthread_create(&r, NULL, receiver, NULL);
	pthread_join(s, NULL);
	pthread_join(r, NULL);
	assert(send == 3 && receive <= send);
	printf("send %d receive<=send\n", send);
	return 0;
}
