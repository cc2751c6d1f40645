/* tally.c - a hit counter that many threads add to. Its bug: a hit reads
 * the count and writes it back without the lock, so two hits at once can
 * count as one (a lost update). TALLY_FIXED takes the lock. */
#include "tally.h"

void tally_init(struct tally *t)
{
	pthread_mutex_init(&t->lock, NULL);
	t->hits = 0;
}

void tally_hit(struct tally *t)
{
#ifdef TALLY_FIXED
	pthread_mutex_lock(&t->lock);
#endif
	long seen = t->hits;
	t->hits = seen + 1;
#ifdef TALLY_FIXED
	pthread_mutex_unlock(&t->lock);
#endif
}

long tally_total(struct tally *t)
{
	pthread_mutex_lock(&t->lock);
	long n = t->hits;
	pthread_mutex_unlock(&t->lock);
	return n;
}
