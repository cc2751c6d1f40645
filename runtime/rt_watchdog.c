/* rt_watchdog.c - a thread outside the schedule that keeps every execution
 * alive and bounded in time.
 *
 * The runtime only regains control at scheduling points. Code it cannot
 * see has none: inline-assembly atomics and pause loops, uninstrumented
 * libraries, raw futex waits, a read() on a pipe. If the running thread
 * spins there for a thread the schedule has parked, nothing would ever run
 * again. So the watchdog, one real thread per process, samples the
 * execution's step count; when the running thread has reached no
 * scheduling point while it spent SCHEDFUZZ_STALL_MS (default 10) of CPU
 * time, or while it slept that long in the kernel, it sends that
 * thread a signal whose handler is a scheduling point (rt_preempt_async):
 * the others run, and the thread goes on when it is picked again, as after
 * an OS preemption. Such a preemption comes from the clock, not from the
 * schedule, so the execution is marked as one that may not replay exactly.
 * If nobody else can run, the thread goes on and the watchdog asks again
 * less and less often (a long computation). A thread that only waits for
 * a CPU (the machine is busy) is left alone: wall time alone never
 * preempts, so a loaded machine does not change schedules.
 *
 * The watchdog also ends executions that run out of time: past the
 * deadline (SCHEDFUZZ_TIMEOUT seconds, default 30; under libFuzzer 3/4 of
 * its -timeout, so that ours comes first) it lowers the livelock limit to
 * zero, so that a thread passing scheduling points reports the hang at
 * its next one with every other thread parked, and signals the running
 * thread, so that one stuck outside the runtime reports where it is. If
 * neither happens within a grace period (the thread has the signal
 * blocked), the watchdog reports from its own thread. Every report goes
 * through the usual path, and the fuzzer's crash handler saves the input.
 *
 * The signal is SIGURG, as Go's runtime uses for its asynchronous
 * preemption: ignored by default and rarely used. A SIGURG that is not
 * ours goes to the handler the program had. */
#define _GNU_SOURCE
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "rt_internal.h"
#include "rt_libc.h"

#define WD_SIGNAL SIGURG
#define LIBFUZZER_DEFAULT_TIMEOUT 1200 /* seconds */
#define MAX_BACKOFF_NS 1000000000ull   /* asking a lone thread at most once a second */
/* How long a thread may go without a scheduling point once one was found
 * spinning on a pause instruction (below). */
#define SPIN_STALL_NS 1000000ull

enum wd_request { WD_PREEMPT, WD_REPORT };

static struct {
	pid_t pid; /* the process the watchdog's thread runs in */
	uint64_t deadline_ns, grace_ns, stall_ns;
	char source[64]; /* where the deadline came from, for reports */
	struct sigaction previous;
	/* Written by the controlled thread that begins and ends executions. */
	_Atomic uint64_t serial; /* odd while an execution runs */
	_Atomic uint64_t start_ns;
	_Atomic uint64_t expired; /* the serial the watchdog found out of time */
	_Atomic bool declined; /* the signal landed in the runtime: ask again soon */
	_Atomic bool spinning; /* a thread was preempted in a pause loop */
} wd;

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* CPU time thread tid has used (Linux's per-thread CPU clock, as glibc's
 * pthread_getcpuclockid builds it). */
