/* afl_mutator.c - AFL++'s custom mutator for schedfuzz targets:
 *
 *   AFL_CUSTOM_MUTATOR_LIBRARY=$PREFIX/lib/schedfuzz/libschedfuzz_afl_mutator.so \
 *       afl-fuzz -i seeds -o out -- ./prog
 *
 * It mutates the genome for what it means (strategies/mutate.c), and
 * leaves the harness's data to afl-fuzz's own stages, which still run.
 * afl-fuzz loads it before it starts the target, so the file of estimates
 * it creates is named in the environment the target inherits
 * (estimates_file.h); the target folds every execution's counts into it.
 * With AFL_CUSTOM_MUTATOR_ONLY=1 every mutation is this one's, the data's
 * included (a few byte-level steps of its own). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "estimates_file.h"
#include "genome.h"
#include "mutate.h"
#include "rng.h"
#include "spec.h"

#define OUT_MAX (1u << 20)

struct mutator {
	struct sf_rng rng;
	struct sf_estimates_file *file; /* NULL: no counts, mutations draw scales */
	bool pinned;
	struct sf_spec spec;
	bool only;    /* AFL_CUSTOM_MUTATOR_ONLY: the data is ours to mutate too */
	uint8_t *out; /* OUT_MAX bytes */
};

/* An anonymous file, reachable by the target through /proc while this
 * process lives and gone with it: nothing is left behind in /dev/shm. */
static struct sf_estimates_file *share_estimates(void)
{
	int fd = memfd_create("schedfuzz-estimates", 0);
	if (fd < 0 || ftruncate(fd, sizeof(struct sf_estimates_file)) != 0)
		return NULL;
	struct sf_estimates_file *f = mmap(NULL, sizeof *f, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (f == MAP_FAILED)
		return NULL;
	f->magic = SF_ESTIMATES_MAGIC;
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/fd/%d", (int)getpid(), fd);
	setenv("SCHEDFUZZ_ESTIMATES", path, 1);
	return f;
}

void *afl_custom_init(void *afl, unsigned int seed)
{
	(void)afl;
	struct mutator *m = calloc(1, sizeof *m);
	if (!m || !(m->out = malloc(OUT_MAX))) {
		fprintf(stderr, "schedfuzz mutator: out of memory\n");
		free(m);
		return NULL;
	}
	sf_rng_seed(&m->rng, seed);
	const char *spec = getenv("SCHEDFUZZ_STRATEGY");
	if (spec && *spec) {
		char err[256];
		if (!sf_spec_parse(spec, &m->spec, err, sizeof err)) {
			fprintf(stderr, "schedfuzz mutator: SCHEDFUZZ_STRATEGY=%s: %s\n", spec, err);
			free(m->out);
			free(m);
			return NULL;
		}
		m->pinned = true;
	}
	const char *only = getenv("AFL_CUSTOM_MUTATOR_ONLY");
	m->only = only && *only && strcmp(only, "0") != 0;
	m->file = share_estimates();
	if (!m->file)
		fprintf(stderr, "schedfuzz mutator: no shared estimates (memfd: %m); "
				"change points are drawn at guessed scales\n");
	return m;
}

/* A few byte-level steps on the data, for AFL_CUSTOM_MUTATOR_ONLY runs. */
static size_t mutate_data(struct mutator *m, uint8_t *data, size_t size, size_t max_size)
{
	switch (sf_rng_below(&m->rng, 4)) {
	case 0: /* insert a byte */
		if (size < max_size) {
			size_t at = sf_rng_below(&m->rng, (uint32_t)size + 1);
			memmove(data + at + 1, data + at, size - at);
			data[at] = (uint8_t)sf_rng_next(&m->rng);
			return size + 1;
		}
		break;
	case 1: /* erase a byte */
		if (size > 0) {
			size_t at = sf_rng_below(&m->rng, (uint32_t)size);
			memmove(data + at, data + at + 1, size - at - 1);
			return size - 1;
		}
		break;
	case 2: /* flip a bit */
		if (size > 0) {
			data[sf_rng_below(&m->rng, (uint32_t)size)] ^= (uint8_t)(1u << sf_rng_below(&m->rng, 8));
			return size;
		}
		break;
	default:
		break;
	}
	if (size > 0) /* a random byte */
		data[sf_rng_below(&m->rng, (uint32_t)size)] = (uint8_t)sf_rng_next(&m->rng);
	return size;
}

size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf,
		       uint8_t *add_buf, size_t add_buf_size, size_t max_size)
{
	struct mutator *m = data;
	if (max_size > OUT_MAX)
		max_size = OUT_MAX;
	*out_buf = m->out;
	if (max_size < SF_GENOME_HEADER) {
		size_t n = buf_size < max_size ? buf_size : max_size;
		memcpy(m->out, buf, n);
		return n;
	}
	struct sf_plan plan;
	size_t g = sf_genome_decode(buf, buf_size, &plan);

	uint32_t roll = sf_rng_below(&m->rng, 16);
	if (m->only && roll < 5 && g == SF_GENOME_HEADER) {
		size_t rest = buf_size - g < max_size - g ? buf_size - g : max_size - g;
		memcpy(m->out, buf, g + rest);
		return g + mutate_data(m, m->out + g, rest, max_size - g);
	}
	if (roll == 15 && add_buf && add_buf_size >= SF_GENOME_HEADER) {
		/* Crossover: another input's schedule with this one's data. */
		struct sf_plan other;
		sf_genome_decode(add_buf, add_buf_size, &other);
		if (other.kind != SF_KIND_EXPLICIT)
			plan = other;
	}
	const struct sf_estimates none = { 0 };
	const struct sf_estimates *est = m->file ? &m->file->est : &none;
	size_t n = sf_genome_mutate(&plan, buf + g, buf_size - g, m->out, max_size,
				    m->pinned ? &m->spec : NULL, est, sf_rng_next(&m->rng));
	if (n == 0) {
		/* A recorded decision list: one decision's value changed. */
		n = buf_size < max_size ? buf_size : max_size;
		memcpy(m->out, buf, n);
		if (plan.ndecisions > 0) {
			uint32_t i = sf_rng_below(&m->rng, plan.ndecisions);
			size_t at = SF_GENOME_HEADER + (size_t)i * SF_DECISION_BYTES + 4;
			if (at < n)
				m->out[at] = (uint8_t)sf_rng_below(&m->rng, 8);
		}
	}
	return n;
}

const char *afl_custom_describe(void *data, size_t max_description_len)
{
	(void)data;
	return max_description_len >= 9 ? "schedfuzz" : "sf";
}

void afl_custom_deinit(void *data)
{
	struct mutator *m = data;
	if (!m)
		return;
	if (m->file)
		munmap(m->file, sizeof *m->file);
	free(m->out);
	free(m);
}
