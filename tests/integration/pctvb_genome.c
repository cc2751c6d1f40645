/* pctvb_genome.c - writes a PCTVB genome that names its variables by id,
 * as the explorer's plans do once it has seen them (schedfuzz genome draws
 * plans without estimates, which name ranks), for own_points.sh.
 *
 * usage: pctvb_genome OUT ID[:ACCESSES]...
 * ID is a variable id (genome.h: a global's offset in the executable, or
 * 0x80000000 | an allocation site's); ACCESSES its estimated accesses
 * (default 1000). Depth 2: one change point, among all the accesses. */
#include <stdio.h>
#include <stdlib.h>

#include "genome.h"

int main(int argc, char **argv)
{
	if (argc < 3 || argc - 2 > SF_MAX_VARS) {
		fprintf(stderr, "usage: pctvb_genome OUT ID[:ACCESSES]... (1 to %d variables)\n",
			SF_MAX_VARS);
		return 2;
	}
	struct sf_plan plan = { .kind = SF_KIND_PCTVB, .version = SF_GENOME_VERSION, .seed = 1,
				.depth = 2, .k = 1000, .cp = { 7 } };
	for (int i = 0; i < SF_PRIO_SLOTS; i++)
		plan.prio[i] = (uint8_t)(SF_PRIO_SLOTS - i);
	for (int v = 0; v < argc - 2; v++) {
		char *end;
		plan.var[v] = (uint32_t)strtoul(argv[v + 2], &end, 0);
		plan.var_acc[v] = *end == ':' ? (uint32_t)strtoul(end + 1, NULL, 0) : 1000;
		plan.nvars = (uint8_t)(v + 1);
	}
	sf_plan_normalize(&plan);
	uint8_t buf[SF_GENOME_HEADER];
	size_t n = sf_genome_encode(&plan, NULL, 0, buf, sizeof buf);
	FILE *f = fopen(argv[1], "wb");
	if (!f || n == 0 || n > sizeof buf || fwrite(buf, 1, n, f) != n || fclose(f) != 0) {
		perror(argv[1]);
		return 1;
	}
	return 0;
}