static uint64_t cpu_ns(pid_t tid)
{
	struct timespec ts;
	clockid_t clk = (clockid_t)((~(unsigned)tid << 3) | 6);
	if (clock_gettime(clk, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* System calls that a signal ends with EINTR even under SA_RESTART
 * (signal(7), x86-64 numbers): a program need not expect that, so the
 * watchdog leaves a thread blocked in one alone. */
static const long never_restarted[] = {
	7 /* poll */,	     23 /* select */,	       34 /* pause */,	     35 /* nanosleep */,
	65 /* semop */,	     69 /* msgsnd */,	       70 /* msgrcv */,	     128 /* rt_sigtimedwait */,
	130 /* rt_sigsuspend */, 208 /* io_getevents */, 220 /* semtimedop */,
	230 /* clock_nanosleep */, 232 /* epoll_wait */, 270 /* pselect6 */, 271 /* ppoll */,
	281 /* epoll_pwait */, 333 /* io_pgetevents */, 441 /* epoll_pwait2 */,
};

/* The system call thread tid is blocked in, or -1 when it is in none
 * (running, or waiting for a CPU). */
static long syscall_of(pid_t tid)
{
	char path[64], buf[128];
	snprintf(path, sizeof path, "/proc/self/task/%d/syscall", (int)tid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0 || buf[0] < '0' || buf[0] > '9')
		return -1; /* "running", or -1: not in a system call */
	buf[n] = 0;
	return strtol(buf, NULL, 10);
}

/* Is thread tid blocked in a system call that goes on after our signal
 * (a read, a futex wait), not running or waiting for a CPU? */
static bool blocked_restartable(pid_t tid)
{
	long nr = syscall_of(tid);
	if (nr < 0)
		return false;
	for (size_t i = 0; i < sizeof never_restarted / sizeof never_restarted[0]; i++)
		if (nr == never_restarted[i])
			return false;
	return true;
}

static void nap(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };
	REAL(nanosleep)(&ts, NULL);
}

/* What a signal says it was sent for: this execution, at this step (an
 * old signal, or one the thread outran, is then told apart). */
static uint64_t stamp(uint64_t serial, uint64_t step)
{
	return (serial & 0xffffff) << 39 | (step & ((1ull << 39) - 1));
}

/* Ask thread t to act if it is still at step of execution serial. */
static void ask(const struct rt_thread *t, enum wd_request what, uint64_t serial, uint64_t step)
{
	siginfo_t si;
	rt_memset(&si, 0, sizeof si);
	si.si_signo = WD_SIGNAL;
	si.si_code = SI_QUEUE;
	si.si_pid = wd.pid;
	si.si_uid = getuid();
	si.si_value.sival_ptr = (void *)(uintptr_t)(stamp(serial, step) << 1 | what);
	syscall(SYS_rt_tgsigqueueinfo, wd.pid, t->ktid, WD_SIGNAL, &si);
}

/* The bounds of the runtime's code (rt_section.h). */
extern const char __start_schedfuzz_text[] __attribute__((weak));
extern const char __stop_schedfuzz_text[] __attribute__((weak));

bool rt_in_runtime_code(const void *pc)
{
	const char *p = (const char *)pc - 1;
	return !pc || (p >= __start_schedfuzz_text && p < __stop_schedfuzz_text);
}

/* The ABI hooks' bounds (rt_abi.c). */
extern const char __start_schedfuzz_hooks[] __attribute__((weak));
extern const char __stop_schedfuzz_hooks[] __attribute__((weak));

static bool in_hooks(const void *pc)
{
	const char *p = (const char *)pc - 1;
	return p >= __start_schedfuzz_hooks && p < __stop_schedfuzz_hooks;
}

int rt_interrupted_stack(const void *pc, void **frames, int max)
{
	void *all[48];
	int n = rt_backtrace(all, 48);
	int i = 0;
	while (i < n && (uintptr_t)all[i] + 1 != (uintptr_t)pc)
		i++; /* the handler's own frames, up to the interrupted one */
	if (i == n || max < 1)
		return 0;
	int m = 0;
	frames[m++] = (void *)pc;
	for (int k = i + 1; k < n && m < max; k++)
		frames[m++] = all[k];
	return m;
}

/* Where the thread interrupted at pc is, in the program's terms: *at,
 * the first frame that is neither a hook nor a library; false if that is
 * the runtime (a library call it made, such as a realloc, or no frame at
 * all), where its state may be half-changed. */
static bool program_frame(const void *pc, const void **at)
{
	*at = pc;
	if (rt_in_executable(pc) && !in_hooks(pc))
		return !rt_in_runtime_code(pc);
	void *frames[32];
	int n = rt_interrupted_stack(pc, frames, 32);
	for (int k = 1; k < n; k++) {
		if (!rt_in_executable(frames[k]) || in_hooks(frames[k]))
			continue;
		if (rt_in_runtime_code(frames[k]))
			return false;
		if (in_hooks(pc))
			*at = frames[k];
		return true;
	}
	return n > 0; /* a library's own thread, or lost: only if the frame was found */
}

/* Was the thread interrupted in a spin-wait loop: at a pause instruction
 * or just after one (pause takes long, so most samples land after it)?
 * Such a loop waits for another thread, which the schedule has parked:
 * nothing it can compute is worth the default stall (a computation in
 * code the runtime cannot see has no pause). Only the page of pc is
 * read. */
static bool at_pause(const void *pc)
{
#if defined(__x86_64__) || defined(__i386__)
	const uint8_t *p = pc;
	uintptr_t off = (uintptr_t)p & 4095;
	return (off >= 2 && p[-2] == 0xf3 && p[-1] == 0x90) ||
	       (off <= 4094 && p[0] == 0xf3 && p[1] == 0x90);
#else
	(void)pc;
	return false;
#endif
}

static void on_signal(int sig, siginfo_t *si, void *uctx)
{
	int saved_errno = errno;
	struct rt_thread *self = rt_self;
	if (si->si_code != SI_QUEUE || si->si_pid != wd.pid) {
		/* Not ours: the program's own SIGURG. */
		if ((wd.previous.sa_flags & SA_SIGINFO) && wd.previous.sa_sigaction)
			wd.previous.sa_sigaction(sig, si, uctx);
		else if (wd.previous.sa_handler != SIG_DFL && wd.previous.sa_handler != SIG_IGN)
			wd.previous.sa_handler(sig);
		errno = saved_errno;
		return;
	}
	uint64_t v = (uint64_t)(uintptr_t)si->si_value.sival_ptr;
	const void *pc = rt_signal_pc(uctx), *at;
	/* Act only if self still runs in the execution and at the step the
	 * watchdog saw, and the signal did not land in the runtime itself
	 * (its own code, a library call it made, a call that may block): then
	 * the runtime's state is consistent and nobody else runs. Otherwise
	 * the watchdog asks again soon. */
	if (self && rt.active && !rt.reported && rt.running == self &&
	    v >> 1 == stamp(atomic_load(&wd.serial), rt.step)) {
		if (rt.busy || !program_frame(pc, &at)) {
			atomic_store(&wd.declined, true);
		} else {
			if ((v & 1) == WD_REPORT)
				rt_fail_timeout_at(at);
			if (pc && at_pause((const char *)pc - 1)) /* rt_signal_pc's is a byte on */
				atomic_store_explicit(&wd.spinning, true, memory_order_relaxed);
			rt_preempt_async(self, at);
		}
	}
	errno = saved_errno;
}

static void *watch(void *arg)
{
	(void)arg;
	/* Created by a pinned thread: the watchdog may run on any CPU. */
	cpu_set_t all;
	CPU_ZERO(&all);
	for (int i = 0; i < CPU_SETSIZE; i++)
		CPU_SET(i, &all);
	sched_setaffinity(0, sizeof all, &all);
	/* It blocks every signal from its start (rt_create_unsignalled):
	 * signals sent to the process are the program's threads' to take. */

	uint64_t period = 1000000000ull;
	if (wd.stall_ns && wd.stall_ns / 4 < period)
		period = wd.stall_ns / 4;
	if (wd.deadline_ns && wd.deadline_ns / 16 < period)
		period = wd.deadline_ns / 16;
	if (period < 1000000)
		period = 1000000;

	uint64_t serial_seen = 0, step_seen = 0, since = 0, cpu_since = 0, backoff = wd.stall_ns;
	struct rt_thread *running_seen = NULL;
	bool asked = false; /* a preemption was asked for since the last tick */
	uint64_t flagged = 0, flagged_at = 0, reported_at = 0;
	for (;;) {
		/* Once a thread was found spinning on a pause, stalls are
		 * looked for sooner: each may be a hand-off of a lock the
		 * runtime cannot see (an inline-assembly MCS lock costs one
		 * per acquisition). */
		uint64_t stall = wd.stall_ns, tick = period;
		if (atomic_load_explicit(&wd.spinning, memory_order_relaxed) && stall > SPIN_STALL_NS) {
			stall = SPIN_STALL_NS;
			tick = SPIN_STALL_NS / 2;
		}
		nap(tick);
		uint64_t serial = atomic_load(&wd.serial);
		if (!(serial & 1))
			continue;
		uint64_t now = now_ns();
		uint64_t step = __atomic_load_n(&rt.step, __ATOMIC_RELAXED);
		struct rt_thread *running = __atomic_load_n(&rt.running, __ATOMIC_RELAXED);
		bool moved = serial != serial_seen || step != step_seen || running != running_seen;
		bool declined = atomic_exchange(&wd.declined, false);
		if (asked && !moved && !declined) {
			/* It took the signal and still makes no step: nobody
			 * else could run (a long computation). Ask less often.
			 * (Caught inside the runtime, it is asked again.) */
			since = now;
			cpu_since = running ? cpu_ns(running->ktid) : 0;
			backoff = backoff * 2 < MAX_BACKOFF_NS ? backoff * 2 : MAX_BACKOFF_NS;
		}
		asked = false;
		if (moved) {
			serial_seen = serial;
			step_seen = step;
			running_seen = running;
			since = now;
			cpu_since = running ? cpu_ns(running->ktid) : 0;
			backoff = stall;
		}
		/* Since its last scheduling point, the running thread has been
		 * there for ns of wall time, of which it computed for cpu; a
		 * thread that only waits for a CPU (a busy machine) has not
		 * spun at all. */
		uint64_t ns = now - since;
		uint64_t cpu = running && !moved ? cpu_ns(running->ktid) - cpu_since : 0;
		if (wd.deadline_ns && now - atomic_load(&wd.start_ns) >= wd.deadline_ns) {
			if (flagged != serial) {
				flagged = serial;
				flagged_at = now;
				reported_at = 0;
				atomic_store(&wd.expired, serial);
				__atomic_store_n(&rt.livelock_limit, 0, __ATOMIC_RELEASE);
			} else if (running && !moved && now - flagged_at >= period * 2 &&
				   ns >= period * 2 && now - reported_at >= period * 2 &&
				   (cpu >= period || syscall_of(running->ktid) >= 0)) {
				/* Out of time, and no scheduling point since while it
				 * computed or sat in the kernel (one that only waited
				 * for a CPU on a busy machine will reach its next
				 * point and report there): it is stuck outside.
				 * Asked again until it answers (it may have been in
				 * the runtime), and reported from here if it never
				 * does (it has the signal blocked). */
				ask(running, WD_REPORT, serial, step);
				if (!reported_at)
					reported_at = now;
			}
			if (reported_at && now - reported_at >= wd.grace_ns &&
			    atomic_load(&wd.serial) == serial)
				rt_fail_stuck();
			continue;
		}
		if (wd.stall_ns && running && !moved &&
		    (cpu >= backoff || (ns >= backoff && blocked_restartable(running->ktid)))) {
			ask(running, WD_PREEMPT, serial, step);
			asked = true;
		}
	}
	return NULL;
}

static void start(void)
{
	wd.pid = getpid();
	wd.stall_ns = rt.cfg.stall_ms * 1000000;
	if (!wd.source[0]) {
		wd.deadline_ns = rt.cfg.timeout_ms * 1000000;
		wd.grace_ns = wd.deadline_ns / 8 > 1000000000ull ? wd.deadline_ns / 8 : 1000000000ull;
		snprintf(wd.source, sizeof wd.source, "SCHEDFUZZ_TIMEOUT=%llu s",
			 (unsigned long long)(rt.cfg.timeout_ms / 1000));
	}
	struct sigaction sa;
	rt_memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_signal;
	/* A blocking call the program made goes on after the preemption. */
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(WD_SIGNAL, &sa, &wd.previous);
	if (wd.previous.sa_sigaction == on_signal) /* installed before a fork */
		wd.previous.sa_handler = SIG_DFL;
	if (!wd.stall_ns && !wd.deadline_ns)
		return;
	/* glibc's backtrace loads the unwinder on first use: not in the
	 * signal handler, then. */
	void *frame;
	rt_backtrace(&frame, 1);
	pthread_t th;
	if (rt_create_unsignalled(&th, watch, NULL) == 0)
		REAL(pthread_detach)(th);
}

void rt_watchdog_libfuzzer(void)
{
	unsigned t = LIBFUZZER_DEFAULT_TIMEOUT;
	for (int i = 1; i < rt_main_argc; i++) {
		const char *a = rt_main_argv[i];
		if (!strncmp(a, "-timeout=", 9) && atoi(a + 9) > 0)
			t = (unsigned)atoi(a + 9); /* the last one wins, as in libFuzzer */
	}
	uint64_t ms = (uint64_t)t * 1000;
	wd.deadline_ns = ms * 3 / 4 * 1000000;
	wd.grace_ns = ms / 8 * 1000000;
	snprintf(wd.source, sizeof wd.source, "3/4 of libFuzzer's -timeout=%u", t);
}

uint64_t rt_watchdog_deadline_ms(void)
{
	return wd.deadline_ns / 1000000;
}

const char *rt_watchdog_deadline_source(void)
{
	return wd.source;
}

bool rt_watchdog_expired(void)
{
	return atomic_load(&wd.expired) == atomic_load(&wd.serial);
}

void rt_watchdog_begin(void)
{
	if (wd.pid != getpid()) /* the first execution of this process */
		start();
	atomic_store(&wd.start_ns, now_ns());
	atomic_fetch_add(&wd.serial, 1);
}

void rt_watchdog_end(void)
{
	if (atomic_load(&wd.serial) & 1)
		atomic_fetch_add(&wd.serial, 1);
}

void rt_watchdog_note(const struct rt_result *first, uint64_t schedules, uint64_t of)
{
	uintptr_t addr = first->async_site;
	bool is_data = false;
	struct rt_sym sym = { 0 };
	rt_symbolize(&addr, &is_data, &sym, 1);
	const char *where = sym.text[0] ? sym.text : sym.func[0] ? sym.func : "?";
	fprintf(stderr,
		"schedfuzz: note: in %" PRIu64 " of %" PRIu64 " schedules, a thread reached no "
		"scheduling point for %" PRIu64 " ms while others could run (first T%" PRIu32
		" at %s%s%s): code the runtime cannot see spins or blocks there (inline assembly, "
		"an uninstrumented library, a raw futex, a blocking call, or memory on the "
		"thread's own stack that another thread writes). The watchdog preempted it "
		"asynchronously, at a moment the clock chose, so such schedules may not replay "
		"exactly (SCHEDFUZZ_STALL_MS sets the wait)\n",
		schedules, of, rt.cfg.stall_ms, first->async_tid, where,
		sym.func[0] && sym.text[0] ? " in " : "", sym.text[0] ? sym.func : "");
}
