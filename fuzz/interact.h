/* interact.h - `schedfuzz replay --interactive`: the user, or a tool over
 * JSON lines, takes each decision of the replay (interact.c). */
#ifndef SCHEDFUZZ_INTERACT_H
#define SCHEDFUZZ_INTERACT_H

#include <pthread.h>
#include <stdbool.h>

struct interact {
	int ours, theirs; /* a socket pair: our end, the program's */
	int in, out;      /* our stdin and stdout, kept aside from the program */
	bool json;
	bool relaying;
	pthread_t relay;
};

/* Before the program runs: its end of the socket named in
 * SCHEDFUZZ_INTERACT, stdin /dev/null for the program (its answers are
 * ours) and, for JSON, its stdout on stderr (stdout is the stream's),
 * no deadline; a thread relays the questions and answers. False, with
 * one line said, when that cannot be set up. */
bool interact_begin(struct interact *ia, bool json);
/* Once the program has ended: stdio back, the relay joined. */
void interact_end(struct interact *ia);

#endif
