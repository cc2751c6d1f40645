/* rt_jobs.c - a campaign of `schedfuzz run` explored by several jobs at
 * once (--jobs N): the jobs, the budget, progress, stopping, the summary
 * (what they hand each other as they run: rt_campaign_shared.c).
 *
 *   SCHEDFUZZ_JOBS=N   jobs (default 1; 0: one per CPU this process may use)
 *   SCHEDFUZZ_STATE=F  the campaign's state: resumed from F if it exists,
 *                      written back at the end (rt_campaign_state.c)
 *
 * Each job is a process forked from the explorer before its first
 * schedule, bound to a CPU of its own (executions keep to one CPU, and a
 * job's children inherit its binding). Unbound, each execution would keep
 * to the CPU it starts on, and two jobs' executions often started on the
 * same CPU: twostage_n at 50 threads ran 19.6 schedules/s with two jobs
 * against 23.7 with one. Bound, a job on a CPU that other work loads more
 * falls behind the other (78 to 270 of 600 to 1,000 schedules here). It
 * runs the explorer's loop with
 * its own seed stream: job 0 draws from --seed itself, job j from a seed
 * derived from --seed and j. They share, in memory mapped before the
 * fork: the union of the features every schedule showed (a schedule is
 * new only if no job's showed its features), a log of the corpus entries
 * each kept (each imports the others' before its next schedule), the
 * estimates plans are drawn from (each folds the others' into its own
 * before its next plan), the findings by kind and site and the data races
 * by pair of sites (the first job to claim one saves it, replays it and
 * probes it; the others count it), and the budget of schedules (taken one
 * at a time, so the jobs run RUNS in all). The explorer's own
 * process only waits: it prints the progress line and, once every job
 * has ended, the summary.
 *
 * Sharing makes a parallel run nondeterministic: which job runs which
 * share of the budget, and when an entry or an estimate of another job
 * arrives, depend on timing. Each job's sequence of plan seeds is fixed
 * by its seed; --jobs 1 is the fixed run. */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rt_libc.h"
#include "rt_internal.h"
#include "rt_jobs.h"

#define LOG_BYTES (64ull << 20) /* corpus entries shared: beyond this each job keeps its own */

static uint64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* The CPUs this process may run on, in order. */
static unsigned allowed_cpus(int *cpus, unsigned cap)
{
	cpu_set_t set;
	unsigned n = 0;
	if (sched_getaffinity(0, sizeof set, &set) != 0)
		return 0;
	for (int i = 0; i < CPU_SETSIZE && n < cap; i++)
		if (CPU_ISSET(i, &set))
			cpus[n++] = i;
	return n;
}

struct rt_campaign *rt_campaign_current;

