/* rt_findings.c - what the explorers say about a failure, and which
 * failures they pass over.
 *
 * A failure is named by its kind and what tells it apart: the sanitizer
 * and its kind, the leak's size and allocation stack, the exit status.
 * When the runtime did not see the end (a report after its own, a program
 * that turns LeakSanitizer's hook off), the child's kept output names it:
 * a sanitizer's words are never only "a nonzero exit".
 *
 * A failure that every schedule shows is no concurrency bug, and it hides
 * the ones that are: once one is found, the same input runs under a few
 * other schedules (priority orders without preemptions, random walks). If
 * none of them ends well and at least MIN_SAME fail the same way, the
 * failure does not depend on the interleaving; the report says so, and
 * what to do. A leak of that sort is reported once and the search goes on
 * past it (every execution that ends in the same leak counts as ended
 * well); a leak that only some schedules show stays a finding.
 *
 *   SCHEDFUZZ_EXIT_OK=3,4  exit statuses that are no failure (--exit-ok) */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cov_hash.h"
#include "rt_internal.h"

#define PROBES 6
#define MIN_SAME 3
#define MAX_KNOWN 32

/* A sanitizer's, when one is linked. */
extern void __sanitizer_symbolize_pc(void *pc, const char *fmt, char *out, size_t size)
	__attribute__((weak));

/* The sanitizer's symbolizer is a process it starts on first use, which
 * then reads the binary's debug information: a third of a second for each
 * child that prints a report (a leak every schedule shows: every child).
 * Started here, before the forks, one process serves every child in turn,
 * its tables already read. */
void rt_findings_warm_symbolizer(void)
{
	if (!__sanitizer_symbolize_pc)
		return;
	char buf[256];
	__sanitizer_symbolize_pc((void *)&rt_findings_warm_symbolizer, "%f", buf, sizeof buf);
}

/* ---- exit statuses that are no failure ------------------------------------------ */

static uint8_t exit_ok[256 / 8];

void rt_exit_ok_init(void)
{
	const char *s = rt_env_str("SCHEDFUZZ_EXIT_OK");
	for (const char *p = s; p && *p;) {
		char *end;
		long v = strtol(p, &end, 10);
		if (end == p || v < -255 || v > 255 || v == 0 || (*end && *end != ',')) {
			fprintf(stderr, "schedfuzz: --exit-ok=%s: expected exit statuses 1..255 "
					"(or -1..-255, as main returns them) separated by commas\n", s);
			_exit(RT_EXIT_SETUP);
		}
		v &= 0xff; /* main() returning -1 exits with status 255 */
		exit_ok[v / 8] |= (uint8_t)(1u << (v % 8));
		p = *end ? end + 1 : end;
	}
}

/* A program run directly, outside `schedfuzz run`, `replay` and the
 * engines, exits as it would without us: its status is its own, as
 * configure's checks and test suites read it (a nonzero exit is a
 * failure only where a schedule is searched or replayed). */
void rt_exit_ok_all(void)
{
	memset(exit_ok, 0xff, sizeof exit_ok);
}

bool rt_exit_ok(int status)
{
	status &= 0xff; /* what the parent sees of exit(status) */
	return status && (exit_ok[status / 8] >> (status % 8) & 1);
}

/* ---- naming ---------------------------------------------------------------------- */

/* The end of what a child printed, NUL-terminated: a sanitizer's report
 * is the last thing a process prints, after whatever the program wrote. */
static const char *kept_text(void)
{
	static char buf[1 << 16];
	struct stat st;
	ssize_t n = 0;
	if (rt_kept_output >= 0 && fstat(rt_kept_output, &st) == 0) {
		off_t from = st.st_size > (off_t)sizeof buf - 1 ? st.st_size - (off_t)sizeof buf + 1 : 0;
		n = pread(rt_kept_output, buf, sizeof buf - 1, from);
	}
	for (ssize_t i = 0; i < n; i++) /* a program's binary output */
		if (!buf[i])
			buf[i] = '\n';
	buf[n > 0 ? n : 0] = 0;
	return buf;
}

/* "Tool: kind" of a sanitizer's summary line ("AddressSanitizer:
 * heap-use-after-free x.c:3 in f"), into out. */
static void tool_and_kind(const char *summary, char *out, size_t cap)
{
	const char *sp = strchr(summary, ' ');
	const char *end = sp ? strchr(sp + 1, ' ') : NULL;
	size_t n = end ? (size_t)(end - summary) : strlen(summary);
	snprintf(out, cap, "%.*s", (int)(n < cap ? n : cap - 1), summary);
}

/* The leak's size, from LSan's summary: "58 byte(s) leaked in 2 allocation(s)". */
static void leak_size(const char *summary, char *out, size_t cap)
{
	const char *sp = strstr(summary, "Sanitizer: ");
	const char *s = sp ? sp + strlen("Sanitizer: ") : summary;
	size_t n = strlen(s);
	while (n && (s[n - 1] == '.' || s[n - 1] == ' '))
		n--;
	snprintf(out, cap, "%.*s", (int)n, s);
}

