/* schedfuzz.c - the `schedfuzz` command: explore and replay schedules of a
 * program built with schedfuzz-cc.
 *
 * The work happens inside the program (its runtime forks one child per
 * schedule, which is much cheaper than an exec each); this command checks
 * the program, sets the runtime's environment (see runtime/rt_driver.c),
 * runs it and turns how it ended into our exit status:
 *   0 no failure, 1 a failure (found, or replayed), 2 usage or setup error. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cov_report.h"
#include "debug.h"
#include "generate.h"
#include "genome.h"
#include "minimize.h"
#include "program.h"
#include "replay.h"
#include "search.h"
#include "seed.h"
#include "spec.h"


static void usage(FILE *to)
{
	fprintf(to,
		"usage: schedfuzz run [-n RUNS] [-o DIR] [--seed S] [--strategy SPEC] [--keep-going]\n"
		"                     [--print-schedule] [--max-steps N] [--timeout SEC] [--verbose]\n"
		"                     [--state FILE] [--corpus DIR] [--exit-ok=CODES] [--no-spurious]\n"
		"                     [--data FILE] [--no-guide] [--jobs N] [--races=MODE]\n"
		"                     [--race-json FILE]\n"
		"                     -- PROG [ARGS...]\n"
		"       schedfuzz replay [--record FILE] [--html FILE] [--events N] [--width N]\n"
		"                        [--timeout SEC] [--races=MODE] [--race-json FILE]\n"
		"                        [--interactive[=json]]\n"
		"                        INPUT -- PROG [ARGS...]\n"
		"       schedfuzz min [-o FILE] [--max-runs N] [--timeout SEC] INPUT -- PROG [ARGS...]\n"
		"       schedfuzz debug [--step N] [--timeout SEC] INPUT [GDB OPTIONS] -- PROG [ARGS...]\n"
		"       schedfuzz show INPUT...\n"
		"       schedfuzz genome --strategy SPEC [--seed S] [-o FILE]\n"
		"       schedfuzz seed --data DIR -o DIR [--genomes N] [--seed S]\n"
		"       schedfuzz cov [--json] [--timeout SEC] CORPUS -- PROG [ARGS...]\n"
		"\n"
		"  run      explore up to RUNS schedules (default 1000) of PROG, stop at the first\n"
		"           failure, save its input in DIR (default .) and print its path.\n"
		"           --keep-going runs all RUNS and ends with \"failures: X/N\" (then threads:,\n"
		"           events: and lock_events:, the most of any schedule: the n and k of the\n"
		"           strategies' bounds); a failure every schedule shows is said to be\n"
		"           one (and a leak of that sort is passed over: the search goes on).\n"
		"           --exit-ok=3,4: exit statuses that\n"
		"           are no failure; --no-spurious: condition waits never return without\n"
		"           a signal (SCHEDFUZZ_SPURIOUS=0; saved inputs keep the setting);\n"
		"           --data FILE: a harness's input, the same in every schedule (each\n"
		"           schedule's input is its genome then FILE's bytes); --timeout SEC\n"
		"           (default 30): a schedule still running then is a hang; --max-steps N\n"
		"           (default 1000000): that many retries (yields, failed updates and\n"
		"           try-locks) with no thread making progress are a livelock;\n"
		"           --print-schedule prints each schedule's plan before it runs;\n"
		"           --verbose shows PROG's output from every schedule (without it, only\n"
		"           the replay of a failure shows it)\n"
		"           --races=report saves an input for each new data race (a pair of\n"
		"           sites) and goes on; fail stops at the first as at a failure; off\n"
		"           (the default for now) detects none (docs/races.md); --race-json FILE\n"
		"           appends each reported race to FILE as a line of JSON\n"
		"           Guided: schedules that showed a new interleaving feature (HaPSet,\n"
		"           MAP, reads-from) are kept and mutated; --no-guide draws every one\n"
		"           afresh; --corpus DIR loads and extends the kept genomes (a fuzzing\n"
		"           corpus). A pinned --strategy is never guided. A long run says how\n"
		"           far it got after 10 s, then less and less often.\n"
		"           --jobs N: N explorers at once, each on a CPU of its own (0: one per\n"
		"           CPU this process may use), sharing features, corpus and findings;\n"
		"           RUNS counts the schedules of all; each failure of a kind and site\n"
		"           is saved and replayed once. Sharing makes the run nondeterministic:\n"
		"           --jobs 1 (the default) is the fixed run. --state FILE keeps the\n"
		"           campaign in FILE and goes on from it. SIGINT or SIGTERM stops\n"
		"           every explorer; what was found is kept, and the summary printed.\n"
		"  replay   run PROG once under the schedule in INPUT, print its report and the\n"
		"           interleaving in thread lanes (the last N events, default 200, 0 all);\n"
		"           --html writes it as a timeline page, --record the executed schedule\n"
		"           as an explicit decision list; --width N sets a lane's width (by\n"
		"           default, what the longest event needs, fitted to the terminal);\n"
		"           INPUT may be a portable reproducer (INPUT.min.portable), made on\n"
		"           another build of the same source; --interactive shows the threads\n"
		"           at each decision and takes the next one from the terminal (=json:\n"
		"           one JSON object per decision on stdout, one answer line on stdin)\n"
		"  min      shrink a failing INPUT to the fewest preemptions and decisions that\n"
		"           still fail the same way; writes INPUT.min (or FILE), prints its path,\n"
		"           and its portable form INPUT.min.portable, which replays on other\n"
		"           builds of the same source (other flags, sanitizer, engine)\n"
		"  debug    gdb on the replay of INPUT, stopped at the start of scheduling step N\n"
		"           (numbered as the report and replay number them), before its\n"
		"           operation; without --step, at the last step of the failing execution.\n"
		"           GDB OPTIONS (-batch, -ex CMD, -x FILE, ...) go to gdb; in gdb, `help sf`\n"
		"           lists the commands (sf where, sf threads, sf step, sf goto)\n"
		"  show     print the schedule each INPUT encodes, in its readable form\n"
		"  genome   write a genome of strategy SPEC drawn from seed S (a fuzzing seed);\n"
		"           k=N in SPEC sets the expected number of events (default 1000)\n"
		"  seed     write each data file of a harness's corpus behind N genomes of the\n"
		"           explorer's portfolio (default all 5), as schedfuzz inputs\n"
		"  cov      replay every input of CORPUS (a directory or a file) and report the\n"
		"           interleaving coverage: HaPSet pairs, MAP patterns against MAP's estimate\n"
		"\n"
		"SPEC pins the strategy: random, pct:d=N, rpro:d=N,r=R[,locks], pctvb:d=N,v=V\n"
		"(also k=N for pct and rpro, tb or notb for thread bounding). Without it, runs\n"
		"draw from a portfolio of these (guided, above); a fuzzer's genome chooses its own.\n"
		"\n"
		"Systematic SPECs explore every schedule within a bound, RUNS being the budget,\n"
		"and end with \"schedules: N\" and \"complete: yes|no\": dfs (all), icb:c=N\n"
		"(up to N preemptions, CHESS), dpor (one per equivalence class) and dpor+hapset\n"
		"(DPOR guided by learned HaPSets). --state FILE keeps the search in FILE and goes\n"
		"on from it; --corpus DIR (dpor+hapset) learns HaPSets from a fuzzing corpus and\n"
		"adds to it the schedules that taught new ones.\n"
		"\n"
		"exit status: 0 no failure, 1 failure, 2 usage or setup error\n"
		"schedfuzz --version prints the version; the wrappers' own options are\n"
		"schedfuzz-cc --schedfuzz-help and --schedfuzz-version\n");
}

/* Set the runtime's variable var to option opt's value, within [min, max]. */
static void set_number(const char *var, const char *opt, const char *value, uint64_t min,
		       uint64_t max)
{
	program_number(opt, value, min, max);
	setenv(var, value, 1);
}

