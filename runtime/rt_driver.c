/* rt_driver.c - how executions start: a program's main(), a libFuzzer
 * harness, or the built-in explorer that runs many schedules.
 *
 * The wrappers link with --wrap=main (and --wrap=LLVMFuzzerTestOneInput for
 * harnesses), so every binary enters here first. The environment says what
 * to do; `schedfuzz run` and `schedfuzz replay` just set it:
 *
 *   SCHEDFUZZ_INPUT=FILE   run once under that input (genome + harness data)
 *   SCHEDFUZZ_RUNS=N       explore N schedules, a fork each, stop at the
 *                          first failure; save its input in SCHEDFUZZ_OUT
 *   SCHEDFUZZ_SEED=S       the explorer's starting seed, or the one seed a
 *                          plain run uses (default 0)
 *   SCHEDFUZZ_OUT=DIR      where failing inputs go (default .)
 *   SCHEDFUZZ_TIMEOUT=SEC  wall-clock limit of one execution (default 30, 0 for
 *                          none; under libFuzzer 3/4 of its -timeout instead)
 *   SCHEDFUZZ_STRATEGY=S   pin the strategy (e.g. pct:d=3) over the genome's;
 *                          the explorer then makes plans of that strategy
 *   SCHEDFUZZ_KEEP_GOING=1 the explorer runs all N schedules and prints
 *                          "failures: X/N"
 *   SCHEDFUZZ_PRINT_SCHEDULE=1  the explorer prints each schedule's plan
 *   SCHEDFUZZ_MAX_STEPS=N  retries (yields, failed updates and try-operations)
 *                          without progress by any thread, several taking
 *                          turns, before a livelock is reported (default
 *                          1,000,000; 0 for never)
 *   SCHEDFUZZ_STALL_MS=MS  a running thread that reaches no scheduling point
 *                          this long while others could run is preempted
 *                          asynchronously (default 10, 0 for never)
 *   SCHEDFUZZ_MEMORY=0     memory accesses are not scheduling points
 *   SCHEDFUZZ_MEMORY=2     every access is one, private ones too (default 1:
 *                          only accesses to memory threads share, docs/cost.md)
 *   SCHEDFUZZ_PIN=0        do not keep an execution on one CPU (the default
 *                          when AFL_NO_AFFINITY is set; SCHEDFUZZ_PIN=1 pins)
 *   SCHEDFUZZ_THREAD_POOL=0  under a fuzzing engine, every thread the harness
 *                          creates gets a kernel thread of its own (default 1:
 *                          kernel threads are kept across inputs, rt_pool.c)
 *   SCHEDFUZZ_RECORD=FILE  write the executed schedule as an explicit genome
 *   SCHEDFUZZ_TRACE=FILE   write the whole interleaving (rt_trace.c)
 *   SCHEDFUZZ_DEBUG_STEP=N call __schedfuzz_step_stop at step N, for gdb
 *                          (rt_debug.c, `schedfuzz debug`)
 *   SCHEDFUZZ_VERBOSE=1    let explored schedules print to the terminal
 *   SCHEDFUZZ_SPURIOUS=0   condition waits never return without a signal; the
 *                          explorer writes it into its genomes (flag
 *                          nospurious), so that their replay needs no setting
 *   SCHEDFUZZ_EXIT_OK=L    exit statuses (comma-separated) that are no failure
 *   SCHEDFUZZ_DATA=FILE    the explorer's harness data: every schedule's input is
 *                          its genome followed by FILE's bytes
 *   SCHEDFUZZ_GUIDE=0      the explorer draws every schedule afresh instead of
 *                          keeping and mutating those with new coverage
 *                          (rt_guide.c, also SCHEDFUZZ_CORPUS)
 *   SCHEDFUZZ_SEARCH=S     explore systematically instead (rt_search_explore.c):
 *                          dfs, icb[:c=N], dpor or dpor+hapset, RUNS the budget
 *
 * Under afl-fuzz (SCHEDFUZZ_ENGINE=afl builds), each forked run takes its
 * input from afl-fuzz's shared memory instead (rt_afl.c).
 *
 * With none of INPUT or RUNS, a plain program runs once under seed
 * SCHEDFUZZ_SEED, and a harness binary hands main() to its fuzzing engine. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <link.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cov_hash.h"
#include "rt_anchor.h"
#include "rt_input_hint.h"
#include "rt_guide.h"
#include "rt_internal.h"
#include "rt_jobs.h"
#include "rt_race.h"
#include "rt_libc.h"

/* Found by `schedfuzz` in a binary to tell that it was built with us. */
RT_EXPORT __attribute__((used)) const char schedfuzz_runtime_marker[] = "schedfuzz-runtime-v1";

int rt_main_argc;
char **rt_main_argv;

int __real_main(int argc, char **argv, char **envp);
extern uint8_t __start___sancov_cntrs[] __attribute__((weak));
extern uint8_t __stop___sancov_cntrs[] __attribute__((weak));
extern void *__afl_cmp_map __attribute__((weak)); /* AFL++'s CmpLog, when linked */
extern int __real_LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) __attribute__((weak));
extern int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));
/* Defined by libFuzzer only: tells its main from the other engines'. */
extern int LLVMFuzzerRunDriver(int *argc, char ***argv,
			       int (*cb)(const uint8_t *, size_t)) __attribute__((weak));

int rt_kept_output = -1;