struct rt_campaign *rt_campaign_create(uint64_t runs, uint64_t seed)
{
	uint64_t n = rt_env_u64("SCHEDFUZZ_JOBS", 1);
	if (n == 0) {
		int cpus[CPU_SETSIZE];
		n = allowed_cpus(cpus, CPU_SETSIZE);
		if (n == 0)
			n = 1;
	}
	if (n > RT_MAX_JOBS) {
		fprintf(stderr, "schedfuzz: SCHEDFUZZ_JOBS=%" PRIu64 ": at most %d jobs\n", n,
			RT_MAX_JOBS);
		return NULL;
	}
	struct rt_campaign *cp = mmap(NULL, sizeof *cp, PROT_READ | PROT_WRITE,
				      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	uint8_t *log = mmap(NULL, LOG_BYTES, PROT_READ | PROT_WRITE,
			    MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (cp == MAP_FAILED || log == MAP_FAILED) {
		fprintf(stderr, "schedfuzz: mmap: %s\n", strerror(errno));
		return NULL;
	}
	cp->njobs = (uint32_t)n;
	cp->runs = runs;
	cp->seed = seed;
	cp->log = log;
	cp->log_cap = LOG_BYTES;
	cp->start_ms = now_ms();
	const char *state = rt_env_str("SCHEDFUZZ_STATE");
	if (state && access(state, F_OK) == 0 && !rt_campaign_load(cp, state))
		return NULL;
	rt_campaign_current = cp;
	return cp;
}

uint64_t rt_campaign_job_seed(const struct rt_campaign *cp, unsigned job)
{
	return job == 0 ? cp->seed : sf_derive_seed(cp->seed ^ 0x6a6f62ull /* "job" */, job);
}

bool rt_campaign_claim(struct rt_campaign *cp, uint64_t *ticket)
{
	if (rt_campaign_stopping(cp))
		return false;
	*ticket = __atomic_fetch_add(&cp->claimed, 1, __ATOMIC_RELAXED);
	return *ticket < cp->runs;
}

void rt_campaign_stop(struct rt_campaign *cp)
{
	__atomic_store_n(&cp->stop, 1, __ATOMIC_RELEASE);
}

bool rt_campaign_stopping(const struct rt_campaign *cp)
{
	return __atomic_load_n(&cp->stop, __ATOMIC_ACQUIRE) != 0;
}

/* ---- stopping on a signal --------------------------------------------------------- */

static struct rt_campaign *signalled;
static volatile sig_atomic_t running_child, keeping_failure;
static pid_t coordinator_pid;

static void on_stop(int sig)
{
	int saved = errno;
	if (signalled) {
		if (!signalled->stop_signal)
			signalled->stop_signal = sig;
		rt_campaign_stop(signalled);
		if (getpid() == coordinator_pid) {
			for (uint32_t j = 0; j < signalled->njobs; j++)
				if (signalled->jobs[j].pid > 0 && !signalled->jobs[j].done)
					kill(signalled->jobs[j].pid, SIGTERM);
		} else if (running_child > 0 && !keeping_failure) {
			kill(running_child, SIGKILL);
		}
	}
	errno = saved;
}

static struct sigaction before[2];
static const int stop_signals[2] = { SIGINT, SIGTERM };

void rt_campaign_signals(struct rt_campaign *cp)
{
	signalled = cp;
	struct sigaction sa = { .sa_handler = on_stop };
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < 2; i++) {
		sigaction(stop_signals[i], NULL, &before[i]);
		/* Ignored (a background job of a script): it stays so. */
		if (before[i].sa_handler != SIG_IGN)
			sigaction(stop_signals[i], &sa, NULL);
	}
}

void rt_campaign_child_signals(void)
{
	if (signalled)
		for (int i = 0; i < 2; i++)
			sigaction(stop_signals[i], &before[i], NULL);
}

void rt_campaign_running(int pid)
{
	running_child = pid;
}

void rt_campaign_keeping(bool keeping)
{
	keeping_failure = keeping;
}

/* ---- the jobs --------------------------------------------------------------------- */

/* Job j keeps to the j-th CPU it may use (round robin past their
 * number), unless executions keep to none (SCHEDFUZZ_PIN=0). */
static void bind_job(unsigned job)
{
	int cpus[CPU_SETSIZE];
	unsigned n = allowed_cpus(cpus, CPU_SETSIZE);
	if (!rt.cfg.pin || n < 2)
		return;
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpus[job % n], &set);
	sched_setaffinity(0, sizeof set, &set);
}

static uint64_t features(const struct rt_campaign *cp)
{
	uint64_t n = 0;
	for (size_t w = 0; w < sizeof cp->seen / sizeof cp->seen[0]; w++)
		n += (uint64_t)__builtin_popcountll(__atomic_load_n(&cp->seen[w], __ATOMIC_RELAXED));
	return n;
}

static uint32_t findings(const struct rt_campaign *cp)
{
	uint32_t n = 0;
	for (int i = 0; i < RT_MAX_FINDINGS; i++)
		n += __atomic_load_n(&cp->findings[i].key, __ATOMIC_RELAXED) != 0;
	return n;
}

static uint64_t run_here(const struct rt_campaign *cp, unsigned j)
{
	const struct rt_job_slot *s = &cp->jobs[j];
	return __atomic_load_n(&s->schedules, __ATOMIC_RELAXED) - s->first;
}

/* A long run says how far it got: after 10 s, then at doubling intervals
 * up to every 5 minutes, as libFuzzer pulses. In all and per job;
 * SCHEDFUZZ_VERBOSE=1 gives each job a line of its own. */
