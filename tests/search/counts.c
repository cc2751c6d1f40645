/* counts.c - tiny programs whose schedule counts are worked out by hand
 * (tests/integration/search.sh says how). CASE picks one:
 *   independent  T1 writes a twice, T2 writes b twice
 *   locked       T1 and T2 each increment x inside lock m1
 *   two_locks    T1 writes x inside m1, T2 writes y inside m2
 *   race         T1 writes x = 1, T2 writes x = 2
 *   three        T1, T2, T3 each write x once
 * main creates the threads in order, then joins them in order. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t m1 = PTHREAD_MUTEX_INITIALIZER, m2 = PTHREAD_MUTEX_INITIALIZER;
static volatile int a, b;
/* Apart, so that no two of them share the 8 bytes a dependence looks at. */
static volatile long x __attribute__((aligned(64))), y __attribute__((aligned(64)));

static void *twice_a(void *p) { a = 1; a = 2; return NULL; }
static void *twice_b(void *p) { b = 1; b = 2; return NULL; }
static void *locked_inc(void *p)
{
	pthread_mutex_lock(&m1);
	x = x + 1;
	pthread_mutex_unlock(&m1);
	return NULL;
}
static void *in_m1(void *p)
{
	pthread_mutex_lock(&m1);
	x = 1;
	pthread_mutex_unlock(&m1);
	return NULL;
}
static void *in_m2(void *p)
{
	pthread_mutex_lock(&m2);
	y = 1;
	pthread_mutex_unlock(&m2);
	return NULL;
}
static void *write_x(void *p) { x = (long)p; return NULL; }

int main(void)
{
	const char *c = getenv("CASE");
	void *(*fn[3])(void *) = { 0 };
	if (!c) {
		fprintf(stderr, "counts: set CASE\n");
		return 2;
	} else if (!strcmp(c, "independent")) {
		fn[0] = twice_a, fn[1] = twice_b;
	} else if (!strcmp(c, "locked")) {
		fn[0] = fn[1] = locked_inc;
	} else if (!strcmp(c, "two_locks")) {
		fn[0] = in_m1, fn[1] = in_m2;
	} else if (!strcmp(c, "race")) {
		fn[0] = fn[1] = write_x;
	} else if (!strcmp(c, "three")) {
		fn[0] = fn[1] = fn[2] = write_x;
	} else {
		fprintf(stderr, "counts: unknown CASE %s\n", c);
		return 2;
	}
	a = b = 0;
	x = y = 0;
	pthread_t t[3];
	int n = fn[2] ? 3 : 2;
	for (int i = 0; i < n; i++)
		pthread_create(&t[i], NULL, fn[i], (void *)(long)(i + 1));
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	return 0;
}
