/* names.h - sites and variables as people read them: "file.c:12 (func)",
 * a global's name, a heap block's allocation site. Each offset is asked of
 * llvm-symbolizer once; without it, offsets are shown in hex. */
#ifndef SCHEDFUZZ_NAMES_H
#define SCHEDFUZZ_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct names;

/* Never NULL (out of memory exits); *symbolized says whether
 * llvm-symbolizer runs, so that the caller can say why names are hex. */
struct names *names_open(const char *binary, bool *symbolized);
void names_close(struct names *nm);

/* A code site (an offset in the binary): "file.c:12" and its function ("" if unknown). */
const char *names_where(struct names *nm, uint32_t site);
const char *names_func(struct names *nm, uint32_t site);
/* "file.c:12 (func)", or "file.c:12" without a function. */
void names_site(struct names *nm, uint32_t site, char *out, size_t cap);
/* A variable as the runtime identifies it (rt_var_of): 'g' a global at
 * offset a, 'h' offset b into a block allocated at site a, 'm' memory
 * first touched at site a. */
void names_var(struct names *nm, char kind, uint32_t a, uint32_t b, char *out, size_t cap);

#endif