uint64_t rt_env_u64(const char *name, uint64_t dflt)
{
	const char *s = getenv(name);
	if (!s || !*s)
		return dflt;
	char *end;
	errno = 0;
	uint64_t v = strtoull(s, &end, 0);
	if (errno || *end) {
		fprintf(stderr, "schedfuzz: %s=%s is not a number\n", name, s);
		_exit(RT_EXIT_SETUP);
	}
	return v;
}

const char *rt_env_str(const char *name)
{
	const char *s = getenv(name);
	return s && *s ? s : NULL;
}

/* The environment the process started with. Read after main() returned
 * (a report, the estimates), environ may point into main's dead frame: a
 * program may set it to an array of its own, as gnulib's unsetenv check
 * does. The kernel's array stays where it was. */
static char **initial_environ;

const char *rt_env_initial(const char *name)
{
	size_t n = strlen(name);
	for (char **e = initial_environ; e && *e; e++)
		if (!strncmp(*e, name, n) && (*e)[n] == '=')
			return (*e)[n + 1] ? *e + n + 1 : NULL;
	return NULL;
}

/* The main executable's mapped image, where its globals live. */
static int find_exe_image(struct dl_phdr_info *info, size_t size, void *data)
{
	if (info->dlpi_addr != rt.exe_bias)
		return 0;
	uintptr_t lo = UINTPTR_MAX, hi = 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD)
			continue;
		uintptr_t a = info->dlpi_addr + ph->p_vaddr;
		if (a < lo)
			lo = a;
		if (a + ph->p_memsz > hi)
			hi = a + ph->p_memsz;
	}
	rt.exe_lo = lo;
	rt.exe_hi = hi;
	return 1;
}

void rt_init(void)
{
	static bool done;
	if (done)
		return;
	done = true;
	initial_environ = environ;
	rt_real_init();

	Dl_info info;
	struct link_map *lm = NULL;
	if (dladdr1((void *)&rt_init, &info, (void **)&lm, RTLD_DL_LINKMAP) && lm)
		rt.exe_bias = lm->l_addr;
	dl_iterate_phdr(find_exe_image, NULL);
	if (__start___sancov_cntrs && __stop___sancov_cntrs > __start___sancov_cntrs) {
		rt.unwatched_lo = (uintptr_t)__start___sancov_cntrs;
		rt.unwatched_size = (uintptr_t)(__stop___sancov_cntrs - __start___sancov_cntrs);
	} else if (&__afl_cmp_map) {
		/* AFL++'s CmpLog pass, which runs before TSan's, reads its map
		 * pointer before every comparison it logs: not the program's. */
		rt.unwatched_lo = (uintptr_t)&__afl_cmp_map;
		rt.unwatched_size = sizeof __afl_cmp_map;
	}

	static struct rt_result local_result;
	rt.result = &local_result;
	rt.cpu = -1;
	rt.cfg.livelock_steps = rt_env_u64("SCHEDFUZZ_MAX_STEPS", RT_DEFAULT_LIVELOCK_STEPS);
	if (!rt.cfg.livelock_steps)
		rt.cfg.livelock_steps = UINT64_MAX; /* 0: never */
	rt.cfg.stall_ms = rt_env_u64("SCHEDFUZZ_STALL_MS", RT_DEFAULT_STALL_MS);
	rt.cfg.timeout_ms = rt_env_u64("SCHEDFUZZ_TIMEOUT", RT_DEFAULT_TIMEOUT_S) * 1000;
	rt.cfg.memory_points = rt_env_u64("SCHEDFUZZ_MEMORY", 1) != 0;
	rt.cfg.memory_all = rt_env_u64("SCHEDFUZZ_MEMORY", 1) >= 2;
	if (!rt.cfg.memory_points) { /* every address unwatched: one test in watched() */
		rt.unwatched_lo = 0;
		rt.unwatched_size = UINTPTR_MAX;
	}
	/* AFL_NO_AFFINITY (afl-fuzz passes its environment on): the user
	 * asked for no binding, and a pinned target would look like a
	 * CPU-locked task to the free-core scan of every afl-fuzz started
	 * after it (docs/engines.md). */
	rt.cfg.pool = rt_env_u64("SCHEDFUZZ_THREAD_POOL", 1) != 0;
	rt.cfg.pin = rt_env_u64("SCHEDFUZZ_PIN", getenv("AFL_NO_AFFINITY") ? 0 : 1) != 0;
	rt.cfg.record_path = rt_env_str("SCHEDFUZZ_RECORD");
	rt.cfg.input_path = rt_env_str("SCHEDFUZZ_INPUT");
	rt.cfg.trace_path = rt_env_str("SCHEDFUZZ_TRACE");
	rt_exit_ok_init();
	rt.cfg.no_spurious = rt_env_u64("SCHEDFUZZ_SPURIOUS", 1) == 0;
	const char *spec = rt_env_str("SCHEDFUZZ_STRATEGY");
	if (spec) {
		char err[256];
		if (!sf_spec_parse(spec, &rt.cfg.spec, err, sizeof err)) {
			fprintf(stderr, "schedfuzz: SCHEDFUZZ_STRATEGY=%s: %s\n", spec, err);
			_exit(RT_EXIT_SETUP);
		}
		rt.cfg.pinned = true;
	}
	rt_anchors_load();
	rt_cov_init();
}

/* ---- one execution ------------------------------------------------------------------ */

