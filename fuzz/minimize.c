/* minimize.c - `schedfuzz min [-o FILE] [--max-runs N] [--timeout SEC]
 * INPUT -- PROG [ARGS...]`: shrink a failing input to the simplest
 * schedule that fails the same way, CHESS's simplest error trace: the
 * fewest preemptions, then the fewest decisions that depart from the
 * default schedule (run the current thread on; when it cannot, the lowest
 * runnable one).
 *
 * Any schedule becomes such a list by replaying it with SCHEDFUZZ_RECORD:
 * the decisions that differed from the default, which is all the explicit
 * strategy needs (strategies/explicit.c). Delta debugging (ddmin) then
 * drops parts of the list. A candidate is kept only when it fails with
 * the same kind, message and site, and costs less; what it really ran is
 * recorded again, so the list stays exactly the executed schedule. The
 * harness data after the genome is kept as it is.
 *
 * The result is written twice: INPUT.min, binary-exact (stamped with the
 * build it was made on), and INPUT.min.portable, the same decisions
 * anchored to source lines (portable.c), which replays on other builds. */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "genome.h"
#include "minimize.h"
#include "portable.h"
#include "program.h"
#include "read_file.h"
#include "replay.h"
#include "trace.h"

struct list {
	struct sf_decision *d;
	uint32_t n;
};

struct outcome {
	bool failed;
	char kind[48], msg[1024];
	uint32_t site;
	uint64_t preemptions, fingerprint, steps;
	uint64_t decisions; /* points where two or more threads could run */
	struct list rec;    /* the executed schedule: its non-default decisions */
};

struct minimizer {
	const char *prog_path;
	char **prog_argv;
	unsigned timeout;
	char *cand, *trace, *rec; /* temporary files */
	const uint8_t *tail;      /* harness data after the genome */
	size_t tail_size;
	bool stamped;             /* the program's build-id is known: */
	uint8_t stamp[8];         /* its inputs say what build they were made on */
	unsigned runs, max_runs;
};

/* The decisions of an explicit genome file. */
static bool read_list(const char *path, struct list *out)
{
	size_t size;
	uint8_t *buf = read_whole_file(path, &size);
	if (!buf)
		return false;
	struct sf_plan p;
	sf_genome_decode(buf, size, &p);
	out->n = p.kind == SF_KIND_EXPLICIT ? p.ndecisions : 0;
	out->d = calloc(out->n + 1, sizeof *out->d);
	for (uint32_t i = 0; out->d && i < out->n; i++)
		out->d[i] = sf_plan_decision(&p, i);
	free(buf);
	return out->d != NULL;
}

/* An input: the explicit genome of list, then the harness data. */
static bool write_input(const char *path, const struct list *l, const struct minimizer *m)
{
	struct sf_plan p = { .kind = SF_KIND_EXPLICIT };
	size_t need = sf_genome_encode(&p, l->d, l->n, NULL, 0);
	uint8_t *buf = malloc(need + m->tail_size);
	if (!buf)
		return false;
	sf_genome_encode(&p, l->d, l->n, buf, need);
	if (m->stamped)
		sf_genome_stamp(buf, need, m->stamp);
	if (m->tail_size)
		memcpy(buf + need, m->tail, m->tail_size);
	bool ok = program_write_file(path, buf, need + m->tail_size) == 0;
	free(buf);
	if (!ok)
		fprintf(stderr, "schedfuzz: cannot write %s: %s\n", path, strerror(errno));
	return ok;
}

/* Run once under input; false when the program could not be run or traced. */
static bool run(struct minimizer *m, const char *input, struct outcome *o)
{
	m->runs++;
	memset(o, 0, sizeof *o);
	int status = replay_traced(m->prog_path, m->prog_argv, input, m->trace, m->rec, true,
				   m->timeout);
	if (status < 0)
		return false;
	struct trace t;
	char err[512];
	if (!trace_load(m->trace, &t, err, sizeof err))
		return false; /* e.g. killed by the timeout: not the same failure */
	o->failed = t.failed;
	snprintf(o->kind, sizeof o->kind, "%s", t.fail_kind);
	snprintf(o->msg, sizeof o->msg, "%s", t.fail_msg);
	o->site = t.fail_site;
	o->preemptions = t.preemptions;
	o->fingerprint = t.fingerprint;
	o->steps = t.steps;
	o->decisions = t.decisions;
	trace_free(&t);
	return read_list(m->rec, &o->rec);
}

