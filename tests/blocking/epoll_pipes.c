/* epoll_pipes: an event loop. A dispatcher thread waits with epoll_wait
 * on two pipes, each fed by its own producer thread, and sums what it
 * reads until both producers have closed their ends (EPOLLHUP), then
 * checks the sums.
 * expect: clean. */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <unistd.h>

#define ITEMS 4

static int p1[2], p2[2];
static long sum[2];

static void *producer(void *arg)
{
	int fd = (int)(intptr_t)arg;
	for (unsigned char i = 1; i <= ITEMS; i++)
		assert(write(fd, &i, 1) == 1);
	close(fd);
	return NULL;
}

static void *dispatcher(void *arg)
{
	(void)arg;
	int ep = epoll_create1(0);
	assert(ep >= 0);
	struct epoll_event ev = { .events = EPOLLIN, .data.u32 = 0 };
	assert(epoll_ctl(ep, EPOLL_CTL_ADD, p1[0], &ev) == 0);
	ev.data.u32 = 1;
	assert(epoll_ctl(ep, EPOLL_CTL_ADD, p2[0], &ev) == 0);
	int open_ends = 2;
	while (open_ends > 0) {
		struct epoll_event got[2];
#ifdef PWAIT2 /* glibc 2.35's form, which libevent prefers when it has it */
		int n = epoll_pwait2(ep, got, 2, NULL, NULL);
#else
		int n = epoll_wait(ep, got, 2, -1);
#endif
		assert(n >= 1);
		for (int i = 0; i < n; i++) {
			int k = (int)got[i].data.u32;
			unsigned char buf[ITEMS];
			ssize_t r = read(k ? p2[0] : p1[0], buf, sizeof buf);
			assert(r >= 0);
			for (ssize_t j = 0; j < r; j++)
				sum[k] += buf[j];
			if (r == 0) { /* the producer closed its end */
				assert(epoll_ctl(ep, EPOLL_CTL_DEL, k ? p2[0] : p1[0], NULL) == 0);
				open_ends--;
			}
		}
	}
	close(ep);
	return NULL;
}

int main(void)
{
	sum[0] = sum[1] = 0;
	assert(pipe(p1) == 0 && pipe(p2) == 0);
	pthread_t d, a, b;
	pthread_create(&d, NULL, dispatcher, NULL);
	pthread_create(&a, NULL, producer, (void *)(intptr_t)p1[1]);
	pthread_create(&b, NULL, producer, (void *)(intptr_t)p2[1]);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	pthread_join(d, NULL);
	assert(sum[0] == ITEMS * (ITEMS + 1) / 2 && sum[1] == sum[0]);
	close(p1[0]);
	close(p2[0]);
	return 0;
}