/* "3,4": exit statuses 1..255 that are no failure (or what main() returned:
 * -1 is status 255). */
static bool exit_codes_valid(const char *s)
{
	if (!*s)
		return false;
	while (*s) {
		char *end;
		long v = strtol(s, &end, 10);
		if (end == s || v < -255 || v > 255 || v == 0 || (*end && *end != ','))
			return false;
		s = *end ? end + 1 : end;
		if (end[0] == ',' && !*s)
			return false;
	}
	return true;
}

/* --jobs 0: the CPUs this process may run on. */
static unsigned usable_cpus(void)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set) != 0 || CPU_COUNT(&set) < 1)
		return 1;
	return (unsigned)CPU_COUNT(&set);
}

static int cmd_run(int argc, char **argv)
{
	const char *out = ".";
	uint64_t jobs = 1;
	setenv("SCHEDFUZZ_RUNS", "1000", 1);
	program_races_default();
	int i;
	for (i = 0; i < argc && strcmp(argv[i], "--") != 0; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-n") || !strcmp(a, "--runs")) {
			i = program_option_value(argc, argv, i);
			set_number("SCHEDFUZZ_RUNS", a, argv[i], 1, INT64_MAX);
		} else if (!strcmp(a, "-o") || !strcmp(a, "--out")) {
			out = argv[i = program_option_value(argc, argv, i)];
		} else if (!strcmp(a, "--seed")) {
			i = program_option_value(argc, argv, i);
			set_number("SCHEDFUZZ_SEED", a, argv[i], 0, UINT64_MAX);
		} else if (!strcmp(a, "--max-steps")) {
			i = program_option_value(argc, argv, i);
			set_number("SCHEDFUZZ_MAX_STEPS", a, argv[i], 1, INT64_MAX);
		} else if (!strcmp(a, "--timeout")) {
			i = program_option_value(argc, argv, i);
			set_number("SCHEDFUZZ_TIMEOUT", a, argv[i], 1, PROGRAM_TIMEOUT_MAX);
		} else if (!strcmp(a, "--strategy")) {
			const char *spec = argv[i = program_option_value(argc, argv, i)];
			struct sf_spec parsed;
			struct sx_spec search;
			char err[256];
			if (sx_spec_is_search(spec)) {
				if (!sx_spec_parse(spec, &search, err, sizeof err)) {
					fprintf(stderr, "schedfuzz: --strategy %s: %s\n", spec, err);
					return SETUP;
				}
				setenv("SCHEDFUZZ_SEARCH", spec, 1);
				unsetenv("SCHEDFUZZ_STRATEGY");
			} else if (!sf_spec_parse(spec, &parsed, err, sizeof err)) {
				fprintf(stderr, "schedfuzz: --strategy %s: %s\n", spec, err);
				return SETUP;
			} else {
				setenv("SCHEDFUZZ_STRATEGY", spec, 1);
				unsetenv("SCHEDFUZZ_SEARCH");
			}
		} else if (!strcmp(a, "--state")) {
			/* The systematic search's, or the explorer's campaign. */
			const char *state = argv[i = program_option_value(argc, argv, i)];
			if (!program_output_file("--state", state))
				return SETUP;
			setenv("SCHEDFUZZ_SEARCH_STATE", state, 1);
			setenv("SCHEDFUZZ_STATE", state, 1);
		} else if (!strcmp(a, "--jobs") || !strcmp(a, "-j")) {
			i = program_option_value(argc, argv, i);
			jobs = program_number(a, argv[i], 0, 256);
		} else if (!strcmp(a, "--corpus")) {
			/* Guided exploration's corpus, or dpor+hapset's source. */
			const char *dir = argv[i = program_option_value(argc, argv, i)];
			if (!program_output_dir("--corpus", dir))
				return SETUP;
			setenv("SCHEDFUZZ_SEARCH_CORPUS", dir, 1);
			setenv("SCHEDFUZZ_CORPUS", dir, 1);
		} else if (!strcmp(a, "--no-guide")) {
			setenv("SCHEDFUZZ_GUIDE", "0", 1);
		} else if (!strcmp(a, "--exit-ok") || !strncmp(a, "--exit-ok=", 10)) {
			const char *codes = a[9] == '=' ? a + 10 : argv[i = program_option_value(argc, argv, i)];
			if (!exit_codes_valid(codes)) {
				fprintf(stderr, "schedfuzz: --exit-ok takes exit statuses 1..255 "
						"(or -1..-255, as main returns them) separated "
						"by commas, not '%s'\n", codes);
				return SETUP;
			}
			setenv("SCHEDFUZZ_EXIT_OK", codes, 1);
		} else if (program_races_option(argc, argv, &i)) {
			/* SCHEDFUZZ_RACES: set */
		} else if (!strcmp(a, "--no-spurious")) {
			setenv("SCHEDFUZZ_SPURIOUS", "0", 1);
		} else if (!strcmp(a, "--data")) {
			const char *data = argv[i = program_option_value(argc, argv, i)];
			if (!program_input_file(data))
				return SETUP;
			setenv("SCHEDFUZZ_DATA", data, 1);
		} else if (!strcmp(a, "--keep-going")) {
			setenv("SCHEDFUZZ_KEEP_GOING", "1", 1);
		} else if (!strcmp(a, "--print-schedule")) {
			setenv("SCHEDFUZZ_PRINT_SCHEDULE", "1", 1);
		} else if (!strcmp(a, "--verbose")) {
			setenv("SCHEDFUZZ_VERBOSE", "1", 1);
		} else {
			fprintf(stderr, "schedfuzz run: unknown option '%s'\n", a);
			usage(stderr);
			return SETUP;
		}
	}
	if (i + 1 >= argc) {
		fprintf(stderr, "schedfuzz run: missing -- PROG\n");
		usage(stderr);
		return SETUP;
	}
	if (jobs == 0)
		jobs = usable_cpus();
	if (jobs > 1 && getenv("SCHEDFUZZ_SEARCH")) {
		fprintf(stderr, "schedfuzz: --jobs %u: a systematic --strategy is one search, run by "
				"one job\n", (unsigned)jobs);
		return SETUP;
	}
	char njobs[24];
	snprintf(njobs, sizeof njobs, "%u", (unsigned)jobs);
	setenv("SCHEDFUZZ_JOBS", njobs, 1);
	/* Found now, not after a long search: a failure that cannot be saved
	 * would be lost with its report. */
	if (!program_output_dir("-o", out))
		return SETUP;
	setenv("SCHEDFUZZ_OUT", out, 1);
	unsetenv("SCHEDFUZZ_INPUT");
	char *path = program_check(argv + i + 1);
	int status = path ? program_run(path, argv + i + 1, false, 0) : -1;
	free(path);
	if (status < 0)
		return SETUP;
	if (WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 1))
		return WEXITSTATUS(status);
	if (!(WIFEXITED(status) && WEXITSTATUS(status) == RUNTIME_SETUP_ERROR))
		fprintf(stderr, "schedfuzz: the explorer ended unexpectedly (status 0x%x)\n", status);
	return SETUP;
}