static bool same_failure(const struct outcome *a, const struct outcome *b)
{
	return a->failed && b->failed && !strcmp(a->kind, b->kind) && !strcmp(a->msg, b->msg) &&
	       a->site == b->site;
}

static bool cheaper(const struct outcome *a, const struct outcome *best)
{
	return a->preemptions < best->preemptions ||
	       (a->preemptions == best->preemptions && a->rec.n < best->rec.n);
}

/* Try a candidate list: keep it in *best when it fails the same way for less. */
static bool try_list(struct minimizer *m, const struct list *cand, struct outcome *best)
{
	struct outcome o;
	if (!write_input(m->cand, cand, m) || !run(m, m->cand, &o))
		return false;
	if (same_failure(&o, best) && cheaper(&o, best)) {
		free(best->rec.d);
		*best = o;
		return true;
	}
	free(o.rec.d);
	return false;
}

/* ddmin over the decision list: try dropping each of n chunks; on success
 * continue from the smaller list with one chunk fewer, else split finer. */
static void shrink(struct minimizer *m, struct outcome *best)
{
	uint32_t parts = 2;
	while (best->rec.n > 0 && m->runs < m->max_runs) {
		uint32_t n = best->rec.n;
		if (parts > n)
			parts = n;
		uint32_t chunk = (n + parts - 1) / parts;
		bool improved = false;
		for (uint32_t start = 0; start < n && !improved && m->runs < m->max_runs;
		     start += chunk) {
			uint32_t end = start + chunk < n ? start + chunk : n;
			struct list cand = { malloc((n + 1) * sizeof *cand.d), 0 };
			if (!cand.d)
				return;
			for (uint32_t i = 0; i < n; i++)
				if (i < start || i >= end)
					cand.d[cand.n++] = best->rec.d[i];
			improved = try_list(m, &cand, best);
			free(cand.d);
		}
		if (improved)
			parts = parts > 2 ? parts - 1 : 2;
		else if (chunk == 1)
			break;
		else
			parts *= 2;
	}
}

/* Dropping decisions cannot move a preemption, and the one that matters
 * often sits a few decisions from where a random schedule put it. So
 * each decision is also tried a little earlier and later, alone and with
 * every decision after it dropped. */
static bool try_moved(struct minimizer *m, struct outcome *best, uint32_t i, int delta, bool cut)
{
	uint32_t n = cut ? i + 1 : best->rec.n;
	int64_t at = (int64_t)best->rec.d[i].index + delta;
	if (at < 0 || (i > 0 && at <= best->rec.d[i - 1].index) ||
	    (i + 1 < n && at >= best->rec.d[i + 1].index))
		return false; /* the list stays sorted */
	struct list cand = { malloc((n + 1) * sizeof *cand.d), n };
	if (!cand.d)
		return false;
	memcpy(cand.d, best->rec.d, n * sizeof *cand.d);
	cand.d[i].index = (uint32_t)at;
	bool better = try_list(m, &cand, best);
	free(cand.d);
	return better;
}

static bool shift(struct minimizer *m, struct outcome *best)
{
	static const int deltas[] = { 1, -1, 2, -2, 3, -3, 4, -4 };
	for (uint32_t i = 0; i < best->rec.n; i++)
		for (size_t k = 0; k < 2 * sizeof deltas / sizeof deltas[0]; k++) {
			if (m->runs >= m->max_runs)
				return false;
			if (try_moved(m, best, i, deltas[k / 2], k % 2))
				return true;
		}
	return false;
}

/* Run the portable reproducer at path on the program (every access a
 * scheduling point if memory_all): does it fail as first did? */
