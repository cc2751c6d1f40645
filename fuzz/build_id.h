/* build_id.h - a binary's build identity and the traits that tell two
 * builds of one source apart, for saying which build an input was made
 * for and how the binary at hand differs. */
#ifndef SCHEDFUZZ_BUILD_ID_H
#define SCHEDFUZZ_BUILD_ID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct build_info {
	char name[256];      /* the file's base name */
	char id[80];         /* ELF build-id in hex, or "code-HASH" of the code sections */
	bool asan;           /* AddressSanitizer's runtime is linked */
	const char *engine;  /* "libfuzzer", "afl", "standalone" or "none" */
	bool line_info;      /* a DWARF line table */
	bool variable_info;  /* location lists: full -g of optimised code */
	uint64_t code_size;  /* bytes of executable sections */
};

/* False when the file cannot be read or is no 64-bit ELF file. */
bool build_identify(const char *path, struct build_info *b);
/* "sanitizer=none engine=libfuzzer debug=full code=123456", and back. */
void build_traits(const struct build_info *b, char *out, size_t cap);
bool build_parse_traits(const char *text, struct build_info *b);
/* How the build an input was made for differs from this one, in words. */
void build_differences(const struct build_info *made, const struct build_info *here, char *out,
		       size_t cap);

#endif
