/* rt_guide.c - guided exploration: `schedfuzz run` keeps the schedules that
 * showed something new and mutates them (docs/guided.md).
 *
 *   SCHEDFUZZ_GUIDE=0      unguided: every schedule a fresh plan of the
 *                          portfolio (a pinned strategy is never guided)
 *   SCHEDFUZZ_CORPUS=DIR   load the genomes in DIR first, and write every
 *                          schedule the corpus keeps there (a libFuzzer or
 *                          afl-fuzz corpus: one input per file)
 *   SCHEDFUZZ_REVERSALS=0  no reversal arm (rt_reversals.c)
 *
 * Each child publishes the hash of every feature its execution emitted
 * (HaPSet pairs, MAP patterns, reads-from: coverage/) as a bit in a map it
 * shares with the explorer. The explorer keeps the union of what it saw; a
 * schedule that set a bit outside it joins the corpus. Each next schedule
 * is explored (a fresh plan, exactly as unguided exploration draws
 * them) or exploited (a corpus entry's plan mutated by the genome-aware
 * mutator: change points, priorities, variables, depth, a fresh plan now
 * and then), or, at the reversal arm's turns, the next schedule of a DPOR
 * search over the explorer's own executions (rt_reversals.c). Explicit
 * lists are not changed decision by decision: after a
 * changed decision the list's default (keep running the current thread)
 * may starve a thread that waits for a spinning one, an unfair schedule
 * that would be reported as a livelock. The first WARMUP schedules
 * are fresh plans; then a two-armed bandit over their recent yield (the
 * share of each arm's recent schedules that found something new) decides.
 *
 * Deterministic: every draw comes from the seed and from what the children
 * showed, which the schedules determine. Runs in the explorer's process,
 * never in a child: plain malloc and stdio are fine here. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cov_hash.h"
#include "mutate.h"
#include "rng.h"
#include "rt_guide.h"
#include "rt_internal.h"
#include "rt_jobs.h"
#include "rt_libc.h"
#include "rt_reversals.h"

uint64_t *rt_guide_map;

#define WORDS (RT_GUIDE_BITS / 64)
#define MAX_ENTRY (1u << 20) /* bytes of a corpus file the guide loads */
#define DECAY 0.9	     /* weight of an arm's history in its yield */
/* Schedules that are all fresh plans, the same as unguided exploration's:
 * most bugs fall to one of the first few, and the corpus needs them first. */
#define WARMUP 16
#define SYNC_MS 10000 /* how often the corpus directory is read again */

enum arm { SEED, EXPLORE, EXPLOIT, REVERSE };

struct entry {
	uint8_t *bytes;
	size_t size;
	uint64_t hash;
	uint32_t found; /* features it was the first to show */
	uint32_t picks; /* mutants made of it */
	bool fixed;     /* an explicit list of the reversal arm: kept, never mutated */
};

struct rt_guide {
	uint64_t seed;
	struct sf_rng rng;
	uint64_t *seen; /* union of every schedule's features, the campaign's */
	uint64_t nseen;
	struct entry *corpus;
	uint32_t ncorpus, cap;
	uint32_t nmutable; /* entries that are not fixed */
	uint32_t nloaded, nseeded; /* loaded from the directory; run so far */
	const char *dir;
	/* The directory as others write it (another machine's copy synced
	 * in, a fuzzer on the same corpus): the names read so far (hashes,
	 * open addressing), when it is looked at next, and the entries found
	 * there since the start, to be run once. */
	uint64_t *names;
	uint32_t nnames, names_cap;
	uint64_t next_sync_ms;
	uint32_t *pending;
	uint32_t npending, pending_cap;
	int64_t running_seed; /* the corpus entry the SEED arm runs */

	/* The schedule being run. */
	uint8_t *cur;
	size_t cur_size, cur_cap;
	enum arm arm;
	uint64_t explored; /* fresh plans so far */

	struct rt_reversals *reversals; /* NULL: no reversal arm */

	/* The campaign (rt_jobs.c): this job's index, and how far into
	 * the log of the entries other jobs kept it has read. */
	struct rt_campaign *cp;
	int job;
	uint32_t log_read;
	uint64_t log_at;

