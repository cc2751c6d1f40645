/* rt_kill.c - signals between controlled threads, modelled.
 *
 * pthread_kill to another controlled thread (and kill(getpid(), sig),
 * sigqueue or a timer, which target the process: the schedule picks the
 * thread that takes it) is a scheduling point of the sender that leaves
 * the signal pending on the target, in the model only. The target runs
 * its handler at its next scheduling point at which it is not blocked
 * (rt_point calls rt_signal_deliver first), or on entry to a call that
 * changes its mask or waits for a signal, whichever comes first: when
 * that is, the schedule decides, as it decides when the target runs at
 * all, and a handler can run between a check of its flag and the wait
 * (the lost signal of `while (!got) pause();`). Delivery
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
#include "rt_race.h"

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
/* Pending signals that sigqueue sent (bit sig - 1), with their values: the
 * model keeps one instance of each pending signal, as the kernel does for
 * the standard ones. */
static uint64_t queued;
static union sigval queued_value[SIG_MAX + 1];

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

/* Signals pending for self that its mask lets through are delivered
 * now: a call that changes the mask or waits for a signal is a moment at
 * which the kernel would have delivered them already (they were sent
 * while self stood at its last point), so a handler can run between a
 * check of its flag and such a call, as it can natively. */
static void deliver_now(struct rt_thread *self)
{
	if ((self->sig_pending | rt_proc_sig_pending) && self->wait == W_NONE)
		rt_signal_deliver(self);
}

/* On entry to a wait for signals: the timer may be past due, and what is
 * pending and let through runs its handler before the wait. */
static void before_wait(struct rt_thread *self)
{
	rt_vtime_before_signal_wait();
	deliver_now(self);
}

/* The real mask changed and self's copy with it, nothing delivered. */
static int set_mask(struct rt_thread *self, int how, const sigset_t *set, sigset_t *old)
{
	int r = REAL_MASK(how, set, old);
	if (self && r == 0)
		REAL_MASK(SIG_BLOCK, NULL, &self->sig_mask);
	return r;
}

/* As POSIX says of pthread_sigmask: a pending signal it unblocks is
 * delivered before it returns. */
static int change_mask(int how, const sigset_t *set, sigset_t *old)
{
	struct rt_thread *self = rt_modelled_self();
	if (self && set)
		deliver_now(self);
	int r = set_mask(self, how, set, old);
	if (self && set && r == 0)
		deliver_now(self);
	return r;
}

RT_INTERPOSE int pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
	return change_mask(how, set, old);
}

RT_INTERPOSE int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
	int r = change_mask(how, set, old);
	if (r != 0) {
		errno = r;
		return -1;
	}
	return 0;
}

int rt_create_unsignalled(pthread_t *th, void *(*fn)(void *), void *arg)
{
	sigset_t all, old;
	sigfillset(&all);
	REAL_MASK(SIG_SETMASK, &all, &old);
	int r = REAL(pthread_create)(th, NULL, fn, arg);
	REAL_MASK(SIG_SETMASK, &old, NULL);
	return r;
}

/* The calling kernel thread's mask, set as the runtime's own business. */
void rt_signal_mask_set(const sigset_t *mask)
{
	REAL_MASK(SIG_SETMASK, mask, NULL);
}

