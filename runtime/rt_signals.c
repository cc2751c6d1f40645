/* rt_signals.c - fatal signals: a crash in a controlled thread becomes the
 * execution's failure, then the fuzzer's handler (or the default action)
 * ends the process.
 *
 * The handlers run on the thread's alternate stack (rt_altstack.c), so
 * that a thread whose own stack is exhausted is reported too: a SIGSEGV in
 * or just below the faulting thread's stack is a stack overflow, a failure
 * of its own kind. In the ASan mode ASan's handler is the one chained to,
 * and its "stack-overflow" report follows ours on the same stack. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>

#include "rt_internal.h"

static const int fatal_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP };
static struct sigaction previous[NSIG];

/* How far below its stack a fault still means the thread ran past the
 * end: the guard is a page or more, and a big frame skips further. */
#define OVERFLOW_SLACK ((uintptr_t)1 << 20)

static bool is_stack_overflow(const struct rt_thread *self, int sig, const siginfo_t *info)
{
	uintptr_t a = (uintptr_t)info->si_addr;
	if (sig != SIGSEGV || info->si_code <= 0 || !self->stack_size)
		return false;
	return a < self->stack_lo + self->stack_size && a + OVERFLOW_SLACK >= self->stack_lo;
}

/* Where the thread stood: its innermost call, the same in every replay
 * (where in that call's frame the fault came depends on where the stack
 * started, which differs between processes for the main thread). */
static const void *overflow_site(const struct rt_thread *self, const void *pc)
{
	return rt_ctx_count(self, 0, 1) ? rt_ctx_site(self, 0) : pc;
}

const void *rt_signal_pc(void *uctx)
{
#ifdef REG_RIP
	if (uctx) /* as a return address: the symbolizer looks a byte before */
		return (const void *)(((ucontext_t *)uctx)->uc_mcontext.gregs[REG_RIP] + 1);
#endif
	return NULL;
}

/* A signal raised inside a library (abort() and raise() end in glibc's
 * pthread_kill, a bad pointer may fault in its memcpy) is the program's
 * doing at its call: the site is the innermost frame in the executable.
 * Unwinding by DWARF tables, since glibc keeps no frame pointers. */
static const void *program_site(const void *pc)
{
	if (rt_in_executable(pc))
		return pc;
	void *frames[32];
	int n = rt_interrupted_stack(pc, frames, 32);
	for (int i = 1; i < n; i++)
		if (rt_in_executable(frames[i]))
			return frames[i];
	return pc;
}

static void report_signal(int sig, siginfo_t *info, void *uctx)
{
	struct rt_thread *self = rt_self;
	const void *pc = rt_signal_pc(uctx);
	char msg[160];
	if (is_stack_overflow(self, sig, info)) {
		snprintf(msg, sizeof msg, "T%d ran past the end of its %lu KiB stack on address %p",
			 self->tid, (unsigned long)(self->stack_size >> 10), info->si_addr);
		rt_report_foreign_at(F_STACK_OVERFLOW, overflow_site(self, pc), msg);
		return;
	}
	struct rt_freed f;
	if (sig == SIGABRT)
		snprintf(msg, sizeof msg, "abort()");
	else if (rt_heap_log_freed((uintptr_t)info->si_addr, rt.step + 1, &f))
		snprintf(msg, sizeof msg, "%s on address %p, in a %lu-byte block T%d freed after step %llu",
			 strsignal(sig), info->si_addr, (unsigned long)f.size, f.tid,
			 (unsigned long long)f.step);
	else
		snprintf(msg, sizeof msg, "%s on address %p", strsignal(sig), info->si_addr);
	rt_report_foreign_at(F_SIGNAL, program_site(pc), msg);
}

static void on_fatal_signal(int sig, siginfo_t *info, void *uctx)
{
	if (!rt_self && rt_self_hidden) /* in our own work on the program's thread */
		rt_set_self(rt_self_hidden);
	if (rt_self && rt.active && !rt.reported)
		report_signal(sig, info, uctx);
	/* Chain: the fuzzer's handler records the crash; without one, the
	 * default action ends the process with this signal. */
	struct sigaction *old = &previous[sig];
	sigaction(sig, old, NULL);
	if ((old->sa_flags & SA_SIGINFO) && old->sa_sigaction) {
		old->sa_sigaction(sig, info, uctx);
	} else if (old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN) {
		old->sa_handler(sig);
	}
	if (info->si_code <= 0 || sig == SIGABRT)
		raise(sig); /* sent, not faulting: returning would not repeat it */
}

void rt_signals_install(void)
{
	static bool installed;
	rt_altstack_setup(); /* per thread: every thread that starts an execution */
	if (installed)
		return;
	installed = true;
	struct sigaction sa;
	rt_memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_fatal_signal;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++)
		sigaction(fatal_signals[i], &sa, &previous[fatal_signals[i]]);
}
