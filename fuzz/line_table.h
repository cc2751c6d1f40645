/* line_table.h - source lines of a binary's code addresses and back,
 * from its DWARF line table (what portable reproducers are anchored to). */
#ifndef SCHEDFUZZ_LINE_TABLE_H
#define SCHEDFUZZ_LINE_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct line_table;

/* NULL after a one-line reason in err (no tool, no line table). */
struct line_table *lt_load(const char *binary, char *err, size_t cap);
void lt_free(struct line_table *lt);
/* The file (as the line table names it) and line of a code address. */
bool lt_lookup(const struct line_table *lt, uint64_t addr, const char **file, uint32_t *line);
/* The address ranges [lo, hi) that line of file became (file matched by
 * its longest path tail, so another checkout of the source matches).
 * Returns how many there are; the first cap are written. */
size_t lt_ranges(const struct line_table *lt, const char *file, uint32_t line, uint64_t (*out)[2],
		 size_t cap);

/* Does the line table name a file of that base name at all? */
bool lt_knows_file(const struct line_table *lt, const char *file);

#endif
