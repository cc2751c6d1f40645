/* rt_process.c - child processes of a controlled thread: fork, vfork,
 * clone without CLONE_THREAD, waiting for children, system, posix_spawn.
 *
 * A fork is a scheduling point of the forking thread. The child has one
 * thread, the forking one, as POSIX says, and runs uncontrolled: the
 * runtime forgets the execution there (no other controlled thread exists
 * to wait for, and nothing of the child's reaches the explorer's result),
 * so it runs to its exit or exec as it would without us. A program it
 * execs that was built with schedfuzz-cc starts afresh. The parent's
 * execution goes on.
 *
 * The child runs outside the schedule, so waiting for it is a wait on
 * something external: a waiting thread (W_CHILD) is always a candidate,
 * as a timed wait is, and when the schedule picks it, it looks at the
 * child with WNOHANG and, if the child is still running, really waits for
 * it a while: WAIT_SLICE_MS if other threads could run (then it gives way,
 * a retry), else until the execution's deadline, when the hang is
 * reported as usual. A child that exits at once is seen at the first pick,
 * so the schedule, not the clock, decides when the wait returns.
 *
 * system(), posix_spawn and pclose run for real with the others parked:
 * the command does not depend on the program's threads (it cannot see
 * them), and the schedule stays the schedule. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

#include "rt_internal.h"
#include "rt_observer.h"
#include "rt_io.h"
#include "rt_lifecycle.h"

#define NEXT(type, name) ((type)dlsym(RTLD_NEXT, name))
#define WAIT_SLICE_MS 50


/* ---- fork ------------------------------------------------------------------- */

/* In a child process: the execution stays with the parent. */
static void forget_execution(void)
{
	rt.active = false;
	rt.result = NULL; /* the explorer's shared page belongs to the parent */
	rt.cfg.record_path = NULL;
	rt.cfg.trace_path = NULL;
	rt_observers_off();
	rt.busy = 0;
	rt_set_self(NULL);
}

static pid_t real_fork(void)
{
	static pid_t (*real)(void);
	if (!real)
		real = NEXT(pid_t (*)(void), "fork");
	return real();
}

static pid_t modelled_fork(const void *site)
{
	struct rt_thread *self = rt_modelled_self();
	if (!self)
		return real_fork();
	rt_point(self, EV_FORK, 0, NULL, 0, site);
	rt.busy++;
	pid_t pid = real_fork();
	if (pid == 0) {
		forget_execution();
		return 0;
	}
	rt.busy--;
	if (pid > 0) {
		rt_sleep_outside();
		rt_fd_forked(); /* the child holds our eventfds too: their waits are no longer ours alone */
	}
	rt_changed();
	return pid;
}

RT_INTERPOSE pid_t fork(void)
{
	return modelled_fork(RT_CALLER());
}

/* The child shares nothing until it execs: a fork is a correct vfork,
 * and the child may run the program's own code uncontrolled. */
RT_INTERPOSE pid_t vfork(void)
{
	return modelled_fork(RT_CALLER());
}

struct clone_start {
	int (*fn)(void *);
	void *arg;
	bool shares_memory;
};

static int clone_child(void *p)
{
	struct clone_start s = *(struct clone_start *)p;
	if (s.shares_memory)
		rt_set_self(NULL); /* the parent's own slot (no new TLS): it sets it back */
	else
		forget_execution();
	return s.fn(s.arg);
}

RT_INTERPOSE int clone(int (*fn)(void *), void *stack, int flags, void *arg, ...)
{
	va_list ap;
	va_start(ap, arg);
	pid_t *ptid = va_arg(ap, pid_t *);
	void *tls = va_arg(ap, void *);
	pid_t *ctid = va_arg(ap, pid_t *);
	va_end(ap);
	static int (*real)(int (*)(void *), void *, int, void *, ...);
	if (!real)
		real = NEXT(int (*)(int (*)(void *), void *, int, void *, ...), "clone");
	struct rt_thread *self = rt_modelled_self();
	if (!self)
		return real(fn, stack, flags, arg, ptid, tls, ctid);
	if (flags & CLONE_THREAD)
		rt_unsupported("clone", "CLONE_THREAD makes a thread the runtime did not create; "
					"use pthread_create, std::thread or thrd_create");
	if ((flags & CLONE_VM) && !(flags & CLONE_VFORK))
		rt_unsupported("clone", "CLONE_VM without CLONE_VFORK shares the runtime's memory "
					"with a process it does not control");
	rt_point(self, EV_FORK, 0, NULL, 0, RT_CALLER());
	struct clone_start s = { fn, arg, (flags & CLONE_VM) != 0 };
	rt.busy++;
	int r = real(clone_child, stack, flags, &s, ptid, tls, ctid);
	rt_set_self(self); /* CLONE_VFORK: the child has exec'd or exited */
	rt.busy--;
	if (r > 0)
		rt_sleep_outside();
	rt_changed();
	return r;
}

