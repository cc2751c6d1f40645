/* schedfuzz.h - what a program or harness built with schedfuzz-cc may ask
 * the schedfuzz runtime. Everything is declared weak, so that the same
 * source also builds without schedfuzz:
 *
 *     if (schedfuzz_controlled && schedfuzz_controlled())
 *         log("thread %d", schedfuzz_thread_id());
 */
#ifndef SCHEDFUZZ_H
#define SCHEDFUZZ_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 1 while the calling thread runs inside a controlled execution. */
int schedfuzz_controlled(void) __attribute__((weak));

/* The calling thread's number in the execution: 0 for the thread that
 * started it, then 1, 2, ... in creation order, the same in every replay.
 * -1 outside a controlled execution. */
int schedfuzz_thread_id(void) __attribute__((weak));

/* The libFuzzer entry points a harness defines. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

#ifdef __cplusplus
}
#endif

#endif