RT_EXPORT int __wrap_LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (rt.active) /* the harness calling itself: already controlled */
		return __real_LLVMFuzzerTestOneInput(data, size);
	struct sf_plan plan;
	size_t g = sf_genome_decode(data, size, &plan);
	rt_input_hint_begin(data, size);
	rt_artifact_input(data, size);
	rt_exec_begin(data, g, true);
	int r = __real_LLVMFuzzerTestOneInput(data + g, size - g);
	if (!rt.active)
		_exit(r); /* a child the harness forked (rt_process.c): uncontrolled */
	rt_openmp_iteration_end(); /* libomp's pooled workers end too */
	/* Threads the harness leaked run to their end before the next input. */
	struct rt_thread *self = rt_self;
	self->wait = W_OTHERS;
	rt_block(self, EV_THREAD_JOIN, NULL);
	for (int i = 1; i < rt.nthreads; i++) /* what they did precedes the next input */
		if (rt.threads[i].state == T_FINISHED)
			rt_race_joined(self, &rt.threads[i]);
	rt_exec_end();
	rt_heap_input_ended();
	rt_input_hint_passed();
	return r;
}

/* What main()'s return means to the execution. */
static int main_returned(int r)
{
	if (!rt.active)
		return r; /* a child the program forked (rt_process.c): uncontrolled */
	if (r != 0)
		rt.result->exit_code = r; /* the program's, not a setup error */
	if (r != 0 && !rt_exit_ok(r)) {
		rt_fail(F_EXIT, NULL, "main() returned %d", r);
	}
	/* The threads main() did not join may run until the process ends. */
	rt_exit_point(rt_self, NULL);
	return r;
}

/* The one execution a process runs: its own (a replay, a single run) or,
 * in an explorer's child, the schedule the child was forked for. Both run
 * it from __wrap_main's own frame, the child by jumping back there from
 * rt_run_child, so that the program's stacks in a sanitizer's report end in
 * main, __wrap_main and libc, without the explorer's frames between. */
static jmp_buf child_start;
static char *child_start_frame; /* __wrap_main's */
static struct {
	const uint8_t *input;
	size_t size;
	int argc;
	char **argv, **envp;
} job;

static __attribute__((noinline)) void *stack_here(void)
{
	return __builtin_frame_address(0);
}

/* The jump discards the explorer's frames, and with them the only pointers
 * to blocks the explorer allocated: LeakSanitizer would report those as the
 * program's leaks. A copy of the frames, registers spilled in, keeps them
 * reachable. */
static void *kept_frames;

static __attribute__((noinline)) void keep_frames(void)
{
	__builtin_unwind_init();
	char *low = stack_here();
	size_t size = (size_t)(child_start_frame - low);
	kept_frames = malloc(size);
	if (kept_frames)
		rt_memcpy(kept_frames, low, size);
}

/* The explorer's default, when no strategy is pinned: a random walk
 * (strongest on small programs) for half of the fresh plans' cost, the
 * rest rotating over the strategies that each win on some kind of bug
 * (strategy table in the README): deeper bugs, deadlocks, corner
 * variables, many threads. */
static const struct sf_spec portfolio[] = {
	{ .kind = SF_KIND_PCT, .given = SF_SPEC_DEPTH, .depth = 2 },
	/* Many threads: PCT over a few roles, one per start routine
	 * (strategies/focus.c, docs/many-threads.md). */
	{ .kind = SF_KIND_FOCUS, .given = SF_SPEC_DEPTH, .depth = 2 },
	{ .kind = SF_KIND_PCT, .given = SF_SPEC_DEPTH, .depth = 3 },
	{ .kind = SF_KIND_FOCUS, .given = SF_SPEC_DEPTH, .depth = 3 },
	{ .kind = SF_KIND_RPRO, .given = SF_SPEC_DEPTH | SF_SPEC_RADIUS | SF_SPEC_FLAGS, .depth = 3,
	  .radius = 20, .flags = SF_FLAG_LOCKS },
	{ .kind = SF_KIND_PCTVB, .given = SF_SPEC_DEPTH | SF_SPEC_NVARS, .depth = 2, .nvars = 1 },
	{ .kind = SF_KIND_FOCUS, .given = SF_SPEC_DEPTH, .depth = 4 },
};

/* Which of the two halves makes the next fresh plan: the walk, or the
 * portfolio's next strategy, whichever has cost less so far. A schedule
 * costs its hand-offs, at least HANDOFF_FLOOR: a walk switches at most of
 * its points, the other strategies at a few, and on a large program
 * (zstd's compressor: 1.6 million futex calls, 10 s against 0.3 s for a
 * PCT schedule) a walk in every other schedule would take nearly all of
 * the time. Below the floor, which no program of the zoo reaches, every
 * schedule costs the same and the two take turns. The counts come from
 * the executions, so a seed still gives the same sequence of plans. */
#define HANDOFF_FLOOR 10000
static struct {
	uint64_t cost[2];  /* the walk's plans, the portfolio's */
	uint64_t rotation; /* the portfolio's plans made so far */
	int pending;       /* the half of the plan made last, until its cost is in */
} halves = { .pending = -1 };

void rt_fresh_plan_cost(uint64_t handoffs)
{
	if (halves.pending < 0)
		return; /* a corpus entry's mutant, or a pinned strategy's plan */
	halves.cost[halves.pending] += handoffs > HANDOFF_FLOOR ? handoffs : HANDOFF_FLOOR;
	halves.pending = -1;
}

/* A fresh genome made from seed: a plan of the pinned strategy, or of the
 * portfolio's, shaped by what earlier executions showed. */
