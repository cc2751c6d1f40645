/* rt_kill.c - signals between controlled threads, modelled.
 *
 * pthread_kill to another controlled thread (and kill(getpid(), sig) or a
 * timer, which target the process) is a scheduling point of the sender
 * that leaves the signal pending on the target, in the model only. The
 * target runs its handler at its next scheduling point at which it is not
 * blocked (rt_point calls rt_signal_deliver first): when that is, the
 * schedule decides, as it decides when the target runs at all. Delivery
 * is the real one, to itself (tgkill on the running thread is delivered
 * before the call returns), so the program's sigaction, its mask, sa_mask,
 * SA_RESETHAND and SA_SIGINFO all behave as without us; a signal the
 * target blocks stays pending until it unblocks it or takes it with
 * sigwait. sigwait, sigwaitinfo, sigtimedwait, pause and sigsuspend are
 * modelled waits on a pending signal (W_SIGNAL).
 *
 * What keeps its real effect at once: a signal sent to the sender itself
 * (raise, pthread_kill(pthread_self())), signal 0, a target the runtime
 * did not create, and a signal whose action is the default one that ends
 * the process (abort, SIGTERM...), so that such deaths are reported as
 * before. The runtime's own SIGURG (rt_watchdog.c) is sent with
 * sigqueue's code, so a program's SIGURG delivered here still reaches the
 * program's handler. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <unistd.h>

#include "rt_internal.h"
#include "rt_lifecycle.h"

#define NEXT(type, name) ((type)dlsym(RTLD_NEXT, name))
#define SIG_MAX 64

/* The real pthread_sigmask: the one the runtime itself uses too. */
static int real_mask(int how, const sigset_t *set, sigset_t *old)
{
	static int (*real)(int, const sigset_t *, sigset_t *);
	if (!real)
		real = NEXT(int (*)(int, const sigset_t *, sigset_t *), "pthread_sigmask");
	return real(how, set, old);
}
#define REAL_MASK real_mask

uint64_t rt_proc_sig_pending;

static uint64_t bit(int sig)
{
	return 1ull << (sig - 1);
}

static uint64_t bits_of(const sigset_t *set)
{
	uint64_t b = 0;
	for (int s = 1; s <= SIG_MAX; s++)
		if (sigismember(set, s) == 1)
			b |= bit(s);
	return b;
}

static int real_pthread_kill(pthread_t th, int sig)
{
	static int (*real)(pthread_t, int);
	if (!real)
		real = NEXT(int (*)(pthread_t, int), "pthread_kill");
	return real(th, sig);
}

/* Default actions that end the process (signal(7)): Term, Core. */
static bool default_is_fatal(int sig)
{
	switch (sig) {
	case SIGCHLD:
	case SIGCONT:
	case SIGURG:
	case SIGWINCH:
	case SIGSTOP:
	case SIGTSTP:
	case SIGTTIN:
	case SIGTTOU:
		return false;
	default:
		return true;
	}
}

enum disposition { D_HANDLER, D_IGNORE, D_FATAL };

static enum disposition disposition_of(int sig)
{
	struct sigaction sa;
	if (sig == SIGKILL || sig == SIGSTOP || sigaction(sig, NULL, &sa) != 0)
		return D_FATAL;
	if (sa.sa_flags & SA_SIGINFO)
		return sa.sa_sigaction ? D_HANDLER : D_FATAL;
	if (sa.sa_handler == SIG_IGN)
		return D_IGNORE;
	if (sa.sa_handler == SIG_DFL)
		return default_is_fatal(sig) ? D_FATAL : D_IGNORE;
	return D_HANDLER;
}

/* The signals thread t blocks: its calls of pthread_sigmask and
 * sigprocmask keep the copy (reading the kernel's, in /proc, costs the
 * kernel much more when the thread ends). A handler's sa_mask, in force
 * while it runs, is not in it. */
static uint64_t blocked_of(const struct rt_thread *t)
{
	return bits_of(&t->sig_mask);
}

static int keep_mask(int r)
{
	struct rt_thread *self = rt_modelled_self();
	if (self && r == 0)
		REAL_MASK(SIG_BLOCK, NULL, &self->sig_mask);
	return r;
}

RT_INTERPOSE int pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
	return keep_mask(REAL_MASK(how, set, old));
}

RT_INTERPOSE int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
	int r = REAL_MASK(how, set, old);
	if (r != 0) {
		errno = r;
		return -1;
	}
	return keep_mask(0);
}

/* The calling kernel thread's mask, set as the runtime's own business. */
void rt_signal_mask_set(const sigset_t *mask)
{
	REAL_MASK(SIG_SETMASK, mask, NULL);
}

