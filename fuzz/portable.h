/* portable.h - portable reproducers (portable.c): failing schedules
 * anchored to source lines, so that they replay on other builds. */
#ifndef SCHEDFUZZ_PORTABLE_H
#define SCHEDFUZZ_PORTABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "build_id.h"

struct portable_at {
	bool choice, after;
	uint32_t tid;
	char *file;
	uint32_t line, visit, nth, value;
	char kind[32]; /* an event name, spaces as '_' */
};

struct portable {
	struct build_info made; /* the build it was made on */
	char failure[1100];     /* "KIND: MESSAGE" there */
	bool no_spurious;
	bool memory_all;        /* every access a scheduling point (SCHEDFUZZ_MEMORY=2) */
	uint8_t *data;          /* the harness's data */
	size_t size;
	struct portable_at *at;
	size_t nat;
};

/* Write the portable form of the execution traced in trace_path (run on
 * prog; its harness data, flags and memory mode given); false with a
 * one-line reason. */
bool portable_write(const char *path, const char *prog, const char *trace_path,
		    const uint8_t *data, size_t size, bool no_spurious, bool memory_all, char *err,
		    size_t cap);
/* Does the file start as a portable reproducer does? */
bool portable_is(const char *path);
bool portable_read(const char *path, struct portable *p, char *err, size_t cap);
void portable_free(struct portable *p);
/* For prog: the runtime's anchors (SCHEDFUZZ_ANCHORS) and the input to
 * run them with (an explicit genome without decisions, then the data). */
bool portable_translate(const struct portable *p, const char *prog, const char *anchors_path,
			const char *input_path, char *err, size_t cap);
/* The 8 bytes of prog's build-id that stamp its explicit genomes. */
bool portable_build_stamp(const char *prog, uint8_t build[8]);
/* "this input did not fail on this binary; it was made for build X": for
 * a portable reproducer, and for a stamped binary-exact input. */
void portable_say_other_build(const char *prog, const struct portable *p);
void portable_say_stamp(const char *prog, const uint8_t build[8], const char *input);

#endif