void rt_make_genome(uint8_t out[SF_GENOME_HEADER], uint64_t seed, const struct sf_estimates *est)
{
	struct sf_plan p = { .kind = SF_KIND_RANDOM, .seed = seed };
	if (rt.cfg.pinned) {
		sf_plan_generate(&rt.cfg.spec, est, seed, &p);
	} else if (halves.cost[0] > halves.cost[1]) {
		halves.pending = 1;
		sf_plan_generate(&portfolio[halves.rotation++ % (sizeof portfolio / sizeof portfolio[0])],
				 est, seed, &p);
	} else {
		halves.pending = 0;
	}
	if (rt.cfg.no_spurious)
		p.flags |= SF_FLAG_NO_SPURIOUS;
	sf_genome_encode(&p, NULL, 0, out, SF_GENOME_HEADER);
}

uint8_t *rt_read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "schedfuzz: cannot read %s: %s\n", path, strerror(errno));
		_exit(RT_EXIT_SETUP);
	}
	size_t cap = 4096, n = 0;
	uint8_t *buf = malloc(cap);
	for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
		n += got;
		if (n == cap)
			buf = realloc(buf, cap *= 2);
	}
	fclose(f);
	if (!buf) {
		fprintf(stderr, "schedfuzz: out of memory reading %s\n", path);
		_exit(RT_EXIT_SETUP);
	}
	*size = n;
	return buf;
}

/* ---- the explorer ---------------------------------------------------------------------- */

struct rt_child rt_run_child(const uint8_t *input, size_t size, int argc, char **argv,
			      char **envp, struct rt_result *shared, int quiet_fd, unsigned timeout)
{
	struct rt_child c = { 0 };
	rt_memset(shared, 0, sizeof *shared);
	if (quiet_fd >= 0) { /* only this child's output is kept */
		rt_kept_output = quiet_fd;
		ftruncate(quiet_fd, 0);
		lseek(quiet_fd, 0, SEEK_SET);
	}
	fflush(NULL);
	pid_t explorer = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "schedfuzz: fork: %s\n", strerror(errno));
		_exit(RT_EXIT_SETUP);
	}
	if (pid == 0) {
		/* An explorer killed takes its schedule along. */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != explorer)
			_exit(RT_EXIT_SETUP);
		rt_campaign_child_signals();
		if (quiet_fd >= 0) {
			dup2(quiet_fd, 1);
			dup2(quiet_fd, 2);
			rt.cfg.brief = true;
		}
		/* Failures are expected here: no core files. */
		setrlimit(RLIMIT_CORE, &(struct rlimit){ 0, 0 });
		/* The watchdog reports at the timeout; this is for a child
		 * whose watchdog could not. */
		alarm(timeout ? timeout + timeout / 8 + 3 : 0);
		rt.result = shared;
		/* A copy: the input may live in a frame the jump discards. */
		uint8_t *copy = malloc(size ? size : 1);
		if (!copy)
			_exit(RT_EXIT_SETUP);
		memcpy(copy, input, size);
		job.input = copy;
		job.size = size;
		job.argc = argc;
		job.argv = argv;
		job.envp = envp;
		keep_frames();
		longjmp(child_start, 1);
	}
	rt_campaign_running(pid);
	while (waitpid(pid, &c.status, 0) < 0 && errno == EINTR)
		;
	rt_campaign_running(0);
	c.timed_out = WIFSIGNALED(c.status) && WTERMSIG(c.status) == SIGALRM;
	c.setup_error = WIFEXITED(c.status) && WEXITSTATUS(c.status) == RT_EXIT_SETUP &&
			(shared->exit_code & 0xff) != RT_EXIT_SETUP;
	c.failed = !(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0);
	return c;
}

/* All or nothing: the bytes go to a temporary name in the same directory,
 * renamed to the input's name once all of them are written, removed when
 * they could not be (a full disk): an empty or cut file would replay as
 * another schedule, since every byte string is one. */
static int write_input(const char *dir, const char *prefix, const uint8_t *input, size_t size,
		       char *path, size_t cap)
{
	mkdir(dir, 0777);
	snprintf(path, cap, "%s/%s-%016" PRIx64, dir, prefix, cov_hash64(input, size, 0));
	char tmp[4200]; /* hidden from whoever lists the directory meanwhile */
	snprintf(tmp, sizeof tmp, "%s/.%s-%016" PRIx64 ".tmp-%d", dir, prefix,
		 cov_hash64(input, size, 0), (int)getpid());
	FILE *f = fopen(tmp, "wb");
	bool ok = f && fwrite(input, 1, size, f) == size;
	if (f && fclose(f) != 0)
		ok = false;
	int e = errno;
	if (ok && rename(tmp, path) != 0) {
		ok = false;
		e = errno;
	}
	if (!ok) {
		if (f)
			unlink(tmp);
		fprintf(stderr, "schedfuzz: cannot write %s: %s\n", path, strerror(e));
	}
	return ok ? 0 : -1;
}

/* The input on stderr, in base64, for when no file could hold it. */
static void print_base64(const uint8_t *in, size_t size)
{
	static const char digits[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	fprintf(stderr, "schedfuzz: the input, in base64 (base64 -d > crash, then schedfuzz "
			"replay crash -- PROG):\n");
	for (size_t i = 0; i < size; i += 3) {
		uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < size ? (uint32_t)in[i + 1] << 8 : 0) |
			     (i + 2 < size ? in[i + 2] : 0);
		char out[4] = { digits[v >> 18 & 63], digits[v >> 12 & 63],
				i + 1 < size ? digits[v >> 6 & 63] : '=',
				i + 2 < size ? digits[v & 63] : '=' };
		fwrite(out, 1, 4, stderr);
		if ((i / 3 + 1) % 19 == 0 || i + 3 >= size)
			fputc('\n', stderr);
	}
}