static bool portable_fails(struct minimizer *m, const char *path, const struct outcome *first)
{
	struct portable p;
	char err[512];
	char *anchors = replay_temp_path("anchors"), *input = anchors ? replay_temp_path("input") : NULL;
	bool ok = input && portable_read(path, &p, err, sizeof err);
	if (ok) {
		struct outcome o = { 0 };
		ok = portable_translate(&p, m->prog_path, anchors, input, err, sizeof err);
		setenv("SCHEDFUZZ_ANCHORS", anchors, 1);
		if (p.memory_all)
			setenv("SCHEDFUZZ_MEMORY", "2", 1);
		ok = ok && run(m, input, &o) && same_failure(&o, first);
		unsetenv("SCHEDFUZZ_ANCHORS");
		unsetenv("SCHEDFUZZ_MEMORY");
		free(o.rec.d);
		portable_free(&p);
	}
	if (anchors)
		unlink(anchors);
	if (input)
		unlink(input);
	free(anchors);
	free(input);
	return ok;
}

/* The portable form of the minimised run (m->trace holds its trace). Its
 * decisions are anchored, then replayed once more with every memory
 * access a scheduling point, and written from that run: another build
 * may lay out memory or optimise otherwise, so that an access that two
 * threads share here shares a granule with other data there, or the
 * reverse, and only "every access" is a set of points that every build
 * has. If that run does not fail the same way, the form anchored to the
 * shared accesses is kept. */
static void write_portable(struct minimizer *m, const char *out_path, const struct outcome *first,
			   bool no_spurious)
{
	char *path = NULL, *draft = replay_temp_path("portable"), why[512];
	if (!draft || asprintf(&path, "%s.portable", out_path) < 0) {
		free(draft);
		return;
	}
	if (!portable_write(draft, m->prog_path, m->trace, m->tail, m->tail_size, no_spurious, false,
			    why, sizeof why)) {
		fprintf(stderr, "schedfuzz: no portable form: %s\n", why);
		unlink(draft);
		free(draft);
		free(path);
		return;
	}
	bool all = portable_fails(m, draft, first) && /* m->trace: that run */
		   portable_write(path, m->prog_path, m->trace, m->tail, m->tail_size, no_spurious,
				  true, why, sizeof why) &&
		   portable_fails(m, path, first);
	if (all) {
		unlink(draft);
	} else if (rename(draft, path) != 0) {
		fprintf(stderr, "schedfuzz: cannot write %s: %s\n", path, strerror(errno));
		unlink(draft);
	} else if (!portable_fails(m, path, first)) {
		unlink(path);
		fprintf(stderr, "schedfuzz: no portable form: its decisions, anchored to source "
				"lines, do not fail the same way even on this build\n");
	} else {
		fprintf(stderr, "schedfuzz: portable form (replays on other builds of the source, "
				"shared accesses): %s\n", path);
	}
	if (all)
		fprintf(stderr, "schedfuzz: portable form (replays on other builds of the source, "
				"every access a scheduling point): %s\n", path);
	free(draft);
	free(path);
}

