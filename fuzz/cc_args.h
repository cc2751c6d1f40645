/* cc_args.h - the command line as clang reads it (cc_args.c). */
#ifndef SCHEDFUZZ_CC_ARGS_H
#define SCHEDFUZZ_CC_ARGS_H

#include "cc_inline.h"

/* argv with every @FILE that names a readable file replaced by the words
 * in it, recursively, as clang 14's driver expands them: GNU quoting, a
 * nested @FILE relative to the working directory like the others, an
 * unreadable or recursive one left as it is (clang then takes it for an
 * input). */
void cc_expand_response_files(int argc, char **argv, struct cc_words *out);

/* Does the (expanded) command ask the linker to refuse undefined symbols
 * (-Wl,--no-undefined, -Wl,-z,defs, -Xlinker --no-undefined, -z defs)? */
bool cc_forbids_undefined(const struct cc_words *seen);

#endif