/* ---- waiting for a child ---------------------------------------------------- */

/* One look at the children the call asks about, without blocking: > 0
 * (or, for waitid, 1) when it has its answer, 0 when none changed state
 * yet, -1 with errno for an error (no such child). */
struct child_call {
	int (*look)(struct child_call *c);
	pid_t pid;
	int options;
	int *status;
	struct rusage *usage;
	idtype_t idtype;
	siginfo_t *info;
	pid_t answer;
};

static pid_t real_wait4(pid_t pid, int *status, int options, struct rusage *usage)
{
	static pid_t (*real)(pid_t, int *, int, struct rusage *);
	if (!real)
		real = NEXT(pid_t (*)(pid_t, int *, int, struct rusage *), "wait4");
	return real(pid, status, options, usage);
}

static int look_wait4(struct child_call *c)
{
	pid_t r = real_wait4(c->pid, c->status, c->options | WNOHANG, c->usage);
	c->answer = r;
	return r < 0 ? -1 : r > 0;
}

static int look_waitid(struct child_call *c)
{
	static int (*real)(idtype_t, id_t, siginfo_t *, int);
	if (!real)
		real = NEXT(int (*)(idtype_t, id_t, siginfo_t *, int), "waitid");
	c->info->si_pid = 0;
	int r = real(c->idtype, (id_t)c->pid, c->info, c->options | WNOHANG);
	c->answer = r;
	return r < 0 ? -1 : c->info->si_pid != 0;
}

static bool others_can_run(const struct rt_thread *self)
{
	for (int i = 0; i < rt.nthreads; i++)
		if (&rt.threads[i] != self && rt_can_complete(&rt.threads[i]))
			return true;
	return false;
}

static void nap_us(uint64_t us)
{
	struct timespec ts = { (time_t)(us / 1000000), (long)(us % 1000000) * 1000 };
	REAL(nanosleep)(&ts, NULL);
}

/* Picked while the child runs: look again for up to ms (0: until the
 * deadline), napping a little longer each time. */
static int look_a_while(struct child_call *c, uint64_t ms)
{
	uint64_t waited = 0, step = 20;
	for (;;) {
		int r = c->look(c);
		if (r != 0 || rt_watchdog_expired() || (ms && waited >= ms * 1000))
			return r;
		nap_us(step);
		waited += step;
		if (step < 1000)
			step *= 2;
	}
}

static pid_t wait_child(struct rt_thread *self, struct child_call *c, const void *site)
{
	rt_cancel_point(self);
	rt_point(self, EV_WAITPID, 0, NULL, 0, site);
	int r = c->look(c);
	while (r == 0 && !(c->options & WNOHANG)) {
		self->wait = W_CHILD;
		self->wobj = NULL;
		self->wait_pid = c->pid;
		self->timed = true; /* a candidate whenever the schedule likes */
		rt_block(self, EV_WAITPID, site);
		rt_cancel_point(self);
		rt.busy++;
		r = look_a_while(c, others_can_run(self) ? WAIT_SLICE_MS : 0);
		rt.busy--;
	}
	if (r > 0) {
		rt_progress(self);
		rt_changed();
	}
	return c->answer;
}

RT_INTERPOSE pid_t waitpid(pid_t pid, int *status, int options)
{
	struct rt_thread *self = rt_modelled_self();
	if (!self)
		return real_wait4(pid, status, options, NULL);
	struct child_call c = { .look = look_wait4, .pid = pid, .options = options, .status = status };
	return wait_child(self, &c, RT_CALLER());
}