void rt_signal_reset(void)
{
	rt_proc_sig_pending = 0;
	queued = 0;
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

/* How t would take a process-directed sig: 1 in sigwait for it, 2 not
 * blocking it and not waiting, 3 not blocking it and in a wait the
 * handler interrupts, 4 in sigwait for other signals (a handler does
 * not interrupt it here), 0 not at all. */
static int taker_rank(const struct rt_thread *t, int sig)
{
	if (t->state != T_LIVE)
		return 0;
	if (waits_for(t, sig))
		return 1;
	if (blocked_of(t) & bit(sig))
		return 0;
	return t->wait == W_NONE ? 2 : t->wait != W_SIGNAL ? 3 : 4;
}

/* The kernel gives a process-directed signal to any thread that does not
 * block it (a thread in sigwait for it counts as one: the wait unblocks
 * it). Which one, where several could, is a schedule decision; the first
 * candidate, the default, is the model's earlier pick: one in sigwait for
 * it, else one that is not blocked in a wait, else any. If all block it,
 * it stays pending on the process (rt_proc_sig_pending) for a sigwait or
 * an unblock to take. */
void rt_signal_to_process(int sig)
{
	struct rt_thread *cand[RT_MAX_THREADS];
	int n = 0;
	for (int rank = 1; rank <= 3; rank++)
		for (int i = 0; i < rt.nthreads; i++)
			if (taker_rank(&rt.threads[i], sig) == rank)
				cand[n++] = &rt.threads[i];
	if (n == 0) /* one in a wait for other signals only: it runs the handler after */
		for (int i = 0; i < rt.nthreads; i++)
			if (taker_rank(&rt.threads[i], sig) == 4)
				cand[n++] = &rt.threads[i];
	if (n == 0) {
		rt_proc_sig_pending |= bit(sig);
		rt_changed();
		return;
	}
	pend(cand[n == 1 ? 0 : rt_choose(STRAT_CHOOSE_WAKER, (uint32_t)n)], sig);
}

/* Does some live controlled thread let sig through? */
static bool anyone_open(int sig)
{
	for (int i = 0; i < rt.nthreads; i++)
		if (rt.threads[i].state == T_LIVE && !(blocked_of(&rt.threads[i]) & bit(sig)))
			return true;
	return false;
}

bool rt_signal_ready(const struct rt_thread *t)
{
	return (t->sig_pending & ~blocked_of(t)) != 0;
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
		rt_race_acquire(self, RT_RACE_KEY_SIGNAL); /* what the sender did before */
		/* The handler runs before this returns, with sigqueue's value
		 * if it came from there. */
		if (queued & bit(sig)) {
			queued &= ~bit(sig);
			pthread_sigqueue(pthread_self(), sig, queued_value[sig]);
		} else {
			real_pthread_kill(pthread_self(), sig);
		}
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
	rt_race_release(self, RT_RACE_KEY_SIGNAL);
	if (t->state != T_LIVE)
		return 0; /* glibc: a thread that has ended is no error */
	enum disposition d = disposition_of(sig);
	if (d == D_FATAL && !waits_for(t, sig) && !(blocked_of(t) & bit(sig)))
		return real_pthread_kill(th, sig); /* the process ends, reported as before */
	if (d != D_IGNORE || waits_for(t, sig) || (blocked_of(t) & bit(sig)))
		pend(t, sig);
	return 0;
}

void rt_signal_queue_to_process(int sig, const union sigval *value)
{
	queued &= ~bit(sig);
	if (value) {
		queued |= bit(sig);
		queued_value[sig] = *value;
	}
	rt_signal_to_process(sig);
}

bool rt_signal_would_end(int sig)
{
	for (int i = 0; i < rt.nthreads; i++)
		if (waits_for(&rt.threads[i], sig))
			return false;
	return disposition_of(sig) == D_FATAL && anyone_open(sig);
}

/* kill(getpid()) and sigqueue(getpid()) from a controlled thread: a
 * scheduling point of the sender, then the signal is the process's (value:
 * sigqueue's, NULL for kill). False if it must be sent for real: the
 * process ends by it, reported as before. */
static bool send_to_process(struct rt_thread *self, int sig, const union sigval *value,
			    const void *site)
{
	if (rt_signal_would_end(sig))
		return false;
	rt_point(self, EV_KILL, 0, NULL, 0, site);
	rt_race_release(self, RT_RACE_KEY_SIGNAL);
	bool waited = false; /* as things stand after the point */
	for (int i = 0; i < rt.nthreads; i++)
		waited |= waits_for(&rt.threads[i], sig);
	if (disposition_of(sig) == D_IGNORE && !waited && anyone_open(sig))
		return true; /* discarded, as the kernel discards it */
	rt_signal_queue_to_process(sig, value);
	return true;
}

RT_INTERPOSE int kill(pid_t pid, int sig)
{
	static int (*real)(pid_t, int);
	if (!real)
		real = NEXT(int (*)(pid_t, int), "kill");
	struct rt_thread *self = rt_modelled_self();
	if (!self || pid != getpid() || sig < 1 || sig > SIG_MAX ||
	    !send_to_process(self, sig, NULL, RT_CALLER()))
		return real(pid, sig);
	return 0;
}

RT_INTERPOSE int sigqueue(pid_t pid, int sig, const union sigval value)
{
	static int (*real)(pid_t, int, const union sigval);
	if (!real)
		real = NEXT(int (*)(pid_t, int, const union sigval), "sigqueue");
	struct rt_thread *self = rt_modelled_self();
	if (!self || pid != getpid() || sig < 1 || sig > SIG_MAX ||
	    !send_to_process(self, sig, &value, RT_CALLER()))
		return real(pid, sig, value);
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
	rt_race_acquire(self, RT_RACE_KEY_SIGNAL);
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
	before_wait(self); /* a signal it lets through ran its handler first */
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
	if (queued & bit(sig)) {
		queued &= ~bit(sig);
		info->si_code = SI_QUEUE;
		info->si_value = queued_value[sig];
	}
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
 * handler, return -1 with EINTR. One that the mask let through before the
 * call ran its handler before it (deliver_now), and is no reason to
 * return: the lost signal of a check-then-pause. */
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
	before_wait(self);
	return suspend(self, RT_CALLER());
}

RT_INTERPOSE int sigsuspend(const sigset_t *mask)
{
	struct rt_thread *self = rt_modelled_self();
	if (!self)
		return NEXT(int (*)(const sigset_t *), "sigsuspend")(mask);
	before_wait(self);
	sigset_t old;
	set_mask(self, SIG_SETMASK, mask, &old); /* and wait, in one step */
	int r = suspend(self, RT_CALLER());
	set_mask(self, SIG_SETMASK, &old, NULL);
	errno = EINTR;
	return r;
}