/* A sanitizer's verdict in the output the runtime did not get to hear:
 * the last line "SUMMARY: <Tool>Sanitizer: ...". Its kind into kind
 * (F_LEAK or F_SANITIZER). */
static bool summary_in_output(char *out, size_t cap, enum rt_fail_kind *kind)
{
	const char *text = kept_text();
	const char *s = NULL;
	for (const char *p = text; (p = strstr(p, "SUMMARY: ")); p++) {
		const char *tool = p + strlen("SUMMARY: ");
		size_t word = strcspn(tool, " \n");
		if ((p == text || p[-1] == '\n') && word > 10 &&
		    !strncmp(tool + word - 10, "Sanitizer:", 10))
			s = tool;
	}
	if (!s)
		return false;
	size_t n = strcspn(s, "\n");
	char line[256];
	snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line ? n : sizeof line - 1), s);
	*kind = strstr(text, "ERROR: LeakSanitizer") && strstr(line, " leaked in ") ? F_LEAK
										  : F_SANITIZER;
	if (*kind == F_LEAK)
		leak_size(line, out, cap);
	else
		tool_and_kind(line, out, cap);
	return true;
}

const char *rt_describe_child(const struct rt_child *c, const struct rt_result *r)
{
	static char text[512];
	char what[300];
	enum rt_fail_kind kind = r->fail < F_COUNT ? r->fail : F_NONE;
	/* A report published before the end is the finding, whatever
	 * happened after it (a hang in the exit path included). */
	if (kind == F_SANITIZER) {
		tool_and_kind(r->detail, what, sizeof what);
		snprintf(text, sizeof text, "sanitizer report: %s", what);
	} else if (kind == F_LEAK) {
		leak_size(r->detail, what, sizeof what);
		snprintf(text, sizeof text, "memory leak: %s", what);
	} else if (kind == F_EXIT) {
		snprintf(text, sizeof text, "nonzero exit %d", r->exit_code);
	} else if (kind != F_NONE) {
		snprintf(text, sizeof text, "%s", rt_fail_names[kind]);
	} else if (summary_in_output(what, sizeof what, &kind)) {
		snprintf(text, sizeof text, "%s: %s",
			 kind == F_LEAK ? "memory leak" : "sanitizer report", what);
	} else if (c->timed_out) {
		snprintf(text, sizeof text, "timeout (blocked outside the runtime's control?)");
	} else if (WIFSIGNALED(c->status)) {
		snprintf(text, sizeof text, "%s", strsignal(WTERMSIG(c->status)));
	} else {
		snprintf(text, sizeof text, "nonzero exit %d", WEXITSTATUS(c->status));
	}
	return text;
}

/* LSan's first leak as it printed it: "Direct leak of ..." and its
 * allocation stack. */
static void show_leak(void)
{
	const char *text = kept_text();
	const char *s = strstr(text, "Direct leak of");
	if (!s)
		s = strstr(text, "Indirect leak of");
	if (!s)
		return;
	const char *end = strstr(s, "\n\n");
	size_t n = end ? (size_t)(end - s) + 1 : strlen(s);
	fprintf(stderr, "%.*s", (int)n, s);
}

/* ---- failures every schedule shows ------------------------------------------------ */

struct known {
	uint64_t sig;
	bool leak; /* passed over: the search goes on */
};

static struct {
	struct known known[MAX_KNOWN];
	int nknown;
	uint64_t ok_exits;     /* ended with a --exit-ok status */
	uint64_t leaky;        /* ended in a leak passed over */
	uint64_t independent;  /* ended in another known failure */
	char leak_path[4096];  /* the passed-over leak's input */
} f;

/* What tells two failures apart: their kind and their words. */
static uint64_t signature(const struct rt_child *c, const struct rt_result *r)
{
	const char *name = rt_describe_child(c, r);
	uint64_t h = cov_hash64(name, strlen(name), r->fail);
	return cov_hash64(r->detail, strnlen(r->detail, sizeof r->detail), h);
}

static bool is_leak(const struct rt_child *c, const struct rt_result *r)
{
	return !strncmp(rt_describe_child(c, r), "memory leak", 11);
}

enum rt_judgement rt_findings_judge(struct rt_child *c, const struct rt_result *r)
{
	if (!c->failed)
		return RT_PASS;
	if (r->fail == F_NONE && WIFEXITED(c->status) && rt_exit_ok(WEXITSTATUS(c->status)) &&
	    strncmp(rt_describe_child(c, r), "nonzero exit", 12) == 0) {
		f.ok_exits++;
		c->failed = false;
		return RT_PASS;
	}
	uint64_t sig = signature(c, r);
	for (int i = 0; i < f.nknown; i++) {
		if (f.known[i].sig != sig)
			continue;
		if (f.known[i].leak) {
			f.leaky++;
			c->failed = false;
			return RT_PASS;
		}
		f.independent++;
		return RT_KNOWN;
	}
	return RT_NEW;
}

/* A plan without preemptions (PCT of depth 1): its threads run in the
 * order of their priorities until they block. */
