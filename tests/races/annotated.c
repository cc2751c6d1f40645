/* annotated.c - relaxed.c's hand-off, with the order it lacks given by
 * dynamic annotations (AnnotateHappensBefore/After on the flag) and a
 * statistics counter both threads bump, marked benign: no report. Without
 * -DFIXED the annotations are left out and both races are reported. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>

void AnnotateHappensBefore(const char *file, int line, const volatile void *addr);
void AnnotateHappensAfter(const char *file, int line, const volatile void *addr);
void AnnotateBenignRaceSized(const char *file, int line, const volatile void *addr, size_t size,
			     const char *description);

static long data;
static long polls; /* a statistic: a lost update there is harmless */
static atomic_int published;

static void *producer(void *arg)
{
	(void)arg;
	data = 7;
#ifdef FIXED
	AnnotateHappensBefore(__FILE__, __LINE__, &published);
#endif
	atomic_store_explicit(&published, 1, memory_order_relaxed);
	polls++;
	return NULL;
}

int main(void)
{
#ifdef FIXED
	AnnotateBenignRaceSized(__FILE__, __LINE__, &polls, sizeof polls, "statistics");
#endif
	pthread_t t;
	pthread_create(&t, NULL, producer, NULL);
	while (!atomic_load_explicit(&published, memory_order_relaxed)) {
		polls++;
		sched_yield();
	}
#ifdef FIXED
	AnnotateHappensAfter(__FILE__, __LINE__, &published);
#endif
	printf("%ld\n", data);
	pthread_join(t, NULL);
	return 0;
}
