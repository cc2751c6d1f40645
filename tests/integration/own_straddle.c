/* own_straddle.c - unaligned accesses across two granules (rt_own.h:
 * rt_own_mine loads a granule's cell and the next one together). The
 * helper thread owns buf's second granule, main the others; each access
 * below is a scheduling point exactly when it is marked "point":
 * own_straddle.sh reads the marks and the events of a replay. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static _Alignas(64) unsigned char buf[64];
static _Alignas(64) unsigned char before[32]; /* written before any thread: settled */

static void *helper(void *arg)
{
	memset(buf + 16, 2, 16);
	return arg;
}

int main(void)
{
	memset(before, 1, sizeof before);
	pthread_t t;
	pthread_create(&t, NULL, helper, NULL);
	pthread_join(t, NULL);
	memset(buf, 1, 16);
	memset(buf + 32, 3, 32);
	uint64_t v = 0, s = 0;
	unsigned __int128 w;
	memcpy(&v, buf + 4, 8); /* pass: one granule, main's; the next is the helper's */
	s += v;
	memcpy(&v, buf + 44, 8); /* pass: two granules, both main's */
	s += v;
	memcpy(buf + 40, &s, 8); /* pass: a write to two of main's granules */
	memcpy(&w, buf + 36, 16); /* pass: 16 bytes over two of main's granules */
	s += (uint64_t)w;
	memcpy(&v, before + 12, 8); /* pass: two settled granules, read by main alone */
	s += v;
	memcpy(&v, before + 12, 8); /* pass: again, now read by main alone */
	s += v;
	memcpy(&v, buf + 12, 8); /* point: main's granule and the helper's */
	s += v;
	memcpy(buf + 28, &s, 8); /* point: a write to a granule two threads touched */
	printf("%llu\n", (unsigned long long)s);
	return 0;
}