int rt_save_input(const char *dir, const char *prefix, const uint8_t *input, size_t size, char *path,
		  size_t cap)
{
	if (write_input(dir, prefix, input, size, path, cap) == 0)
		return 0;
	/* The output directory was checked at the start; if it fails now
	 * (full, removed), the finding must not be lost with it. */
	const char *tmp = getenv("TMPDIR");
	if (write_input(tmp && *tmp ? tmp : "/tmp", prefix, input, size, path, cap) == 0) {
		fprintf(stderr, "schedfuzz: saved it to %s instead\n", path);
		return 0;
	}
	print_base64(input, size);
	return -1;
}

struct rt_child rt_replay_shown(const uint8_t *input, size_t size, const char *path, int argc,
			       char **argv, char **envp, struct rt_result *shared, unsigned timeout)
{
	fprintf(stderr, "schedfuzz: replaying it:\n");
	setenv("SCHEDFUZZ_INPUT", path, 1);
	rt.cfg.input_path = getenv("SCHEDFUZZ_INPUT");
	/* Its output is shown, on stderr with ours unless the run is
	 * verbose: stdout carries only the paths of the inputs saved
	 * (input=$(schedfuzz run ...)). */
	fflush(NULL);
	int out = rt_kept_output >= 0 ? dup(1) : -1;
	if (out >= 0)
		dup2(2, 1);
	struct rt_child again = rt_run_child(input, size, argc, argv, envp, shared, -1, timeout);
	if (out >= 0) {
		dup2(out, 1);
		close(out);
	}
	unsetenv("SCHEDFUZZ_INPUT");
	rt.cfg.input_path = NULL;
	return again;
}

/* Replay a failing input in a fresh child, output visible, and say whether
 * it failed the same way (kind, steps and interleaving). When it did not,
 * the first run's own words are shown, since the replay's report is not
 * its report. */
void rt_replay_check(const uint8_t *input, size_t size, const char *path,
			 const struct rt_result *first, int argc, char **argv, char **envp,
			 struct rt_result *shared, unsigned timeout)
{
	struct rt_child again = rt_replay_shown(input, size, path, argc, argv, envp, shared, timeout);
	if (again.failed && shared->fail == first->fail &&
	    shared->fingerprint == first->fingerprint && shared->steps == first->steps)
		fprintf(stderr, "schedfuzz: replay reproduced the failure "
				"(same interleaving, %" PRIu64 " steps)\n",
			first->steps);
	else if (again.failed && first->out_of_time && shared->out_of_time)
		fprintf(stderr, "schedfuzz: replay reproduced the hang (it ran out of time again, "
				"at a step the clock chose: %" PRIu64 " steps, then %" PRIu64 ")\n",
			first->steps, shared->steps);
	else if (first->async || shared->async)
		fprintf(stderr, "schedfuzz: WARNING: the replay differed from the first run: a "
				"thread was preempted asynchronously, at a moment the clock chose "
				"(see the note below)\n");
	else
		fprintf(stderr, "schedfuzz: WARNING: the replay differed from the first run: "
				"the program depends on something outside the schedule "
				"(time, randomness, uncontrolled threads)\n");
	bool same = again.failed && shared->fail == first->fail &&
		    (shared->fingerprint == first->fingerprint || first->out_of_time);
	if (!same && rt_kept_output >= 0) {
		fprintf(stderr, "schedfuzz: the first run said:\n");
		rt_show_child_output(rt_kept_output);
	}
	if (first->async || shared->async)
		rt_watchdog_note(first->async ? first : shared, 1, 1);
}

void rt_show_child_output(int quiet_fd)
{
	/* Its end: the report comes last, after whatever the program said. */
	enum { SHOWN = 64 << 10 };
	off_t end = quiet_fd >= 0 ? lseek(quiet_fd, 0, SEEK_END) : 0, at = 0;
	if (end > SHOWN) {
		at = end - SHOWN;
		fprintf(stderr, "schedfuzz: (its last %d KiB of %lld)\n", SHOWN >> 10,
			(long long)end);
	}
	char buf[4096];
	ssize_t n;
	for (; quiet_fd >= 0 && (n = pread(quiet_fd, buf, sizeof buf, at)) > 0; at += n)
		(void)!write(2, buf, (size_t)n);
}

/* Where rt_keep_failure saved the last input it kept. */
static char kept_path[4096];

int rt_keep_failure(const struct rt_child *c, uint64_t index, uint64_t runs, const char *out,
		    const uint8_t *input, size_t size, int argc, char **argv, char **envp,
		    struct rt_result *shared, unsigned timeout)
{
	struct rt_result first = *shared;
	char *path = kept_path;
	path[0] = 0;
	fprintf(stderr, "schedfuzz: schedule %" PRIu64 " of %" PRIu64 " failed: %s\n", index, runs,
		rt_describe_child(c, &first));
	if (rt_save_input(out, "crash", input, size, path, sizeof kept_path) != 0) {
		path[0] = 0;
		/* No file: the first run's report is shown, with the input. */
		if (rt_kept_output >= 0) {
			fprintf(stderr, "schedfuzz: the failing run said:\n");
			rt_show_child_output(rt_kept_output);
		}
		return -1;
	}
	fprintf(stderr, "schedfuzz: input saved to %s\n", path);
	int independent = rt_findings_probe(&first, c, input, size, path, argc, argv, envp, shared,
					    timeout);
	rt_replay_check(input, size, path, &first, argc, argv, envp, shared, timeout);
	if (independent == 2) { /* its path is printed if nothing else is found */
		fprintf(stderr, "schedfuzz: searching on past this leak: in another schedule, a "
				"leak of other size or any other failure is a finding\n");
		return 2;
	}
	printf("%s\n", path);
	fflush(stdout);
	return independent;
}