RT_INTERPOSE pid_t wait(int *status)
{
	struct rt_thread *self = rt_modelled_self();
	if (!self)
		return real_wait4(-1, status, 0, NULL);
	struct child_call c = { .look = look_wait4, .pid = -1, .status = status };
	return wait_child(self, &c, RT_CALLER());
}

RT_INTERPOSE pid_t wait3(int *status, int options, struct rusage *usage)
{
	struct rt_thread *self = rt_modelled_self();
	if (!self)
		return real_wait4(-1, status, options, usage);
	struct child_call c = {
		.look = look_wait4, .pid = -1, .options = options, .status = status, .usage = usage
	};
	return wait_child(self, &c, RT_CALLER());
}

RT_INTERPOSE pid_t wait4(pid_t pid, int *status, int options, struct rusage *usage)
{
	struct rt_thread *self = rt_modelled_self();
	if (!self)
		return real_wait4(pid, status, options, usage);
	struct child_call c = {
		.look = look_wait4, .pid = pid, .options = options, .status = status, .usage = usage
	};
	return wait_child(self, &c, RT_CALLER());
}

RT_INTERPOSE int waitid(idtype_t idtype, id_t id, siginfo_t *info, int options)
{
	struct rt_thread *self = rt_modelled_self();
	struct child_call c = {
		.look = look_waitid, .pid = (pid_t)id, .options = options, .idtype = idtype, .info = info
	};
	if (!self) {
		static int (*real)(idtype_t, id_t, siginfo_t *, int);
		if (!real)
			real = NEXT(int (*)(idtype_t, id_t, siginfo_t *, int), "waitid");
		return real(idtype, id, info, options);
	}
	wait_child(self, &c, RT_CALLER());
	return c.answer < 0 ? -1 : 0;
}

/* ---- commands ----------------------------------------------------------------- */

/* Run a real call that starts (and may wait for) a command, with the
 * other threads parked. */
#define PARKED(self, site, call)                                    \
	do {                                                        \
		rt_cancel_point(self);                              \
		rt_point(self, EV_SPAWN, 0, NULL, 0, site);          \
		rt.busy++;                                          \
		rt_sleep_outside();                                 \
		__auto_type parked_r = (call);                      \
		rt.busy--;                                          \
		rt_changed();                                       \
		return parked_r;                                    \
	} while (0)

RT_INTERPOSE int system(const char *command)
{
	static int (*real)(const char *);
	if (!real)
		real = NEXT(int (*)(const char *), "system");
	struct rt_thread *self = rt_modelled_self();
	if (!self)
		return real(command);
	PARKED(self, RT_CALLER(), real(command));
}

/* popen forks inside glibc, where no interposer sees it: the command
 * runs outside the schedule from here on (it cannot see the threads). */
RT_INTERPOSE FILE *popen(const char *command, const char *mode)
{
	static FILE *(*real)(const char *, const char *);
	if (!real)
		real = NEXT(FILE *(*)(const char *, const char *), "popen");
	if (rt_modelled_self())
		rt_sleep_outside();
	return real(command, mode);
}

RT_INTERPOSE int pclose(FILE *f)
{
	static int (*real)(FILE *);
	if (!real)
		real = NEXT(int (*)(FILE *), "pclose");
	struct rt_thread *self = rt_modelled_self();
	if (!self)
		return real(f);
	PARKED(self, RT_CALLER(), real(f));
}

typedef int (*spawn_fn)(pid_t *, const char *, const posix_spawn_file_actions_t *,
			const posix_spawnattr_t *, char *const[], char *const[]);

RT_INTERPOSE int posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *fa,
			  const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	static spawn_fn real;
	if (!real)
		real = NEXT(spawn_fn, "posix_spawn");
	struct rt_thread *self = rt_modelled_self();
	if (!self)
		return real(pid, path, fa, attr, argv, envp);
	PARKED(self, RT_CALLER(), real(pid, path, fa, attr, argv, envp));
}

RT_INTERPOSE int posix_spawnp(pid_t *pid, const char *file, const posix_spawn_file_actions_t *fa,
			   const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	static spawn_fn real;
	if (!real)
		real = NEXT(spawn_fn, "posix_spawnp");
	struct rt_thread *self = rt_modelled_self();
	if (!self)
		return real(pid, file, fa, attr, argv, envp);
	PARKED(self, RT_CALLER(), real(pid, file, fa, attr, argv, envp));
}