static int cmd_show(int argc, char **argv)
{
	if (argc == 0) {
		usage(stderr);
		return SETUP;
	}
	int status = OK;
	for (int i = 0; i < argc; i++) {
		if (!program_input_file(argv[i])) {
			status = SETUP;
			continue;
		}
		FILE *f = fopen(argv[i], "rb");
		if (!f) {
			fprintf(stderr, "schedfuzz: cannot read %s: %s\n", argv[i], strerror(errno));
			status = SETUP;
			continue;
		}
		/* The longest genome: the header and 65535 decisions. */
		static uint8_t buf[SF_GENOME_HEADER + SF_MAX_DECISIONS * SF_DECISION_BYTES];
		size_t n = fread(buf, 1, sizeof buf, f);
		fclose(f);
		struct sf_plan plan;
		size_t used = sf_genome_decode(buf, n, &plan);
		static char text[SF_MAX_DECISIONS * 16 + 256];
		sf_plan_format(&plan, text, sizeof text);
		printf("%s: %s", argv[i], text);
		if (n > used)
			printf(" (+%zu bytes of harness data)", n - used);
		printf("\n");
	}
	return status;
}

static int cmd_genome(int argc, char **argv)
{
	const char *spec_text = NULL, *out = NULL;
	uint64_t seed = 0;
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--strategy")) {
			spec_text = argv[i = program_option_value(argc, argv, i)];
		} else if (!strcmp(argv[i], "--seed")) {
			i = program_option_value(argc, argv, i);
			seed = program_number("--seed", argv[i], 0, UINT64_MAX);
		} else if (!strcmp(argv[i], "-o")) {
			out = argv[i = program_option_value(argc, argv, i)];
		} else {
			fprintf(stderr, "schedfuzz genome: unknown option '%s'\n", argv[i]);
			return SETUP;
		}
	}
	if (!spec_text) {
		fprintf(stderr, "schedfuzz genome: --strategy SPEC is required\n");
		return SETUP;
	}
	if (out && !program_output_file("-o", out))
		return SETUP;
	struct sf_spec spec;
	char err[256];
	if (!sf_spec_parse(spec_text, &spec, err, sizeof err)) {
		fprintf(stderr, "schedfuzz: --strategy %s: %s\n", spec_text, err);
		return SETUP;
	}
	struct sf_plan plan;
	struct sf_estimates none = { 0 };
	sf_plan_generate(&spec, &none, seed, &plan);
	uint8_t buf[SF_GENOME_HEADER];
	size_t n = sf_genome_encode(&plan, NULL, 0, buf, sizeof buf);
	if (out ? program_write_file(out, buf, n) != 0
		: fwrite(buf, 1, n, stdout) != n || fflush(stdout) != 0) {
		fprintf(stderr, "schedfuzz: cannot write %s: %s\n", out ? out : "stdout", strerror(errno));
		return SETUP;
	}
	char text[512];
	sf_plan_format(&plan, text, sizeof text);
	fprintf(stderr, "%s\n", text);
	return OK;
}

