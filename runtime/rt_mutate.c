/* rt_mutate.c - libFuzzer's custom mutator: the genome mutated for what it
 * means (strategies/mutate.c), the harness's data by libFuzzer's own
 * mutator.
 *
 * libFuzzer runs every input in this process, so the mutator knows what
 * executions showed (events, lock acquisitions, shared variables) and
 * writes it into the genomes it makes, as the built-in explorer does. The
 * definition is weak: a harness that defines its own custom mutator keeps
 * it. Under afl-fuzz the mutator is fuzz/afl_mutator.c, in afl-fuzz's
 * process; executions tell it their counts through a shared file. */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "estimates_file.h"
#include "mutate.h"
#include "rng.h"
#include "rt_input_hint.h"
#include "rt_internal.h"
#include "rt_libc.h"

extern size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size) __attribute__((weak));

/* The most each execution under libFuzzer showed (generate.h). */
static struct sf_estimates seen;

/* The file an AFL++ mutator shares (estimates_file.h), mapped on first
 * use: once per process in persistent mode, once per forked child
 * otherwise. NULL when there is none or it cannot be used. */
static struct sf_estimates_file *shared_file(void)
{
	static struct sf_estimates_file *file;
	static bool tried;
	if (tried)
		return file;
	tried = true;
	const char *path = rt_env_initial("SCHEDFUZZ_ESTIMATES");
	if (!path || !*path)
		return NULL;
	int fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	void *m = mmap(NULL, sizeof *file, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return NULL;
	file = m;
	if (file->magic != SF_ESTIMATES_MAGIC) { /* not one of ours: leave it alone */
		munmap(m, sizeof *file);
		file = NULL;
	}
	return file;
}

void rt_mutate_learn(const struct sf_estimates *run)
{
	if (rt.under_libfuzzer)
		sf_estimates_merge(&seen, run);
	struct sf_estimates_file *file = shared_file();
	if (file)
		sf_estimates_merge(&file->est, run);
}

RT_EXPORT __attribute__((weak)) size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
							       size_t max_size, unsigned int seed)
{
	rt_mutated = true; /* inputs from now on may be mutations (rt_input_hint.c) */
	if (!LLVMFuzzerMutate || max_size < SF_GENOME_HEADER)
		return LLVMFuzzerMutate ? LLVMFuzzerMutate(data, size, max_size) : size;
	struct sf_rng rng;
	sf_rng_seed(&rng, seed);
	struct sf_plan plan;
	size_t g = sf_genome_decode(data, size, &plan);
	bool has_data = size > g;

	/* Mostly the schedule; the data as often as a harness has some (and
	 * now and then when it has none yet); rarely all bytes, which keeps
	 * every input reachable. */
	uint32_t roll = sf_rng_below(&rng, 16);
	if (roll < (has_data ? 6u : 2u) && g == SF_GENOME_HEADER) {
		size_t n = LLVMFuzzerMutate(data + g, size - g, max_size - g);
		return g + n;
	}
	if (roll < 15) {
		size_t n = sf_genome_mutate(&plan, data + g, size - g, data, max_size,
					    rt.cfg.pinned ? &rt.cfg.spec : NULL, &seen, sf_rng_next(&rng));
		if (n)
			return n;
	}
	return LLVMFuzzerMutate(data, size, max_size);
}
