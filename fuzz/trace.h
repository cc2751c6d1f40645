/* trace.h - an execution's interleaving as the runtime writes it
 * (SCHEDFUZZ_TRACE, format in runtime/rt_trace.c), read back, and the
 * views of it that `schedfuzz replay` prints and writes. */
#ifndef SCHEDFUZZ_TRACE_H
#define SCHEDFUZZ_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "names.h"

#define TRACE_CTX 4

enum trace_type {
	TR_EVENT, /* an operation the thread performed */
	TR_BLOCK, /* the thread attempted an operation and must wait */
	TR_STATE, /* at the failure: what an unfinished thread waits for */
};

struct trace_rec {
	enum trace_type type;
	uint64_t step;
	int tid;
	bool preempt, waited, timed_out, spurious;
	char kind[24];   /* "read", "lock", ... ("running" or a wait for TR_STATE) */
	uint32_t site;
	uint32_t ctx[TRACE_CTX]; /* innermost first */
	int nctx;
	char var_kind;   /* 'g', 'h', 'm', or 0 */
	uint32_t var_a, var_b;
	char obj[16];    /* "M1", or "" */
	uint32_t size;
};

/* A decision that departs from the default (rt_trace.c's `decision`). */
struct trace_decision {
	uint32_t index;
	int tid;
	uint32_t ord;       /* events the thread had performed before it */
	char kind[24];      /* its next operation, "resume" or "exit" */
	uint32_t site;      /* where that operation is */
	uint32_t value;     /* the thread picked, or the option chosen */
	bool choice;
};

struct trace {
	char plan[1024];
	struct trace_decision *dec;
	size_t ndec;
	struct trace_rec *rec;
	size_t n;
	int nthreads;
	bool failed;
	char fail_kind[48];
	uint32_t fail_site;
	char fail_msg[1024];
	/* The result line. */
	bool has_result;
	char result_fail[48]; /* "none" unless it failed */
	uint64_t steps, decisions, preemptions, dropped, fingerprint;
};

/* Read a trace file; false after writing a one-line reason to err. */
bool trace_load(const char *path, struct trace *t, char *err, size_t cap);
void trace_free(struct trace *t);

/* What record r did, in a few words: "read counter", "lock M1 (lock_a)";
 * for an end state, "waits: lock M2 (lock_b)" or "runnable". */
void trace_describe(const struct trace_rec *r, struct names *nm, char *out, size_t cap);
/* A failed execution's end state of thread tid; NULL if it had finished. */
const struct trace_rec *trace_end_state(const struct trace *t, int tid);

/* The interleaving as thread lanes, one column a thread; the last `last`
 * records (0: all). */
void trace_print_lanes(FILE *f, const struct trace *t, struct names *nm, size_t last, int width);

/* A self-contained HTML timeline; title names the input. 0, or -1 after a
 * one-line reason on stderr. */
int trace_write_html(const char *path, const struct trace *t, struct names *nm,
		     const char *title, const char *replay_command);

#endif