void rt_signal_reset(void)
{
	rt_proc_sig_pending = 0;
	REAL_MASK(SIG_BLOCK, NULL, &rt.threads[0].sig_mask);
}

static bool waits_for(const struct rt_thread *t, int sig)
{
	return t->state == T_LIVE && t->wait == W_SIGNAL && (t->sig_waitset & bit(sig));
}

static void pend(struct rt_thread *t, int sig)
{
	t->sig_pending |= bit(sig);
	rt_changed();
}

/* The kernel gives a process-directed signal to any thread that does not
 * block it; the model takes the first one in sigwait for it, else the
 * first that lets it through and is not blocked in a wait (a handler
 * runs only between waits here), else the first that lets it through;
 * if all block it, it stays pending on the process (rt_proc_sig_pending)
 * for a sigwait or an unblock to take. */
void rt_signal_to_process(int sig)
{
	struct rt_thread *open = NULL, *running = NULL;
	for (int i = 0; i < rt.nthreads; i++) {
		struct rt_thread *t = &rt.threads[i];
		if (t->state != T_LIVE)
			continue;
		if (waits_for(t, sig)) {
			pend(t, sig);
			return;
		}
		if ((!running || !open) && !(blocked_of(t) & bit(sig))) {
			if (!open)
				open = t;
			if (!running && t->wait == W_NONE)
				running = t;
		}
	}
	struct rt_thread *to = running ? running : open;
	if (to) {
		pend(to, sig);
	} else {
		rt_proc_sig_pending |= bit(sig);
		rt_changed();
	}
}

/* Does some live controlled thread let sig through? */
static bool anyone_open(int sig)
{
	for (int i = 0; i < rt.nthreads; i++)
		if (rt.threads[i].state == T_LIVE && !(blocked_of(&rt.threads[i]) & bit(sig)))
			return true;
	return false;
}

bool rt_signal_interrupts(const struct rt_thread *t)
{
	return t->wait != W_NONE && t->wait != W_SIGNAL && (t->sig_pending & ~blocked_of(t)) != 0;
}

void rt_signal_deliver(struct rt_thread *self)
{
	sigset_t cur;
	real_mask(SIG_BLOCK, NULL, &cur);
	uint64_t ready = (self->sig_pending | rt_proc_sig_pending) & ~bits_of(&cur);
	for (int sig = 1; ready && sig <= SIG_MAX; sig++) {
		if (!(ready & bit(sig)) || !((self->sig_pending | rt_proc_sig_pending) & bit(sig)))
			continue; /* or a nested delivery took it */
		ready &= ~bit(sig);
		if (self->sig_pending & bit(sig))
			self->sig_pending &= ~bit(sig);
		else
			rt_proc_sig_pending &= ~bit(sig);
		rt_point(self, EV_SIGNAL, 0, NULL, 0, self->site);
		real_pthread_kill(pthread_self(), sig); /* the handler runs before this returns */
	}
}

RT_INTERPOSE int pthread_kill(pthread_t th, int sig)
{
	struct rt_thread *self = rt_modelled_self();
	if (!self || sig == 0)
		return real_pthread_kill(th, sig);
	struct rt_thread *t = rt_thread_by_real(th);
	if (!t || t == self)
		return real_pthread_kill(th, sig); /* raise: at once, as POSIX says */
	if (sig < 1 || sig > SIG_MAX)
		return EINVAL;
	rt_point(self, EV_KILL, 0, NULL, 0, RT_CALLER());
	if (t->state != T_LIVE)
		return 0; /* glibc: a thread that has ended is no error */
	enum disposition d = disposition_of(sig);
	if (d == D_FATAL && !waits_for(t, sig) && !(blocked_of(t) & bit(sig)))
		return real_pthread_kill(th, sig); /* the process ends, reported as before */
	if (d != D_IGNORE || waits_for(t, sig) || (blocked_of(t) & bit(sig)))
		pend(t, sig);
	return 0;
}

RT_INTERPOSE int kill(pid_t pid, int sig)
{
	static int (*real)(pid_t, int);
	if (!real)
		real = NEXT(int (*)(pid_t, int), "kill");
	struct rt_thread *self = rt_modelled_self();
	if (!self || pid != getpid() || sig < 1 || sig > SIG_MAX)
		return real(pid, sig);
	bool waited = false;
	for (int i = 0; i < rt.nthreads; i++)
		waited |= waits_for(&rt.threads[i], sig);
	enum disposition d = disposition_of(sig);
	bool open = anyone_open(sig);
	if (d == D_FATAL && !waited && open)
		return real(pid, sig); /* the process ends, reported as before */
	rt_point(self, EV_KILL, 0, NULL, 0, RT_CALLER());
	if (d != D_IGNORE || waited || !open)
		rt_signal_to_process(sig);
	return 0;
}

