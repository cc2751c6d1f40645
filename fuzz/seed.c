/* seed.c - `schedfuzz seed --data DIR -o DIR [--genomes N] [--seed S]`:
 * turn an existing data corpus (a harness's seeds, as they are) into
 * schedfuzz inputs. A harness input is a schedule genome followed by the
 * harness's data (runtime/rt_driver.c), so a data seed given to a
 * schedfuzz build as it is would be read as a genome, and the harness
 * would get what is left of it. Each data file here is written N times
 * (default: the whole portfolio), behind one genome of each strategy the
 * built-in explorer rotates over, so a campaign starts from every kind of
 * schedule with every data seed.
 *
 * Names are deterministic: DATA-NAME.I-STRATEGY (e.g. deposits.1-pct-d2),
 * and so are the genomes: drawn from S, I and the file's name only, so
 * that adding a file to the corpus changes no other output. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cov_hash.h"
#include "generate.h"
#include "genome.h"
#include "program.h"
#include "read_file.h"
#include "seed.h"
#include "spec.h"

/* The explorer's portfolio (rt_driver.c): a random walk, then each
 * strategy that wins on some kind of bug. */
static const struct {
	const char *spec, *name;
} portfolio[] = {
	{ "random", "random" },
	{ "pct:d=2", "pct-d2" },
	{ "pct:d=3", "pct-d3" },
	{ "rpro:d=3,r=20,locks", "rpro-d3" },
	{ "pctvb:d=2,v=1", "pctvb-d2" },
};
enum { NPORTFOLIO = sizeof portfolio / sizeof portfolio[0] };

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The regular files of dir, sorted, or NULL after a one-line reason. */
static char **data_files(const char *dir, size_t *n)
{
	DIR *d = opendir(dir);
	if (!d) {
		fprintf(stderr, "schedfuzz: cannot read the directory %s: %s\n", dir, strerror(errno));
		return NULL;
	}
	size_t cap = 64;
	char **names = malloc(cap * sizeof *names);
	*n = 0;
	for (struct dirent *e; names && (e = readdir(d));) {
		char *path;
		struct stat st;
		if (e->d_name[0] == '.' || asprintf(&path, "%s/%s", dir, e->d_name) < 0)
			continue;
		bool regular = stat(path, &st) == 0 && S_ISREG(st.st_mode);
		free(path);
		if (!regular)
			continue;
		if (*n == cap)
			names = realloc(names, (cap *= 2) * sizeof *names);
		if (names)
			names[(*n)++] = strdup(e->d_name);
	}
	closedir(d);
	if (!names) {
		fprintf(stderr, "schedfuzz: out of memory listing %s\n", dir);
		return NULL;
	}
	qsort(names, *n, sizeof *names, by_name);
	return names;
}

static bool write_seed(const char *path, const uint8_t *genome, size_t gsize, const uint8_t *data,
		       size_t size)
{
	uint8_t *all = malloc(gsize + size);
	bool ok = all != NULL;
	if (ok) {
		memcpy(all, genome, gsize);
		if (size)
			memcpy(all + gsize, data, size);
		ok = program_write_file(path, all, gsize + size) == 0;
		free(all);
	}
	if (!ok)
		fprintf(stderr, "schedfuzz: cannot write %s: %s\n", path, strerror(errno));
	return ok;
}

int cmd_seed(int argc, char **argv)
{
	const char *data_dir = NULL, *out = NULL;
	unsigned genomes = NPORTFOLIO;
	uint64_t seed = 0;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--data")) {
			data_dir = argv[i = program_option_value(argc, argv, i)];
		} else if (!strcmp(a, "-o") || !strcmp(a, "--out")) {
			out = argv[i = program_option_value(argc, argv, i)];
		} else if (!strcmp(a, "--genomes")) {
			i = program_option_value(argc, argv, i);
			genomes = (unsigned)program_number(a, argv[i], 1, NPORTFOLIO);
		} else if (!strcmp(a, "--seed")) {
			i = program_option_value(argc, argv, i);
			seed = program_number(a, argv[i], 0, UINT64_MAX);
		} else {
			fprintf(stderr, "schedfuzz seed: unknown option '%s'\n", a);
			return SETUP;
		}
	}
	if (!data_dir || !out) {
		fprintf(stderr, "usage: schedfuzz seed --data DIR -o DIR [--genomes N] [--seed S]\n");
		return SETUP;
	}
	size_t n;
	char **names = data_files(data_dir, &n);
	if (!names)
		return SETUP;
	if (!program_output_dir("-o", out))
		return SETUP;
	int status = OK;
	size_t written = 0;
	for (size_t f = 0; f < n && status == OK; f++) {
		char *src, *dst;
		size_t size;
		uint8_t *data = NULL;
		if (asprintf(&src, "%s/%s", data_dir, names[f]) < 0 || !(data = read_whole_file(src, &size))) {
			fprintf(stderr, "schedfuzz: cannot read %s/%s: %s\n", data_dir, names[f], strerror(errno));
			status = SETUP;
			continue;
		}
		uint64_t name_hash = cov_hash64(names[f], strlen(names[f]), seed);
		for (unsigned g = 0; g < genomes && status == OK; g++) {
			struct sf_spec spec;
			char err[256];
			if (!sf_spec_parse(portfolio[g].spec, &spec, err, sizeof err))
				abort(); /* our own table */
			struct sf_plan plan;
			sf_plan_generate(&spec, &(struct sf_estimates){ 0 }, sf_derive_seed(name_hash, g), &plan);
			uint8_t genome[SF_GENOME_HEADER];
			sf_genome_encode(&plan, NULL, 0, genome, sizeof genome);
			if (asprintf(&dst, "%s/%s.%u-%s", out, names[f], g, portfolio[g].name) < 0) {
				status = SETUP;
				break;
			}
			if (!write_seed(dst, genome, sizeof genome, data, size))
				status = SETUP;
			else
				written++;
			free(dst);
		}
		free(data);
		free(src);
	}
	for (size_t f = 0; f < n; f++)
		free(names[f]);
	free(names);
	if (status == OK)
		fprintf(stderr, "schedfuzz: %zu inputs written to %s (%zu data files, %u genomes each)\n",
			written, out, n, genomes);
	return status;
}
