/* rt_input_hint.h - a one-time word when inputs look like plain data or
 * were made for another build (rt_input_hint.c). Never a rejection. */
#ifndef SCHEDFUZZ_RT_INPUT_HINT_H
#define SCHEDFUZZ_RT_INPUT_HINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rt_internal.h"

/* Inputs are replayed one by one (SCHEDFUZZ_INPUT, or files on the
 * command line), not fuzzed; and libFuzzer has mutated an input. */
extern bool rt_single_inputs RT_HIDDEN;
extern bool rt_mutated RT_HIDDEN;

/* main's arguments: are inputs named on the command line? */
RT_HIDDEN void rt_input_hint_args(int argc, char **argv);
/* A harness input is about to run. */
RT_HIDDEN void rt_input_hint_begin(const uint8_t *data, size_t size);
/* ... and it ended without a failure. */
RT_HIDDEN void rt_input_hint_passed(void);

#endif
