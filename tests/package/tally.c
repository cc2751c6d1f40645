/* tally.c - the bug: the addition is a read and a write, not one atomic step. */
#include "tally.h"

void tally_add(long *total, long n)
{
	long seen = *total;
	*total = seen + n;
}