	double yield[4];   /* EXPLORE, EXPLOIT: decayed share of new-feature schedules */
	uint64_t runs[4], wins[4];
};

static bool reserve(uint8_t **buf, size_t *cap, size_t need)
{
	if (need <= *cap)
		return true;
	uint8_t *p = realloc(*buf, need);
	if (!p)
		return false;
	*buf = p;
	*cap = need;
	return true;
}

static bool add_entry(struct rt_guide *g, const uint8_t *bytes, size_t size, uint32_t found,
		      bool fixed)
{
	uint64_t h = cov_hash64(bytes, size, 0);
	for (uint32_t i = 0; i < g->ncorpus; i++)
		if (g->corpus[i].hash == h && g->corpus[i].size == size)
			return false; /* the same schedule again */
	if (g->ncorpus == g->cap) {
		uint32_t cap = g->cap ? g->cap * 2 : 64;
		struct entry *c = realloc(g->corpus, cap * sizeof *c);
		if (!c)
			return false;
		g->corpus = c;
		g->cap = cap;
	}
	uint8_t *copy = malloc(size ? size : 1);
	if (!copy)
		return false;
	memcpy(copy, bytes, size);
	g->corpus[g->ncorpus++] = (struct entry){ .bytes = copy, .size = size, .hash = h,
						   .found = found, .fixed = fixed };
	g->nmutable += !fixed;
	return true;
}

/* ---- the corpus directory ------------------------------------------------------ */

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Is name new? It is then known from now on. */
static bool new_name(struct rt_guide *g, const char *name)
{
	if (g->nnames * 2 >= g->names_cap) {
		uint32_t cap = g->names_cap ? g->names_cap * 2 : 1024;
		uint64_t *t = calloc(cap, sizeof *t);
		if (!t)
			return true;
		for (uint32_t i = 0; i < g->names_cap; i++) {
			if (!g->names[i])
				continue;
			uint32_t j = (uint32_t)g->names[i] & (cap - 1);
			while (t[j])
				j = (j + 1) & (cap - 1);
			t[j] = g->names[i];
		}
		free(g->names);
		g->names = t;
		g->names_cap = cap;
	}
	uint64_t h = cov_hash64(name, strlen(name), 0) | 1;
	uint32_t j = (uint32_t)h & (g->names_cap - 1);
	for (; g->names[j]; j = (j + 1) & (g->names_cap - 1))
		if (g->names[j] == h)
			return false;
	g->names[j] = h;
	g->nnames++;
	return true;
}

static void queue_pending(struct rt_guide *g, uint32_t index)
{
	if (g->npending == g->pending_cap) {
		uint32_t cap = g->pending_cap ? g->pending_cap * 2 : 64;
		uint32_t *p = realloc(g->pending, cap * sizeof *p);
		if (!p)
			return;
		g->pending = p;
		g->pending_cap = cap;
	}
	g->pending[g->npending++] = index;
}

/* Every regular file of dir not read before, in name order (the same order
 * in every run). At the start they are the loaded entries; later (sync),
 * each new one is queued to run once and handed to the other jobs. */
static void load_dir(struct rt_guide *g, const char *dir, bool later)
{
	DIR *d = opendir(dir);
	if (!d) {
		if (errno != ENOENT)
			fprintf(stderr, "schedfuzz: cannot read the corpus %s: %s\n", dir,
				strerror(errno));
		return;
	}
	char **names = NULL;
	size_t n = 0, cap = 0;
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] == '.' || !new_name(g, e->d_name))
			continue;
		if (n == cap) {
			char **p = realloc(names, (cap = cap ? cap * 2 : 64) * sizeof *p);
			if (!p)
				break;
			names = p;
		}
		if (!(names[n] = strdup(e->d_name)))
			break;
		n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof *names, by_name);
	uint8_t *buf = malloc(MAX_ENTRY);
	for (size_t i = 0; buf && i < n; i++) {
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		struct stat st;
		FILE *f = stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= MAX_ENTRY
				  ? fopen(path, "rb")
				  : NULL;
		if (f) {
			size_t size = fread(buf, 1, MAX_ENTRY, f);
			fclose(f);
			struct sf_plan plan;
			sf_genome_decode(buf, size, &plan);
			bool fixed = plan.kind == SF_KIND_EXPLICIT;
			if (add_entry(g, buf, size, 0, fixed) && later) {
				queue_pending(g, g->ncorpus - 1);
				rt_campaign_publish(g->cp, g->job, buf, size, 0, fixed);
			}
		}
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(buf);
	if (!later)
		g->nloaded = g->ncorpus;
}