/* The explorer's input for one genome: the genome, then the harness data
 * of SCHEDFUZZ_DATA (read once), if any, in place of whatever data a kept
 * corpus entry carried. */
static const uint8_t *explore_input(const uint8_t *genome, size_t genome_size, size_t *size)
{
	static uint8_t *data, *buf;
	static size_t data_size, cap;
	const char *path = rt_env_str("SCHEDFUZZ_DATA");
	if (!path) {
		*size = genome_size;
		return genome;
	}
	if (!data)
		data = rt_read_file(path, &data_size);
	struct sf_plan plan;
	size_t used = sf_genome_decode(genome, genome_size, &plan);
	/* A short genome reads as zero-padded: padded here, so that the data
	 * starts where the harness's decoding will look for it. */
	size_t g = used < SF_GENOME_HEADER ? SF_GENOME_HEADER : used;
	if (g + data_size > cap) {
		cap = g + data_size;
		buf = realloc(buf, cap);
		if (!buf) {
			fprintf(stderr, "schedfuzz: out of memory reading %s\n", path);
			_exit(RT_EXIT_SETUP);
		}
	}
	memset(buf, 0, g);
	memcpy(buf, genome, used);
	memcpy(buf + g, data, data_size);
	*size = g + data_size;
	return buf;
}

/* A long run says how far it got: first after 10 s, then at doubling
 * intervals up to every 5 minutes, as libFuzzer pulses. */
struct progress {
	uint64_t start_ms, next_ms, every_ms;
};

static uint64_t monotonic_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static void progress_say(struct progress *p, uint64_t done, uint64_t runs, uint64_t failures)
{
	uint64_t now = monotonic_ms();
	if (now < p->next_ms)
		return;
	uint64_t ms = now - p->start_ms;
	fprintf(stderr, "schedfuzz: %" PRIu64 " of %" PRIu64 " schedules run, %.0f/s, %" PRIu64
			" failing, %" PRIu64 " s\n",
		done, runs, ms ? (double)done * 1000.0 / (double)ms : 0.0, failures, ms / 1000);
	if (p->every_ms < 300000)
		p->every_ms *= 2;
	p->next_ms = now + p->every_ms;
}

/* The summary of a run of one job (a parallel run's is rt_jobs.c's): true
 * when it reported a failure (a leak passed over, rt_findings_summary). */
static bool summarise(const struct rt_campaign *cp, const struct rt_guide *guide,
		      const struct sf_estimates *est, uint32_t max_threads, uint64_t ran,
		      uint64_t failures, bool keep_going)
{
	if (cp->stop_signal)
		fprintf(stderr, "schedfuzz: stopped by %s after %" PRIu64 " schedules\n",
			strsignal(cp->stop_signal), ran);
	if (!keep_going)
		return rt_findings_summary(ran, cp->seed, failures, keep_going, true);
	/* What a paper's bound needs: n, and k (events or lock acquisitions). */
	fprintf(stderr, "failures: %" PRIu64 "/%" PRIu64 "\n", failures, ran);
	fprintf(stderr, "threads: %" PRIu32 "\n", max_threads);
	fprintf(stderr, "events: %" PRIu64 "\n", est->events);
	fprintf(stderr, "lock_events: %" PRIu64 "\n", est->locks);
	if (guide)
		rt_guide_summary(guide);
	rt_findings_summary(ran, cp->seed, failures, keep_going, true);
	fflush(stdout);
	return false;
}

/* One job of the campaign (rt_jobs.h): schedules from its seed stream,
 * a fork each, until the budget is spent, a failure is kept (unless
 * --keep-going) or a signal stops the campaign. A failure of a kind and
 * site another job (or an earlier run) kept is counted, not kept again. */
