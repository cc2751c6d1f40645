/* read_file.c - reading a whole input file (read_file.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read_file.h"

uint8_t *read_whole_file(const char *path, size_t *size)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0;
	uint8_t *buf = malloc(cap);
	for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
		n += got;
		if (n == cap) {
			uint8_t *p = realloc(buf, cap *= 2);
			if (!p)
				free(buf);
			buf = p;
		}
	}
	if (f != stdin)
		fclose(f);
	*size = n;
	return buf;
}