static void serial_plan(struct sf_plan *p, int order, uint64_t seed)
{
	*p = (struct sf_plan){ .kind = SF_KIND_PCT, .depth = 1, .k = 1, .seed = seed };
	for (int t = 0; t < SF_PRIO_SLOTS; t++)
		p->prio[t] = (uint8_t)(order == 0 ? 200 - t : order == 1 ? 100 + t : seed >> (t * 8));
}

static const char *advice(const struct rt_child *c, const struct rt_result *r)
{
	const char *name = rt_describe_child(c, r);
	if (is_leak(c, r))
		return "fix it first, or pass it over with ASAN_OPTIONS=detect_leaks=0; meanwhile "
		       "the search goes on past it";
	if (!strncmp(name, "nonzero exit", 12))
		return "fix it first, or pass it over with --exit-ok=STATUS, and search on";
	if (strstr(name, "UndefinedBehaviorSanitizer"))
		return "fix it first, or pass it over with a UBSan suppression "
		       "(UBSAN_OPTIONS=suppressions=FILE), and search on";
	return "fix it first, and search on: it ends every schedule before a bug that depends "
	       "on the interleaving can show";
}

int rt_findings_probe(const struct rt_result *first, const struct rt_child *fc,
		      const uint8_t *input, size_t size, const char *path, int argc, char **argv,
		      char **envp, struct rt_result *shared, unsigned timeout)
{
	if (fc->timed_out || first->fail == F_HANG || first->out_of_time)
		return 0; /* each probe would take the whole timeout */
	if (is_leak(fc, first))
		show_leak();
	struct sf_plan given;
	size_t g = sf_genome_decode(input, size, &given);
	size_t n = SF_GENOME_HEADER + (size - g);
	uint8_t *probe = malloc(n);
	static int probe_fd = -2;
	if (probe_fd == -2)
		probe_fd = memfd_create("schedfuzz-probe-output", 0);
	if (!probe || probe_fd < 0) {
		free(probe);
		return 0;
	}
	memcpy(probe + SF_GENOME_HEADER, input + g, size - g);
	uint64_t base = cov_hash64(input, size, 0x5eed);
	uint64_t want = signature(fc, first);
	int kept = rt_kept_output;
	struct sx_log *search = rt.search; /* the probes are no part of a search */
	rt.search = NULL;
	int same = 0, passed = 0;
	for (int i = 0; i < PROBES; i++) {
		struct sf_plan p;
		if (i < 3)
			serial_plan(&p, i, sf_derive_seed(base, (uint64_t)i));
		else
			p = (struct sf_plan){ .kind = SF_KIND_RANDOM, .seed = sf_derive_seed(base, i) };
		p.flags |= given.flags & SF_FLAG_NO_SPURIOUS;
		sf_genome_encode(&p, NULL, 0, probe, SF_GENOME_HEADER);
		struct rt_child c = rt_run_child(probe, n, argc, argv, envp, shared, probe_fd, timeout);
		if (!c.failed || (WIFEXITED(c.status) && rt_exit_ok(WEXITSTATUS(c.status)) &&
				  shared->fail == F_NONE))
			passed++;
		else if (signature(&c, shared) == want)
			same++;
	}
	rt_kept_output = kept;
	rt.search = search;
	free(probe);
	if (passed || same < MIN_SAME)
		return 0;
	fprintf(stderr, "schedfuzz: the same failure in %d of %d other schedules (3 without "
			"preemptions, 3 random walks), none ended well: it does not depend on the "
			"interleaving (it may still depend on the clock, which runs virtually here: "
			"sleeps take no time)\n", same, PROBES);
	fprintf(stderr, "schedfuzz: %s\n", advice(fc, first));
	if (f.nknown < MAX_KNOWN) {
		f.known[f.nknown].sig = want;
		f.known[f.nknown].leak = is_leak(fc, first);
		f.nknown++;
	}
	if (!is_leak(fc, first))
		return 1;
	if (!f.leak_path[0])
		snprintf(f.leak_path, sizeof f.leak_path, "%s", path);
	return 2;
}

bool rt_findings_summary(uint64_t runs, uint64_t seed, uint64_t failures, bool keep_going,
			 bool say_none)
{
	if (keep_going && (f.independent || f.nknown))
		fprintf(stderr, "independent_failures: %" PRIu64 "/%" PRIu64 "\n",
		       f.independent + f.leaky + (uint64_t)f.nknown, runs);
	if (f.ok_exits)
		fprintf(stderr, "schedfuzz: %" PRIu64 " of %" PRIu64 " schedules ended with an exit "
				"status of --exit-ok%s\n", f.ok_exits, runs,
			failures ? "" : ", their only failure");
	if (keep_going || failures)
		return false;
	if (!f.leak_path[0]) {
		if (say_none)
				fprintf(stderr, "schedfuzz: no failure in %" PRIu64 " schedules (seed %" PRIu64
					")\n", runs, seed);
		return false;
	}
	fprintf(stderr, "schedfuzz: no failure that depends on the interleaving in %" PRIu64
			" schedules (seed %" PRIu64 "); the leak reported above showed in %" PRIu64
			" more\n", runs, seed, f.leaky);
	printf("%s\n", f.leak_path);
	fflush(stdout);
	return true;
}
