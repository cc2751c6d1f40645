/* read_file.h - reading a whole input file, shared by the schedfuzz
 * command and the engine drivers linked into users' harnesses. */
#ifndef SCHEDFUZZ_READ_FILE_H
#define SCHEDFUZZ_READ_FILE_H

#include <stddef.h>
#include <stdint.h>

/* All of a file's bytes ("-" for stdin; malloc'd, *size set), or NULL
 * with errno set. */
uint8_t *read_whole_file(const char *path, size_t *size);

#endif
