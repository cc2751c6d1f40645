/* tally.h - a hit counter that many threads add to. */
#ifndef TALLY_H
#define TALLY_H

#include <pthread.h>

struct tally {
	pthread_mutex_t lock;
	long hits;
};

void tally_init(struct tally *t);
void tally_hit(struct tally *t);
long tally_total(struct tally *t);

#endif