static int explore_job(struct rt_campaign *cp, int job, int argc, char **argv, char **envp)
{
	bool parallel = cp->njobs > 1;
	uint64_t seed0 = rt_campaign_job_seed(cp, (unsigned)job);
	uint64_t runs = cp->runs;
	unsigned timeout = (unsigned)rt_env_u64("SCHEDFUZZ_TIMEOUT", 30);
	const char *out = rt_env_str("SCHEDFUZZ_OUT") ? rt_env_str("SCHEDFUZZ_OUT") : ".";
	bool verbose = rt_env_u64("SCHEDFUZZ_VERBOSE", 0) != 0;
	bool keep_going = rt_env_u64("SCHEDFUZZ_KEEP_GOING", 0) != 0;
	bool print_schedule = rt_env_u64("SCHEDFUZZ_PRINT_SCHEDULE", 0) != 0;
	const char *state = rt_env_str("SCHEDFUZZ_STATE");
	struct rt_job_slot *slot = &cp->jobs[job];
	enum rt_race_mode races = rt_race_mode_from_env();
	if (job == 0)
		rt_race_explore_begin();

	struct rt_result *shared = mmap(NULL, sizeof *shared, PROT_READ | PROT_WRITE,
					MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	/* Children's output is kept aside, to show it when one cannot run. */
	int quiet = verbose ? -1 : memfd_create("schedfuzz-child-output", 0);
	if (shared == MAP_FAILED) {
		fprintf(stderr, "schedfuzz: mmap: %s\n", strerror(errno));
		return RT_EXIT_SETUP;
	}

	rt_findings_warm_symbolizer();
	/* What executions showed so far; it shapes the next plans only. */
	struct sf_estimates est = cp->loaded_est;
	uint64_t failures = 0, independent = 0, ran = 0;
	struct rt_async_tally async = { 0 };
	uint32_t max_threads = 0;
	int status = -1;
	/* Guided (rt_guide.c) unless told otherwise or a strategy is pinned.
	 * It lives as long as the process: static, so that LeakSanitizer
	 * (a harness built with ASan) sees it still reachable at the end. */
	static struct rt_guide *guide;
	guide = rt_guide_create(seed0, cp, job);
	uint8_t fresh[SF_GENOME_HEADER];
	uint64_t started = monotonic_ms();
	struct progress progress = { started, started + 10000, 10000 };
	uint64_t ticket;
	for (uint64_t i = slot->first; rt_campaign_claim(cp, &ticket); i++) {
		if (!parallel)
			progress_say(&progress, ticket, runs, failures);
		if (parallel) /* what the other jobs' executions showed shapes this plan too */
			rt_campaign_share_estimates(cp, job, &est);
		size_t size = sizeof fresh;
		const uint8_t *genome = fresh;
		if (guide)
			genome = rt_guide_next(guide, i, &est, &size);
		else
			rt_make_genome(fresh, sf_derive_seed(seed0, i), &est);
		if (print_schedule) {
			struct sf_plan plan;
			char text[1024];
			sf_genome_decode(genome, size, &plan);
			sf_plan_format(&plan, text, sizeof text);
			if (parallel)
				fprintf(stderr, "schedfuzz: job %d schedule %" PRIu64 ": %s\n", job,
					i + 1, text);
			else
				fprintf(stderr, "schedfuzz: schedule %" PRIu64 ": %s\n", i + 1, text);
		}
		size_t in_size;
		const uint8_t *in = explore_input(genome, size, &in_size);
		struct rt_child c = rt_run_child(in, in_size, argc, argv, envp, shared, quiet,
						 timeout);
		if (cp->stop_signal)
			break; /* killed by the stop, or by the same Ctrl-C: no finding */
		if (c.setup_error) {
			rt_show_child_output(quiet);
			status = RT_EXIT_SETUP;
			rt_campaign_stop(cp);
			break;
		}
		ran++;
		__atomic_store_n(&slot->schedules, i + 1, __ATOMIC_RELAXED);
		rt_fresh_plan_cost(shared->handoffs);
		/* A reversal's execution runs threads to their give-way, spins
		 * included: its event counts would stretch every later plan's
		 * change points over steps that plans seldom reach. */
		if (!guide || !rt_guide_learn(guide, c.failed, shared->threads))
			sf_estimates_merge(&est, &shared->seen);
		if (shared->threads > max_threads)
			max_threads = shared->threads;
		rt_async_count(&async, shared);
		if (races == RT_RACES_REPORT && shared->races) {
			struct rt_result raced = *shared;
			if (!rt_race_keep(&raced, c.failed, i + 1, in, in_size, out, argc, argv, envp,
					  shared, timeout))
				return RT_EXIT_SETUP;
			*shared = raced; /* what the schedule showed, for what follows */
		}
		enum rt_judgement j = rt_findings_judge(&c, shared);
		if (j == RT_PASS)
			continue;
		if (j == RT_KNOWN) { /* only under --keep-going: the others stopped */
			independent++;
			continue;
		}

		struct rt_result first = *shared;
		uint32_t kind = first.fail < F_COUNT ? first.fail : F_COUNT;
		bool mine;
		struct rt_finding *f = rt_campaign_finding(cp, rt_finding_key(&c, &first), kind,
							   rt_describe_child(&c, &first), &mine);
		if (f && !mine) { /* kept by another job, or an earlier run */
			uint32_t was = rt_campaign_finding_state(cp, f, keep_going);
			if (was == FINDING_INDEPENDENT) {
				independent++; /* a leak every schedule shows is searched past */
				continue;
			}
			failures++;
			if (keep_going)
				continue;
			rt_campaign_stop(cp);
			if (!parallel && f->path[0]) { /* a resumed campaign's */
				fprintf(stderr, "schedfuzz: schedule %" PRIu64 " of %" PRIu64
						" failed: %s, as an earlier run found: %s\n",
					ticket + 1, runs, f->what, f->path);
				printf("%s\n", f->path);
			}
			status = 1;
			break;
		}
		if (parallel)
			rt_campaign_report_begin(cp);
		rt_campaign_keeping(true);
		int k = rt_keep_failure(&c, ticket + 1, runs, out, in, in_size, argc, argv, envp,
					shared, timeout);
		rt_campaign_keeping(false);
		if (f) {
			snprintf(f->path, sizeof f->path, "%s", kept_path);
			__atomic_store_n(&f->state,
					 k < 0	? FINDING_UNSAVED
					 : k	? FINDING_INDEPENDENT
						: FINDING_SAVED,
					 __ATOMIC_RELEASE);
		}
		if (parallel)
			rt_campaign_report_end(cp);
		if (k < 0) {
			status = RT_EXIT_SETUP;
			rt_campaign_stop(cp);
			break;
		}
		if (k == 2) { /* a leak every schedule shows: searched on past */
			independent++;
			continue;
		}
		if (k == 1)
			independent++;
		else
			failures++;
		if (!keep_going) {
			rt_campaign_stop(cp); /* the other jobs stop at this failure too */
			status = 1;
			break;
		}
	}
	slot->failures = failures;
	slot->independent = independent;
	slot->threads = max_threads;
	rt_campaign_share_estimates(cp, job, &est);
	if (guide)
		rt_guide_counts(guide, &slot->guide);
	__atomic_store_n(&slot->done, 1, __ATOMIC_RELEASE);
	if (parallel)
		return status < 0 ? 0 : status;
	if (status == RT_EXIT_SETUP)
		return status;
	rt_async_say(&async, ran);
	rt_race_summary(ran);
	bool leak_said = status < 0 &&
			 summarise(cp, guide, &est, max_threads, ran, failures, keep_going);
	if (state && !rt_campaign_save(cp, state))
		return RT_EXIT_SETUP;
	if (status >= 0)
		return status;
	if (keep_going)
		return failures || independent || rt_race_kept() ? 1 : 0;
	return leak_said || rt_race_kept() ? 1 : 0;
}

static int explore(uint64_t runs, int argc, char **argv, char **envp)
{
	struct rt_campaign *cp = rt_campaign_create(runs, rt_env_u64("SCHEDFUZZ_SEED", 0));
	if (!cp)
		return RT_EXIT_SETUP;
	if (cp->njobs == 1) {
		rt_campaign_signals(cp);
		return explore_job(cp, 0, argc, argv, envp);
	}
	int job = rt_campaign_fork(cp);
	if (job < 0)
		return rt_campaign_finish(cp, rt_env_u64("SCHEDFUZZ_KEEP_GOING", 0) != 0);
	int status = explore_job(cp, job, argc, argv, envp);
	fflush(NULL);
	_exit(status);
}

/* What every execution would otherwise do afresh in its forked child,
 * done once before any fork: the main thread's stack bounds
 * (read from /proc) and the unwinder glibc's backtrace loads on first
 * use (the watchdog's warm-up). A fork costs less when the child finds
 * them done. */
static void warm_up(void)
{
	static struct rt_thread scratch;
	rt_main_stack_lookup(&scratch);
	void *frame;
	rt_backtrace(&frame, 1);
}

RT_EXPORT int __wrap_main(int argc, char **argv, char **envp)
{
	rt_init();
	warm_up(); /* before the explorer's forks, and the forkserver of AFL++'s persistent driver */
	rt_main_argc = argc;
	rt_main_argv = argv;
	const char *input_path = rt_env_str("SCHEDFUZZ_INPUT");
	const char *runs = rt_env_str("SCHEDFUZZ_RUNS");
	bool harness = __real_LLVMFuzzerTestOneInput != NULL;
	if (harness && !runs)
		rt_input_hint_args(argc, argv);

	if (harness && !input_path && !runs) {
		/* The engine's main: libFuzzer's, AFL++'s persistent loop or
		 * the standalone one (fuzz/driver_*.c). */
		rt.under_engine = true;
		rt.under_libfuzzer = LLVMFuzzerRunDriver != NULL; /* it reads our coverage */
		if (rt.under_libfuzzer)
			rt_watchdog_libfuzzer();
		return __real_main(argc, argv, envp);
	}
	if (!harness && rt_env_str("SCHEDFUZZ_DATA")) {
		fprintf(stderr, "schedfuzz: --data is for harnesses (LLVMFuzzerTestOneInput); this "
				"program has main() only\n");
		return RT_EXIT_SETUP;
	}
	if (harness && LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	static uint8_t genome[SF_GENOME_HEADER];
	child_start_frame = __builtin_frame_address(0);
	if (setjmp(child_start) == 0) {
		const char *search = rt_env_str("SCHEDFUZZ_SEARCH");
		/* Only an explorer: a process forked by afl-fuzz's forkserver,
		 * or one run, would populate its pages for nobody. */
		if (search || runs)
			rt_heap_before_forks();
		if (search)
			return rt_search_explore(search, rt_env_u64("SCHEDFUZZ_RUNS", 1000), argc,
						 argv, envp);
		if (runs)
			return explore(rt_env_u64("SCHEDFUZZ_RUNS", 1), argc, argv, envp);
		job.size = SF_GENOME_HEADER;
		job.input = genome;
		if (input_path)
			job.input = rt_read_file(input_path, &job.size);
		else if (!rt_afl_input(&job.input, &job.size)) { /* else afl-fuzz's test case */
			rt_make_genome(genome, rt_env_u64("SCHEDFUZZ_SEED", 0),
				    &(struct sf_estimates){ 0 });
			if (!harness)
				rt_exit_ok_all(); /* a direct run: its exit status is its own */
		}
		if (input_path && !harness) { /* a harness's inputs are looked at as it runs them */
			rt_single_inputs = true;
			rt_input_hint_begin(job.input, job.size);
		}
		job.argc = argc;
		job.argv = argv;
		job.envp = envp;
	}
	if (__real_LLVMFuzzerTestOneInput) {
		__wrap_LLVMFuzzerTestOneInput(job.input, job.size);
		return 0;
	}
	rt_exec_begin(job.input, job.size, false);
	int r = main_returned(__real_main(job.argc, job.argv, job.envp));
	if (input_path && !harness && rt.result && !rt.result->fail)
		rt_input_hint_passed();
	return r;
}

/* ---- what libFuzzer looks up in a sanitizer runtime ---------------------------------------- */

/* Weak: a sanitizer runtime linked beside ours (ASan, UBSan) brings its own. */

RT_EXPORT __attribute__((weak)) int __sanitizer_acquire_crash_state(void)
{
	static int taken;
	return !__atomic_exchange_n(&taken, 1, __ATOMIC_RELAXED);
}

RT_EXPORT __attribute__((weak)) void __sanitizer_print_stack_trace(void)
{
	/* The schedule report printed before the crash is our stack trace. */
}

RT_EXPORT __attribute__((weak)) void __sanitizer_set_death_callback(void (*callback)(void))
{
}