static void progress(const struct rt_campaign *cp, uint64_t *next, uint64_t *every, bool last)
{
	uint64_t now = now_ms();
	if (now < *next && !last)
		return;
	double secs = (double)(now - cp->start_ms) / 1000.0;
	uint64_t done = 0;
	for (unsigned j = 0; j < cp->njobs; j++)
		done += run_here(cp, j);
	char per[512] = "";
	size_t at = 0;
	for (unsigned j = 0; j < cp->njobs && j < 8 && at < sizeof per; j++)
		at += (size_t)snprintf(per + at, sizeof per - at, "%s%.0f", j ? ", " : "",
				       secs > 0 ? (double)run_here(cp, j) / secs : 0.0);
	if (cp->njobs > 8 && at < sizeof per)
		snprintf(per + at, sizeof per - at, ", ...");
	fprintf(stderr, "schedfuzz: %" PRIu64 " of %" PRIu64 " schedules run, %.0f/s in all (per job: "
			"%s), corpus %" PRIu32 ", features %" PRIu64 ", findings %" PRIu32 ", %" PRIu64 " s\n",
		done, cp->runs, secs > 0 ? (double)done / secs : 0.0, per,
		__atomic_load_n(&cp->log_count, __ATOMIC_RELAXED), features(cp), findings(cp),
		(now - cp->start_ms) / 1000);
	if (rt_env_u64("SCHEDFUZZ_VERBOSE", 0))
		for (unsigned j = 0; j < cp->njobs; j++)
			fprintf(stderr, "schedfuzz:   job %u: %" PRIu64 " schedules, %.0f/s, corpus %" PRIu64
					", failures %" PRIu64 "%s\n",
				j, run_here(cp, j), secs > 0 ? (double)run_here(cp, j) / secs : 0.0,
				cp->jobs[j].guide.corpus, cp->jobs[j].failures,
				cp->jobs[j].done ? ", done" : "");
	if (*every < 300000)
		*every *= 2;
	*next = now + *every;
}

static sigset_t child_ended, mask_before;

/* The explorer's process while the jobs run: reap them, show progress,
 * pass a stop on. A job that could not run stops the others. */
static int wait_jobs(struct rt_campaign *cp)
{
	int status = 0;
	uint32_t left = cp->njobs;
	uint64_t every = 10000, next = cp->start_ms + every;
	while (left) {
		int st;
		pid_t pid = waitpid(-1, &st, WNOHANG);
		if (pid < 0 && errno != EINTR)
			break;
		if (pid <= 0) {
			/* Asleep until a job ends (SIGCHLD, held pending for
			 * this), a stop, or the next progress line. */
			uint64_t now = now_ms(), ms = next > now ? next - now : 0;
			struct timespec ts = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000L };
			sigtimedwait(&child_ended, NULL, &ts);
			if (!rt_campaign_stopping(cp))
				progress(cp, &next, &every, false);
			continue;
		}
		for (unsigned j = 0; j < cp->njobs; j++) {
			if (cp->jobs[j].pid != pid)
				continue;
			cp->jobs[j].done = 1;
			left--;
			if (WIFEXITED(st) && WEXITSTATUS(st) == RT_EXIT_SETUP) {
				status = RT_EXIT_SETUP;
				rt_campaign_stop(cp);
			} else if (!WIFEXITED(st) && !cp->stop_signal) {
				fprintf(stderr, "schedfuzz: job %u ended unexpectedly (%s)\n", j,
					strsignal(WTERMSIG(st)));
			}
		}
	}
	return status;
}

static int setup_status;

int rt_campaign_fork(struct rt_campaign *cp)
{
	coordinator_pid = getpid();
	rt_campaign_signals(cp);
	sigemptyset(&child_ended);
	sigaddset(&child_ended, SIGCHLD);
	sigprocmask(SIG_BLOCK, &child_ended, &mask_before);
	fflush(NULL);
	for (unsigned j = 0; j < cp->njobs; j++) {
		pid_t pid = fork();
		if (pid < 0) {
			fprintf(stderr, "schedfuzz: fork: %s\n", strerror(errno));
			rt_campaign_stop(cp);
			setup_status = RT_EXIT_SETUP;
			break;
		}
		if (pid == 0) {
			/* The explorer killed takes its jobs along, and they
			 * their schedules; a stop keeps what was found. */
			if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() != coordinator_pid)
				_exit(RT_EXIT_SETUP);
			sigprocmask(SIG_SETMASK, &mask_before, NULL); /* the program's own */
			cp->jobs[j].pid = getpid();
			bind_job(j);
			return (int)j;
		}
		cp->jobs[j].pid = pid;
	}
	int st = wait_jobs(cp);
	sigprocmask(SIG_SETMASK, &mask_before, NULL);
	if (st)
		setup_status = st;
	return -1;
}

