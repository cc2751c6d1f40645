/* rt_search_explore.c - the explorer of the systematic strategies
 * (search.h): `schedfuzz run --strategy dpor|dpor+hapset|icb:c=N|dfs`.
 *
 *   SCHEDFUZZ_SEARCH=S         the strategy; SCHEDFUZZ_RUNS is the budget
 *   SCHEDFUZZ_SEARCH_STATE=F   keep the search in F: go on from it if it
 *                              exists, write it back when stopping
 *   SCHEDFUZZ_SEARCH_CORPUS=D  HaPSets from a fuzzing corpus: learn the
 *                              pairs of every input in D first, and add to
 *                              D each explored schedule that taught new ones
 *
 * Every schedule is an explicit genome run in a forked child, which logs
 * its transitions and decisions into shared memory (rt_search.c); the
 * search reads the log and says what runs next. Failures are saved and
 * replayed as the random explorer's are. At the end it prints
 * "schedules: N" and "complete: yes|no", and for a completed preemption
 * bound with no bug, the statement that bound proves. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cov.h"
#include "rt_internal.h"
#include "search.h"

/* The log's room: executions longer than this are refused in one line. */
#define LOG_TRANS (1u << 20)
#define LOG_DECISIONS (1u << 20)
#define LOG_CANDIDATES (1u << 22)
#define LOG_PAIRS (1u << 20)

static volatile sig_atomic_t stop_requested;

static void request_stop(int sig)
{
	stop_requested = 1;
}

