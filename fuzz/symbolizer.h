/* symbolizer.h - file:line and names for the offsets the runtime reports,
 * from llvm-symbolizer run over the program's file, one query at a time. */
#ifndef SCHEDFUZZ_SYMBOLIZER_H
#define SCHEDFUZZ_SYMBOLIZER_H

#include <stddef.h>
#include <stdint.h>

struct symbolizer;

/* NULL when no llvm-symbolizer is found (SCHEDFUZZ_SYMBOLIZER names one).
 * The tool itself starts at the first question. */
struct symbolizer *symbolizer_open(const char *binary);
void symbolizer_close(struct symbolizer *s);
/* A code site (a return address, as offset in the binary): "file.c:12"
 * and its function; "0xOFF" and "" when unknown. */
void symbolizer_code(struct symbolizer *s, uint32_t off, char *where, size_t cap, char *func,
		     size_t fcap);
/* A data address: the variable's name and where it starts; false if unknown. */
int symbolizer_data(struct symbolizer *s, uint32_t off, char *name, size_t cap, uint64_t *start);

#endif