/* ---- the summary ------------------------------------------------------------------ */

static void guide_summary(const struct rt_campaign *cp)
{
	struct rt_guide_counts sum = { 0 };
	bool any = false;
	for (unsigned j = 0; j < cp->njobs; j++) {
		const struct rt_guide_counts *g = &cp->jobs[j].guide;
		any |= g->corpus || g->runs[1] || g->runs[2] || g->runs[3];
		sum.corpus += g->corpus;
		sum.loaded += g->loaded;
		for (int a = 0; a < 4; a++) {
			sum.runs[a] += g->runs[a];
			sum.wins[a] += g->wins[a];
		}
	}
	if (!any)
		return;
	/* Each job holds the others' entries too: the campaign's own are
	 * the log's (and the state's). */
	fprintf(stderr,
		"guided: corpus %" PRIu32 " (%" PRIu64 " loaded), features %" PRIu64
		", explored %" PRIu64 " (%" PRIu64 " new), mutated %" PRIu64 " (%" PRIu64
		" new), reversed %" PRIu64 " (%" PRIu64 " new)\n",
		cp->log_count, sum.loaded / cp->njobs, features(cp), sum.runs[1], sum.wins[1],
		sum.runs[2], sum.wins[2], sum.runs[3], sum.wins[3]);
}

int rt_campaign_finish(struct rt_campaign *cp, bool keep_going)
{
	uint64_t ran = 0, failures = 0, independent = 0;
	uint32_t threads = 0;
	struct sf_estimates est = { 0 };
	char per[1024] = "";
	size_t at = 0;
	for (unsigned j = 0; j < cp->njobs; j++) {
		const struct rt_job_slot *s = &cp->jobs[j];
		ran += s->schedules - s->first;
		failures += s->failures;
		independent += s->independent;
		if (s->threads > threads)
			threads = s->threads;
		sf_estimates_merge(&est, &s->est);
		if (at < sizeof per)
			at += (size_t)snprintf(per + at, sizeof per - at, "%s%" PRIu64, j ? ", " : "",
					       s->schedules - s->first);
	}
	double secs = (double)(now_ms() - cp->start_ms) / 1000.0;
	if (cp->stop_signal)
		fprintf(stderr, "schedfuzz: stopped by %s\n", strsignal(cp->stop_signal));
	fprintf(stderr, "schedfuzz: %u jobs ran %" PRIu64 " schedules (%s) in %.1f s: %.0f/s\n",
		cp->njobs, ran, per, secs, secs > 0 ? (double)ran / secs : 0.0);
	if (cp->resumed)
		fprintf(stderr, "schedfuzz: %" PRIu64 " schedules in the campaign so far\n",
			cp->before + ran);
	if (keep_going) {
		fprintf(stderr, "failures: %" PRIu64 "/%" PRIu64 "\n", failures, ran);
		fprintf(stderr, "threads: %" PRIu32 "\n", threads);
		fprintf(stderr, "events: %" PRIu64 "\n", est.events);
		fprintf(stderr, "lock_events: %" PRIu64 "\n", est.locks);
		if (independent)
			fprintf(stderr, "independent_failures: %" PRIu64 "/%" PRIu64 "\n", independent,
				ran);
	}
	guide_summary(cp);
	uint32_t n = findings(cp);
	if (n)
		fprintf(stderr, "findings by kind and site: %" PRIu32 "\n", n);
	for (int i = 0; i < RT_MAX_FINDINGS; i++) {
		const struct rt_finding *f = &cp->findings[i];
		if (!f->key)
			continue;
		fprintf(stderr, "  %" PRIu64 " x %s%s%s\n", f->count, f->what,
			f->path[0] ? ": " : "", f->path[0] ? f->path : " (not saved)");
	}
	if (!n)
		fprintf(stderr, "schedfuzz: no failure in %" PRIu64 " schedules (seed %" PRIu64
				", %u jobs)\n", ran, cp->seed, cp->njobs);
	fflush(stderr);
	const char *state = rt_env_str("SCHEDFUZZ_STATE");
	if (state && !rt_campaign_save(cp, state))
		return RT_EXIT_SETUP;
	if (setup_status)
		return setup_status;
	return n ? 1 : 0;
}