static uint64_t clock_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* The directory again, every SYNC_MS, by job 0 (its entries reach the
 * other jobs through the campaign's log): what others wrote there
 * meanwhile, as afl-fuzz's -M/-S instances read each other's queues. */
static void sync_dir(struct rt_guide *g)
{
	if (!g->dir || g->job != 0)
		return;
	uint64_t now = clock_ms();
	if (now < g->next_sync_ms)
		return;
	g->next_sync_ms = now + SYNC_MS;
	load_dir(g, g->dir, true);
}

/* A new entry into the directory, named by its hash as the fuzzers name
 * theirs by a digest; a failure to write costs the entry, not the run. */
static void save_entry(const struct rt_guide *g, const struct entry *e)
{
	if (!g->dir)
		return;
	mkdir(g->dir, 0777);
	char path[4096];
	snprintf(path, sizeof path, "%s/%016" PRIx64, g->dir, e->hash);
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return; /* there already, or the directory is not writable */
	bool ok = write(fd, e->bytes, e->size) == (ssize_t)e->size;
	if (close(fd) != 0 || !ok) {
		fprintf(stderr, "schedfuzz: cannot write %s: %s\n", path, strerror(errno));
		unlink(path);
	}
}

/* ---- the campaign's other jobs ------------------------------------------------------- */

/* Entries other jobs (or an earlier run: the state) kept since the last
 * look: into the corpus, to be mutated like ours, not run again (their
 * features are in the shared union already). */
static void import_entries(struct rt_guide *g)
{
	const struct rt_log_entry *e;
	const uint8_t *bytes;
	while (rt_campaign_entry(g->cp, &g->log_at, g->log_read, &e, &bytes)) {
		g->log_read++;
		if (e->job != g->job)
			add_entry(g, bytes, e->size, e->found, e->fixed);
	}
}

/* ---- the loop ------------------------------------------------------------------------ */

struct rt_guide *rt_guide_create(uint64_t seed, struct rt_campaign *cp, int job)
{
	if (rt_env_u64("SCHEDFUZZ_GUIDE", 1) == 0 || rt.cfg.pinned || !rt.cfg.coverage)
		return NULL;
	struct rt_guide *g = calloc(1, sizeof *g);
	void *map = mmap(NULL, WORDS * sizeof(uint64_t), PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!g || map == MAP_FAILED) {
		free(g);
		return NULL; /* unguided, rather than not at all */
	}
	rt_guide_map = map;
	g->seed = seed;
	g->cp = cp;
	g->job = job;
	g->seen = cp->seen;
	sf_rng_seed(&g->rng, seed ^ 0x6775696465ull /* "guide" */);
	/* Exploitation must earn its share: most bugs fall to the first few
	 * fresh plans, before a corpus can say much. */
	g->yield[EXPLORE] = 0.6;
	g->yield[EXPLOIT] = 0.2;
	g->reversals = rt_reversals_create();
	g->dir = rt_env_str("SCHEDFUZZ_CORPUS");
	g->running_seed = -1;
	g->next_sync_ms = clock_ms() + SYNC_MS;
	if (g->dir)
		load_dir(g, g->dir, false);
	import_entries(g); /* a resumed campaign's */
	return g;
}

static bool set_current(struct rt_guide *g, const uint8_t *bytes, size_t size)
{
	if (!reserve(&g->cur, &g->cur_cap, size ? size : 1))
		return false;
	memcpy(g->cur, bytes, size);
	g->cur_size = size;
	return true;
}

/* An entry's share of the mutants: the ones that showed more and were
 * mutated less weigh more (a rough share of the effort by promise). */
static double weight(const struct entry *e)
{
	return e->fixed ? 0 : (1.0 + e->found) / (1.0 + e->picks);
}

/* Which entry to mutate; there is one that is not fixed. */
static struct entry *pick(struct rt_guide *g)
{
	double total = 0;
	uint32_t last = 0;
	for (uint32_t i = 0; i < g->ncorpus; i++) {
		total += weight(&g->corpus[i]);
		if (!g->corpus[i].fixed)
			last = i;
	}
	double at = (double)(sf_rng_next(&g->rng) >> 11) * 0x1p-53 * total;
	for (uint32_t i = 0; i < g->ncorpus; i++) {
		at -= weight(&g->corpus[i]); /* a fixed entry weighs 0: never here */
		if (at < 0)
			return &g->corpus[i];
	}
	return &g->corpus[last];
}

/* A mutant of e: its plan mutated, its harness data kept. An explicit
 * list the mutator leaves alone gives way to a fresh random walk. */
static bool mutate(struct rt_guide *g, const struct entry *e, const struct sf_estimates *est)
{
	struct sf_plan plan;
	size_t gsize = sf_genome_decode(e->bytes, e->size, &plan);
	const uint8_t *data = e->bytes + gsize;
	size_t data_size = e->size - gsize;
	uint64_t seed = sf_rng_next(&g->rng);
	if (!sf_plan_mutate(&plan, NULL, est, seed))
		sf_plan_generate(&(struct sf_spec){ .kind = SF_KIND_RANDOM }, est, seed, &plan);
	if (rt.cfg.no_spurious)
		plan.flags |= SF_FLAG_NO_SPURIOUS;
	if (!reserve(&g->cur, &g->cur_cap, SF_GENOME_HEADER + data_size))
		return false;
	sf_genome_encode(&plan, NULL, 0, g->cur, SF_GENOME_HEADER);
	memcpy(g->cur + SF_GENOME_HEADER, data, data_size);
	g->cur_size = SF_GENOME_HEADER + data_size;
	return true;
}

/* Is schedule i the reversal arm's (rt_reversals.c)? Every one from the
 * second to the 16th (the first is a fresh plan: the random walk, strong
 * on small programs, the one that tells how many threads there are, and
 * the execution the arm branches off), then one in four up to 64, then
 * one in 16. Bugs of small programs sit in a race near the end, which
 * DPOR's depth-first order reverses within its first few schedules (zoo,
 * with DPOR's own first execution then: geometric mean 3.35 schedules,
 * 4.18 with one in two of the first 16); where it does not, its later
 * schedules mostly vary the same last races, and fresh plans do better. */
static bool reversal_turn(uint64_t i)
{
	return i >= 1 && (i < 16 || i % (i < 64 ? 4 : 16) == 1);
}

const uint8_t *rt_guide_next(struct rt_guide *g, uint64_t i, const struct sf_estimates *est,
			     size_t *size)
{
	memset(rt_guide_map, 0, WORDS * sizeof(uint64_t));
	import_entries(g);
	sync_dir(g);
	/* The directory's entries are run once in the campaign: job j runs
	 * every njobs-th, and they all mutate them. */
	while (g->nseeded < g->nloaded && g->nseeded % g->cp->njobs != (uint32_t)g->job)
		g->nseeded++;
	int64_t seed_entry = -1;
	if (g->nseeded < g->nloaded)
		seed_entry = g->nseeded++;
	else if (g->npending)
		seed_entry = g->pending[--g->npending];
	if (seed_entry >= 0) {
		const struct entry *e = &g->corpus[seed_entry];
		g->arm = SEED;
		g->running_seed = seed_entry;
		if (set_current(g, e->bytes, e->size)) {
			*size = g->cur_size;
			return g->cur;
		}
	}
	if (rt_reversals_active(g->reversals) && reversal_turn(i)) {
		const uint8_t *genome = rt_reversals_next(g->reversals, size);
		if (genome && set_current(g, genome, *size)) {
			g->arm = REVERSE;
			return g->cur;
		}
	}
	/* The arms' shares by recent yield, with a prior that leans to fresh
	 * plans: when neither finds anything any more, exploration (the
	 * unguided portfolio) gets 4 schedules in 5. Mutants never get more
	 * than 3 in 10: fresh plans found bugs sooner on every benchmark we
	 * have (docs/guided.md), and neither arm starves. */
	double p = (g->yield[EXPLOIT] + 0.02) / (g->yield[EXPLORE] + g->yield[EXPLOIT] + 0.1);
	p = p < 0.1 ? 0.1 : p > 0.3 ? 0.3 : p;
	bool exploit = g->nmutable && i >= WARMUP &&
		       (double)(sf_rng_next(&g->rng) >> 11) * 0x1p-53 < p;
	if (exploit) {
		struct entry *e = pick(g);
		e->picks++;
		if (mutate(g, e, est)) {
			g->arm = EXPLOIT;
			*size = g->cur_size;
			return g->cur;
		}
	}
	uint8_t fresh[SF_GENOME_HEADER];
	g->explored++;
	rt_make_genome(fresh, sf_derive_seed(g->seed, i), est);
	g->arm = EXPLORE;
	rt_reversals_watch(g->reversals); /* the first fresh plan roots the search */
	if (!set_current(g, fresh, sizeof fresh)) {
		/* Out of memory: the fresh plan from a buffer that stays. */
		static uint8_t spare[SF_GENOME_HEADER];
		memcpy(spare, fresh, sizeof fresh);
		*size = sizeof spare;
		return spare;
	}
	*size = g->cur_size;
	return g->cur;
}

bool rt_guide_learn(struct rt_guide *g, bool failed, uint32_t threads)
{
	bool reversal = g->arm == REVERSE;
	/* The thread count first: a first execution with too many threads
	 * ends the arm before its log is analysed for nothing. */
	rt_reversals_threads(g->reversals, threads);
	rt_reversals_ran(g->reversals, failed);
	uint32_t found = 0;
	for (uint32_t w = 0; w < WORDS; w++) {
		uint64_t fresh = rt_guide_map[w] & ~__atomic_load_n(&g->seen[w], __ATOMIC_RELAXED);
		if (fresh) { /* another job may have seen some of them meanwhile */
			fresh &= ~__atomic_fetch_or(&g->seen[w], fresh, __ATOMIC_RELAXED);
			found += (uint32_t)__builtin_popcountll(fresh);
		}
	}
	g->nseen += found;
	g->runs[g->arm]++;
	if (found)
		g->wins[g->arm]++;
	if (g->arm == EXPLORE || g->arm == EXPLOIT)
		g->yield[g->arm] = DECAY * g->yield[g->arm] + (1 - DECAY) * (found ? 1.0 : 0.0);
	if (g->arm == SEED) { /* a loaded entry: in the corpus already */
		g->corpus[g->running_seed].found = found;
		return false;
	}
	/* An explicit list has nothing the mutator can vary: the reversal
	 * arm's are kept for the directory and the fuzzers, not mutated. */
	if (found && add_entry(g, g->cur, g->cur_size, found, reversal)) {
		save_entry(g, &g->corpus[g->ncorpus - 1]);
		rt_campaign_publish(g->cp, g->job, g->cur, g->cur_size, found, reversal);
	}
	return reversal;
}

void rt_guide_counts(const struct rt_guide *g, struct rt_guide_counts *out)
{
	*out = (struct rt_guide_counts){ .corpus = g->ncorpus, .loaded = g->nloaded };
	for (int a = 0; a < 4; a++) {
		out->runs[a] = g->runs[a];
		out->wins[a] = g->wins[a];
	}
}

void rt_guide_summary(const struct rt_guide *g)
{
	fprintf(stderr,
		"guided: corpus %" PRIu32 " (%" PRIu32 " loaded), features %" PRIu64
		", explored %" PRIu64 " (%" PRIu64 " new), mutated %" PRIu64 " (%" PRIu64
		" new), reversed %" PRIu64 " (%" PRIu64 " new)\n",
		g->ncorpus, g->nloaded, g->nseen, g->runs[EXPLORE], g->wins[EXPLORE],
		g->runs[EXPLOIT], g->wins[EXPLOIT], g->runs[REVERSE], g->wins[REVERSE]);
}