struct sx_log *rt_search_map_log(bool want_hapset)
{
	uint64_t off_trans = 4096;
	uint64_t off_dec = off_trans + (uint64_t)LOG_TRANS * sizeof(struct sx_trans);
	uint64_t off_cand = off_dec + (uint64_t)LOG_DECISIONS * sizeof(struct sx_decision);
	uint64_t off_hap = off_cand + (uint64_t)LOG_CANDIDATES * sizeof(struct sx_cand);
	uint64_t size = off_hap + (uint64_t)LOG_PAIRS * sizeof(uint64_t);
	struct sx_log *l = mmap(NULL, size, PROT_READ | PROT_WRITE,
				MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (l == MAP_FAILED)
		return NULL;
	*l = (struct sx_log){
		.cap_trans = LOG_TRANS,
		.cap_dec = LOG_DECISIONS,
		.cap_cand = LOG_CANDIDATES,
		.cap_hap = LOG_PAIRS,
		.want_hapset = want_hapset,
		.off_trans = off_trans,
		.off_dec = off_dec,
		.off_cand = off_cand,
		.off_hap = off_hap,
	};
	return l;
}

uint8_t *rt_search_encode(const struct sf_decision *d, uint32_t n, size_t *size)
{
	if (n > SF_MAX_DECISIONS)
		return NULL;
	struct sf_plan p = { .kind = SF_KIND_EXPLICIT, .flags = SF_FLAG_FAIR };
	if (rt.cfg.no_spurious)
		p.flags |= SF_FLAG_NO_SPURIOUS;
	*size = sf_genome_encode(&p, d, n, NULL, 0);
	uint8_t *buf = malloc(*size);
	if (buf)
		sf_genome_encode(&p, d, n, buf, *size);
	return buf;
}

struct explorer {
	int argc;
	char **argv, **envp;
	struct rt_result *shared;
	struct sx_log *log;
	int quiet;
	unsigned timeout;
};

static struct rt_child run(struct explorer *x, const uint8_t *input, size_t size)
{
	return rt_run_child(input, size, x->argc, x->argv, x->envp, x->shared, x->quiet, x->timeout);
}

/* Learn the HaPSet pairs of every good run of the inputs in dir. */
static int learn_corpus(struct explorer *x, struct sx_search *s, const char *dir)
{
	DIR *d = opendir(dir);
	if (!d) {
		if (errno == ENOENT)
			return 0; /* an empty corpus to be */
		fprintf(stderr, "schedfuzz: cannot read the corpus %s: %s\n", dir, strerror(errno));
		return -1;
	}
	unsigned inputs = 0;
	for (struct dirent *e; (e = readdir(d));) {
		char path[4096];
		struct stat st;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (e->d_name[0] == '.' || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		size_t size;
		uint8_t *input = rt_read_file(path, &size);
		struct rt_child c = run(x, input, size);
		free(input);
		if (c.setup_error) {
			rt_show_child_output(x->quiet);
			closedir(d);
			return -1;
		}
		if (!c.failed)
			sx_learn(s, sx_log_hap(x->log), x->log->nhap);
		inputs++;
	}
	closedir(d);
	struct sx_status st;
	sx_status(s, &st);
	fprintf(stderr, "schedfuzz: learned %" PRIu64 " HaPSet pairs from %u inputs of %s\n",
		st.pairs, inputs, dir);
	return 0;
}

static void say_bounds(int from, int to)
{
	for (int c = from; c <= to; c++)
		fprintf(stderr, "no bug reachable with \u2264 %d preemption%s at these scheduling points\n", c,
		       c == 1 ? "" : "s");
	fflush(stderr);
}

int rt_search_explore(const char *spec_text, uint64_t runs, int argc, char **argv, char **envp)
{
	struct sx_spec spec;
	char err[512];
	if (!sx_spec_parse(spec_text, &spec, err, sizeof err)) {
		fprintf(stderr, "schedfuzz: SCHEDFUZZ_SEARCH=%s: %s\n", spec_text, err);
		return RT_EXIT_SETUP;
	}
	if (rt.cfg.pinned) {
		fprintf(stderr, "schedfuzz: SCHEDFUZZ_SEARCH and SCHEDFUZZ_STRATEGY exclude each other\n");
		return RT_EXIT_SETUP;
	}
	bool guided = spec.mode == SX_DPOR_HAPSET;
	if (guided && !(rt.cfg.coverage & COV_HAPSET)) {
		fprintf(stderr, "schedfuzz: dpor+hapset needs HaPSet coverage "
				"(SCHEDFUZZ_COVERAGE=hapset or both)\n");
		return RT_EXIT_SETUP;
	}
	const char *out = rt_env_str("SCHEDFUZZ_OUT") ? rt_env_str("SCHEDFUZZ_OUT") : ".";
	const char *state = rt_env_str("SCHEDFUZZ_SEARCH_STATE");
	const char *corpus = rt_env_str("SCHEDFUZZ_SEARCH_CORPUS");
	bool keep_going = rt_env_u64("SCHEDFUZZ_KEEP_GOING", 0) != 0;
	bool print_schedule = rt_env_u64("SCHEDFUZZ_PRINT_SCHEDULE", 0) != 0;
	bool verbose = rt_env_u64("SCHEDFUZZ_VERBOSE", 0) != 0;

	struct explorer x = { .argc = argc, .argv = argv, .envp = envp };
	x.timeout = (unsigned)rt_env_u64("SCHEDFUZZ_TIMEOUT", 30);
	x.shared = mmap(NULL, sizeof *x.shared, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			-1, 0);
	x.log = rt_search_map_log(guided);
	x.quiet = verbose ? -1 : memfd_create("schedfuzz-child-output", 0);
	if (x.shared == MAP_FAILED || !x.log) {
		fprintf(stderr, "schedfuzz: mmap: %s\n", strerror(errno));
		return RT_EXIT_SETUP;
	}
	rt.search = x.log; /* the children log into it */
	rt_findings_warm_symbolizer();

	struct sx_search *s = NULL;
	if (state && access(state, F_OK) == 0) {
		s = sx_load(state, &spec, err, sizeof err);
		if (!s) {
			fprintf(stderr, "schedfuzz: %s\n", err);
			return RT_EXIT_SETUP;
		}
	} else {
		s = sx_create(&spec);
	}
	if (!s) {
		fprintf(stderr, "schedfuzz: out of memory\n");
		return RT_EXIT_SETUP;
	}
	if (guided && corpus && learn_corpus(&x, s, corpus) != 0)
		return RT_EXIT_SETUP;

	signal(SIGINT, request_stop);
	signal(SIGTERM, request_stop);
	struct sx_status st;
	sx_status(s, &st);
	int bounds_said = st.bound_done;
	uint64_t failures = 0, first_failure = 0, ran = 0, independent = 0;
	bool saved_kind[F_COUNT + 1] = { false };
	bool warned = false, overflow = false;
	struct rt_async_tally async = { 0 };
	int status = 0;
	const struct sf_decision *dec;
	uint32_t ndec;
	while (ran < runs && !stop_requested && sx_next(s, &dec, &ndec)) {
		size_t size;
		uint8_t *genome = rt_search_encode(dec, ndec, &size);
		if (!genome) {
			fprintf(stderr, "schedfuzz: a schedule of %u decisions does not fit a genome\n",
				ndec);
			status = RT_EXIT_SETUP;
			break;
		}
		if (print_schedule) {
			fprintf(stderr, "schedfuzz: schedule %" PRIu64 ":", st.schedules + 1);
			for (uint32_t i = 0; i < ndec; i++)
				fprintf(stderr, " %u:%u", dec[i].index, dec[i].value);
			fprintf(stderr, "\n");
		}
		struct rt_child c = run(&x, genome, size);
		ran++;
		/* The watchdog switched threads where no decision was logged:
		 * that execution's states are not all the search thinks. */
		rt_async_count(&async, x.shared);
		if (c.setup_error) {
			rt_show_child_output(x.quiet);
			free(genome);
			status = RT_EXIT_SETUP;
			break;
		}
		uint64_t pairs_before = st.pairs;
		enum rt_judgement judged = rt_findings_judge(&c, x.shared);
		enum sx_fed fed = sx_feed(s, x.log, !c.failed);
		sx_status(s, &st);
		if (fed == SX_FED_OVERFLOW) {
			fprintf(stderr, "schedfuzz: an execution took more than %u scheduling points or "
					"decisions: too long to explore systematically\n", LOG_TRANS);
			overflow = true;
			free(genome);
			break;
		}
		if (fed == SX_FED_DIVERGED && !warned) {
			warned = true;
			fprintf(stderr, "schedfuzz: WARNING: a schedule's prefix ran differently than "
					"before: the program depends on something outside the schedule "
					"(time, randomness, uncontrolled threads); the search is not complete\n");
		}
		if (corpus && !c.failed && st.pairs > pairs_before) {
			char path[4096];
			mkdir(corpus, 0777);
			rt_save_input(corpus, "search", genome, size, path, sizeof path);
		}
		if (!failures && !independent && !c.failed && judged == RT_PASS &&
		    st.bound_done > bounds_said) {
			say_bounds(bounds_said + 1, st.bound_done);
			bounds_said = st.bound_done;
		}
		if (judged == RT_KNOWN) {
			independent++;
		} else if (c.failed) {
			uint32_t kind = x.shared->fail < F_COUNT ? x.shared->fail : F_COUNT;
			int k = 0;
			if (!keep_going || !saved_kind[kind]) {
				saved_kind[kind] = true;
				k = rt_keep_failure(&c, st.schedules, runs, out, genome, size, argc, argv,
						    envp, x.shared, x.timeout);
				if (k < 0) {
					free(genome);
					status = RT_EXIT_SETUP;
					break;
				}
			}
			if (k == 2) { /* a leak in every schedule: search on past it */
				saved_kind[kind] = false;
				independent++;
				free(genome);
				continue;
			}
			if (k == 1) {
				independent++;
			} else {
				failures++;
				if (!first_failure)
					first_failure = st.schedules;
			}
			if (!keep_going) {
				free(genome);
				break;
			}
		}
		free(genome);
	}
	sx_more(s); /* closes what the last execution finished */
	sx_status(s, &st);
	if (!failures && !independent && st.bound_done > bounds_said)
		say_bounds(bounds_said + 1, st.bound_done);
	rt_async_say(&async, ran);
	bool complete = st.complete && !overflow && !async.schedules;
	if (complete && !failures && !independent && spec.mode == SX_DPOR)
		fprintf(stderr, "no bug reachable at these scheduling points (every interleaving, up to "
		       "equivalence)\n");
	else if (complete && !failures && !independent && spec.mode == SX_DFS)
		fprintf(stderr, "no bug reachable at these scheduling points (every interleaving)\n");
	if (keep_going)
		fprintf(stderr, "failures: %" PRIu64 "\n", failures);
	bool leak_kept = rt_findings_summary(st.schedules, 0, failures + independent,
					     keep_going, false);
	if (first_failure)
		fprintf(stderr, "first_failure: %" PRIu64 "\n", first_failure);
	fprintf(stderr, "schedules: %" PRIu64 "\n", st.schedules);
	if (spec.mode == SX_DPOR || spec.mode == SX_DPOR_HAPSET)
		fprintf(stderr, "redundant: %" PRIu64 "\n", st.redundant);
	fprintf(stderr, "complete: %s\n", complete ? "yes" : "no");
	fflush(stderr);
	if (state && !sx_save(s, state, err, sizeof err)) {
		fprintf(stderr, "schedfuzz: %s\n", err);
		status = RT_EXIT_SETUP;
	}
	sx_destroy(s);
	if (status)
		return status;
	return failures || independent || leak_kept ? 1 : 0;
}
