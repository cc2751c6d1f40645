/* driver.h - what the engine drivers share: running a harness over inputs
 * named on the command line, as libFuzzer does when given files. */
#ifndef SCHEDFUZZ_DRIVER_H
#define SCHEDFUZZ_DRIVER_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

/* Run the harness once per file named in argv[1..] (a directory: each
 * regular file in it, in name order), or once on stdin when none is
 * named. Returns main()'s status: 0, or 2 when an input cannot be read. */
int driver_run_inputs(int argc, char **argv);

#endif