/* Does a command's own part of argv (up to "--") ask for help? */
static bool asks_help(int argc, char **argv)
{
	for (int i = 0; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return true;
	return false;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return SETUP;
	}
	if (argv[1][0] != '-' && asks_help(argc - 2, argv + 2)) { /* schedfuzz run --help */
		usage(stdout);
		return OK;
	}
	if (!strcmp(argv[1], "run"))
		return cmd_run(argc - 2, argv + 2);
	if (!strcmp(argv[1], "replay"))
		return cmd_replay(argc - 2, argv + 2);
	if (!strcmp(argv[1], "show"))
		return cmd_show(argc - 2, argv + 2);
	if (!strcmp(argv[1], "genome"))
		return cmd_genome(argc - 2, argv + 2);
	if (!strcmp(argv[1], "cov"))
		return cmd_cov(argc - 2, argv + 2);
	if (!strcmp(argv[1], "min"))
		return cmd_min(argc - 2, argv + 2);
	if (!strcmp(argv[1], "debug"))
		return cmd_debug(argc - 2, argv + 2);
	if (!strcmp(argv[1], "seed"))
		return cmd_seed(argc - 2, argv + 2);
	if (!strcmp(argv[1], "--version")) {
		printf("schedfuzz %s\n", SCHEDFUZZ_VERSION);
		return OK;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return OK;
	}
	fprintf(stderr, "schedfuzz: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return SETUP;
}
