/* tally.h - a counter that several threads add to. */
#ifndef TALLY_H
#define TALLY_H
void tally_add(long *total, long n);
#endif
