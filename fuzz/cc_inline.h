/* cc_inline.h - compiling with the access checks inline (cc_inline.c). */
#ifndef SCHEDFUZZ_CC_INLINE_H
#define SCHEDFUZZ_CC_INLINE_H

#include <stdbool.h>

/* A command being built: NULL-terminated words (v[n] == NULL). */
struct cc_words {
	char **v;
	int n, cap;
};
/* Appends a (not copied); out of memory ends schedfuzz-cc. */
void cc_words_add(struct cc_words *w, const char *a);

/* Options whose next word is their value, not an input. */
bool cc_takes_value(const char *arg);

/* Runs the compiler command argv (argv[0] the compiler, the TSan pass on,
 * NULL-terminated) so that the fast path of the memory-access hooks,
 * LLVM bitcode at bitcode, is inlined into every object it compiles: each
 * source is compiled to bitcode with the command's own options, then that
 * bitcode, with the hooks' bitcode linked in, to the object; a link runs
 * as asked, on those objects. Intermediate files go to a private
 * directory (cc_scratch.c); the outputs are clang's, under clang's names
 * (the object, its dependency file and that file's target), and a
 * failing source does not stop the others of a -c command, as with
 * clang. Returns the command's exit status, or -1
 * when the command is one it leaves alone (no source, position-independent
 * code, LTO, output other than objects or executables, another compiler
 * version): the caller then runs argv as it is. */
int cc_inline_run(char **argv, int argc, const char *bitcode);

#endif