int cmd_min(int argc, char **argv)
{
	const char *input = NULL, *out = NULL;
	struct minimizer m = { .timeout = 30, .max_runs = 2000 };
	int i;
	for (i = 0; i < argc && strcmp(argv[i], "--") != 0; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-o")) {
			out = argv[i = program_option_value(argc, argv, i)];
		} else if (!strcmp(a, "--max-runs")) {
			i = program_option_value(argc, argv, i);
			m.max_runs = program_count(a, argv[i]);
		} else if (!strcmp(a, "--timeout")) {
			i = program_option_value(argc, argv, i);
			m.timeout = program_timeout(a, argv[i]);
		} else if (a[0] == '-') {
			fprintf(stderr, "schedfuzz min: unknown option '%s'\n", a);
			return SETUP;
		} else if (!input) {
			input = a;
		} else {
			fprintf(stderr, "schedfuzz min: one INPUT only\n");
			return SETUP;
		}
	}
	if (!input || i + 1 >= argc) {
		fprintf(stderr, "usage: schedfuzz min [-o FILE] [--max-runs N] [--timeout SEC] INPUT -- "
				"PROG [ARGS...]\n");
		return SETUP;
	}
	if (!program_input_file(input) || (out && !program_output_file("-o", out)))
		return SETUP;
	size_t size;
	uint8_t *data = read_whole_file(input, &size);
	if (!data) {
		fprintf(stderr, "schedfuzz: cannot read %s: %s\n", input, strerror(errno));
		return SETUP;
	}
	struct sf_plan plan;
	size_t g = sf_genome_decode(data, size, &plan);
	m.tail = data + g;
	m.tail_size = size - g;
	char plan_text[1024];
	sf_plan_format(&plan, plan_text, sizeof plan_text);

	m.prog_argv = argv + i + 1;
	char *path = program_check(m.prog_argv);
	m.prog_path = path;
	m.stamped = path && portable_build_stamp(path, m.stamp);
	m.cand = path ? replay_temp_path("candidate") : NULL;
	m.trace = m.cand ? replay_temp_path("trace") : NULL;
	m.rec = m.trace ? replay_temp_path("record") : NULL;
	int status = SETUP;
	struct outcome first = { 0 }, best = { 0 };
	char *out_path = NULL;
	if (!m.rec)
		goto done;

	if (!run(&m, input, &first)) {
		fprintf(stderr, "schedfuzz: %s could not be replayed (timeout or setup error)\n", input);
		goto done;
	}
	if (!first.failed) {
		fprintf(stderr, "schedfuzz: %s does not fail: nothing to minimise\n", input);
		goto done;
	}
	/* The recorded list replays the same run: start from it. */
	if (!write_input(m.cand, &first.rec, &m) || !run(&m, m.cand, &best) ||
	    !same_failure(&best, &first) || best.fingerprint != first.fingerprint) {
		fprintf(stderr, "schedfuzz: %s does not replay the same way twice: the program depends "
				"on something outside the schedule\n",
			input);
		goto done;
	}
	do
		shrink(&m, &best);
	while (m.runs < m.max_runs && shift(&m, &best));

	if (out && asprintf(&out_path, "%s", out) < 0)
		goto done;
	if (!out && asprintf(&out_path, "%s.min", input) < 0)
		goto done;
	struct outcome check;
	if (!write_input(out_path, &best.rec, &m))
		goto done;
	if (!run(&m, out_path, &check) || !same_failure(&check, &first) ||
	    check.fingerprint != best.fingerprint) {
		fprintf(stderr, "schedfuzz: the minimised input %s did not replay the same way\n",
			out_path);
		free(check.rec.d);
		goto done;
	}
	free(check.rec.d);
	/* A decision is what replay's report counts: a point where two or
	 * more threads could run. What shrinks is how many of them depart
	 * from the default. The test reads these two lines. */
	fprintf(stderr,
		"schedfuzz: %s: %s\n"
		"schedfuzz: original (%s): %" PRIu64 " preemptions, %" PRIu64 " decisions (%" PRIu32
		" not the default), %" PRIu64 " steps\n"
		"schedfuzz: minimised in %u runs: %" PRIu64 " preemptions, %" PRIu64 " decisions (%" PRIu32
		" not the default), %" PRIu64 " steps\n",
		first.kind, first.msg, plan_text, first.preemptions, first.decisions, first.rec.n,
		first.steps, m.runs, best.preemptions, best.decisions, best.rec.n, best.steps);
	if (m.runs >= m.max_runs)
		fprintf(stderr, "schedfuzz: stopped at --max-runs %u: it may shrink further\n",
			m.max_runs);
	write_portable(&m, out_path, &first, plan.flags & SF_FLAG_NO_SPURIOUS);
	printf("%s\n", out_path);
	status = OK;
done:
	if (m.cand)
		unlink(m.cand);
	if (m.trace)
		unlink(m.trace);
	if (m.rec)
		unlink(m.rec);
	free(m.cand);
	free(m.trace);
	free(m.rec);
	free(first.rec.d);
	free(best.rec.d);
	free(out_path);
	free(path);
	free(data);
	return status;
}
