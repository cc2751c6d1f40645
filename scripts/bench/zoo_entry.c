/* zoo_entry.c - runs a zoo main() program as a libFuzzer harness, so the
 * benchmark can fuzz every zoo program with libFuzzer too. The program is
 * compiled with -Dmain=zoo_main beside this file; every zoo main() sets
 * its own state first (tests/bugs/zoo.tsv), so it can run once per input
 * in one process. The input is all genome: the program reads no data. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int zoo_main(void);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	(void)data;
	(void)size;
	int r = zoo_main();
	if (r != 0) { /* a failing main() exit is a failure, as in a main() build */
		fprintf(stderr, "zoo_entry: main() returned %d\n", r);
		abort();
	}
	return 0;
}