/* ---- waiting for a signal -------------------------------------------------- */

/* Block self until one of want is pending (or, timed, until the
 * schedule times it out): the signal taken, 0 on a timeout. */
static int wait_signal(struct rt_thread *self, uint64_t want, bool timed, const void *site)
{
	rt_cancel_point(self);
	self->wait = W_SIGNAL;
	self->wobj = NULL;
	self->sig_waitset = want;
	self->timed = timed;
	int r = rt_block(self, EV_SIGWAIT, site);
	self->sig_waitset = 0;
	rt_cancel_point(self);
	if (r == ETIMEDOUT)
		return 0;
	rt_progress(self);
	for (int sig = 1; sig <= SIG_MAX; sig++)
		if ((self->sig_pending | rt_proc_sig_pending) & want & bit(sig))
			return sig;
	return 0;
}

/* A signal the kernel holds already (sent from outside the model). */
static int real_pending(const sigset_t *set, siginfo_t *info)
{
	static int (*real)(const sigset_t *, siginfo_t *, const struct timespec *);
	if (!real)
		real = NEXT(int (*)(const sigset_t *, siginfo_t *, const struct timespec *),
			    "sigtimedwait");
	struct timespec zero = { 0, 0 };
	int saved_errno = errno; /* EAGAIN when none: the probe's, not the call's */
	int r = real(set, info, &zero);
	errno = saved_errno;
	return r > 0 ? r : 0;
}

static int take(struct rt_thread *self, const sigset_t *set, siginfo_t *info, bool timed,
		const void *site)
{
	siginfo_t local;
	if (!info)
		info = &local;
	int sig = real_pending(set, info);
	if (sig)
		return sig;
	sig = wait_signal(self, bits_of(set), timed, site);
	if (!sig)
		return 0;
	if (self->sig_pending & bit(sig))
		self->sig_pending &= ~bit(sig);
	else
		rt_proc_sig_pending &= ~bit(sig);
	rt_memset(info, 0, sizeof *info);
	info->si_signo = sig;
	info->si_code = SI_TKILL;
	info->si_pid = getpid();
	info->si_uid = getuid();
	return sig;
}

RT_INTERPOSE int sigwait(const sigset_t *set, int *sig)
{
	struct rt_thread *self = rt_modelled_self();
	if (!self)
		return NEXT(int (*)(const sigset_t *, int *), "sigwait")(set, sig);
	*sig = take(self, set, NULL, false, RT_CALLER());
	return 0;
}

RT_INTERPOSE int sigwaitinfo(const sigset_t *set, siginfo_t *info)
{
	struct rt_thread *self = rt_modelled_self();
	if (!self)
		return NEXT(int (*)(const sigset_t *, siginfo_t *), "sigwaitinfo")(set, info);
	return take(self, set, info, false, RT_CALLER());
}

RT_INTERPOSE int sigtimedwait(const sigset_t *set, siginfo_t *info, const struct timespec *timeout)
{
	struct rt_thread *self = rt_modelled_self();
	if (!self)
		return NEXT(int (*)(const sigset_t *, siginfo_t *, const struct timespec *),
			    "sigtimedwait")(set, info, timeout);
	if (timeout && !rt_timespec_valid(timeout)) {
		errno = EINVAL;
		return -1;
	}
	int sig = take(self, set, info, timeout != NULL, RT_CALLER());
	if (!sig) {
		errno = EAGAIN;
		return -1;
	}
	return sig;
}

/* pause and sigsuspend: wait for a signal the mask lets through, run its
 * handler, return -1 with EINTR. */
static int suspend(struct rt_thread *self, const void *site)
{
	sigset_t cur;
	real_mask(SIG_BLOCK, NULL, &cur);
	wait_signal(self, ~bits_of(&cur), false, site);
	rt_signal_deliver(self);
	errno = EINTR;
	return -1;
}

RT_INTERPOSE int pause(void)
{
	struct rt_thread *self = rt_modelled_self();
	if (!self)
		return NEXT(int (*)(void), "pause")();
	return suspend(self, RT_CALLER());
}

RT_INTERPOSE int sigsuspend(const sigset_t *mask)
{
	struct rt_thread *self = rt_modelled_self();
	if (!self)
		return NEXT(int (*)(const sigset_t *), "sigsuspend")(mask);
	sigset_t old;
	keep_mask(REAL_MASK(SIG_SETMASK, mask, &old));
	int r = suspend(self, RT_CALLER());
	keep_mask(REAL_MASK(SIG_SETMASK, &old, NULL));
	errno = EINTR;
	return r;
}
