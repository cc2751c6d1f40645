/* rt_thread.c - thread lifecycle under control: create, start, join,
 * detach, exit, and thread-specific data with destructors.
 *
 * A controlled thread is a real thread that parks on its futex word until
 * the schedule first picks it. Everything user-visible that runs when it
 * ends (cleanup handlers, C++ unwinding, key destructors, thread_local
 * destructors) runs while it is still controlled; only then does it hand
 * the CPU on and leave glibc to tear the real thread down. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "rt_internal.h"
#include "rt_race.h"
#include "rt_observer.h"
#include "rt_own.h"
#include "rt_lifecycle.h"
#include "rt_warn.h"

/* Destructors of the keys created so far, indexed by key (glibc keys are
 * small integers below PTHREAD_KEYS_MAX). */
static void (*key_dtor[PTHREAD_KEYS_MAX])(void *);
static unsigned key_limit; /* one past the largest key seen */
/* Keys that exist, and those of them that belong to the kernel thread
 * rather than to the program's thread on it: those that hold a value in a
 * new kernel thread before its start routine runs (ASan keeps its thread
 * record in one, which a pooled kernel thread keeps from one thread of
 * the program to the next). */
static bool key_made[PTHREAD_KEYS_MAX], key_kernel[PTHREAD_KEYS_MAX];

void rt_keys_of_kernel_thread(void)
{
	for (unsigned k = 0; k < key_limit; k++)
		if (key_made[k] && pthread_getspecific(k))
			key_kernel[k] = true;
}

int rt_key_create(pthread_key_t *key, void (*dtor)(void *))
{
	int r = REAL(pthread_key_create)(key, dtor);
	if (r == 0 && *key < PTHREAD_KEYS_MAX) {
		key_dtor[*key] = dtor;
		key_made[*key] = true;
		key_kernel[*key] = false;
		if (*key + 1 > key_limit)
			key_limit = *key + 1;
	}
	return r;
}

RT_INTERPOSE int pthread_key_create(pthread_key_t *key, void (*dtor)(void *))
{
	return rt_key_create(key, dtor);
}

RT_INTERPOSE int pthread_key_delete(pthread_key_t key)
{
	if (key < PTHREAD_KEYS_MAX) {
		key_dtor[key] = NULL;
		key_made[key] = key_kernel[key] = false;
	}
	return REAL(pthread_key_delete)(key);
}

/* POSIX: repeat while destructors leave new values behind, at most
 * PTHREAD_DESTRUCTOR_ITERATIONS times. Clearing each value first is what
 * makes glibc's own pass afterwards find nothing to do. Only the program's
 * keys: the kernel thread's own (ASan's thread record) are left to glibc's
 * pass, which runs them after every thread_local destructor, as without
 * us. Run from here, ASan's would retire the thread while glibc still
 * holds the block of the destructor being run (on_thread_end's), and a
 * leak check at that moment would report the block as lost. */
static void run_key_destructors(void)
{
	for (int round = 0; round < PTHREAD_DESTRUCTOR_ITERATIONS; round++) {
		bool any = false;
		for (unsigned k = 0; k < key_limit; k++) {
			void (*dtor)(void *) = key_kernel[k] ? NULL : key_dtor[k];
			void *v = dtor ? pthread_getspecific(k) : NULL;
			if (v) {
				pthread_setspecific(k, NULL);
				dtor(v);
				any = true;
			}
		}
		if (!any)
			break;
	}
}

/* The end of a controlled thread, as glibc's thread start runs it once the
 * start routine returned or pthread_exit unwound: a C++ thread_local
 * destructor, registered before the routine ran, so it runs after every
 * thread_local destructor the routine registered. Key destructors (and any
 * thread_local destructor they register) run here too, while the thread is
 * still controlled. */
static void on_thread_end(void *arg)
{
	struct rt_thread *t = arg;
	run_key_destructors();
	if (rt_real.call_tls_dtors)
		rt_real.call_tls_dtors();
	rt_thread_finish(t);
}

extern void *__dso_handle;
int __cxa_thread_atexit_impl(void (*fn)(void *), void *obj, void *dso);

#if defined(__has_attribute) && __has_attribute(musttail)
#define RT_TAIL_CALL __attribute__((musttail))
#else
#define RT_TAIL_CALL
#endif

static void *trampoline(void *arg)
{
	struct rt_thread *t = arg;
	rt_keys_of_kernel_thread();
	rt_thread_setup(t);
	rt_park(&t->go);
	rt_set_self(t);
	/* Picked for the first time: its start is an event of its own, so a
	 * change point can lower it before its first instruction (001's
	 * "fake varaccess() before the first instruction of each thread"). */
	rt_thread_started(t);
	__cxa_thread_atexit_impl(on_thread_end, t, &__dso_handle);

	if (t->c11_fn)
		return (void *)(intptr_t)t->c11_fn(t->arg);
	/* A tail call: the thread's stack in a sanitizer's report is the
	 * program's own, from its start routine down to glibc's thread start,
	 * with no frame of ours between. Its return value reaches the joiner
	 * through the real pthread_join. */
	void *(*fn)(void *) = t->fn;
	RT_TAIL_CALL return fn(t->arg);
}

/* A pooled kernel thread's thread leaving by pthread_exit: its kernel
 * thread ends with it, and glibc runs this first of its thread_local
 * destructors (the last registered), so the others run from here, then
 * what on_thread_end runs, in trampoline's order. */
static void on_pooled_exit(void *arg)
{
	rt_real.call_tls_dtors();
	on_thread_end(arg);
}

/* A thread on a kernel thread of the pool (rt_pool.c): trampoline's start,
 * then the end glibc gives a thread whose routine returned, here, since
 * the kernel thread goes on: its thread_local destructors, its keys'
 * destructors (not those of the kernel thread's own keys, ASan's), and any
 * thread_local destructor those registered. Its keys without a destructor
 * are cleared, as a new thread's hold NULL, and its cancellation state
 * goes back to the default. */
void rt_thread_run_pooled(struct rt_thread *t)
{
	rt_park(&t->go);
	rt_set_self(t);
	rt_thread_started(t);
	t->retval = t->c11_fn ? (void *)(intptr_t)t->c11_fn(t->arg) : t->fn(t->arg);

	rt_real.call_tls_dtors();
	run_key_destructors();
	rt_real.call_tls_dtors();
	for (unsigned k = 0; k < key_limit; k++)
		if (key_made[k] && !key_kernel[k] && pthread_getspecific(k))
			pthread_setspecific(k, NULL);
	if (t->cancel_off || t->cancel_async)
		rt_cancel_defaults();
	rt_thread_finish(t); /* t is not this kernel thread's any more */
}

/* Threads of this execution whose slots were taken by new threads: their
 * handles, and how they went. glibc keeps a gone thread's descriptor in
 * its cache of stacks, where a second join or detach still reads how it
 * went, until a new thread takes it (and so its handle: then the handle
 * names the new thread, found in rt.threads first). The newest entry
 * per handle; past GONE_MAX distinct handles the oldest is forgotten
 * (glibc's cache holds far fewer). */
#define GONE_MAX 64
struct rt_gone {
	pthread_t real;
	int tid;
	bool joined; /* else detached */
};
static struct rt_gone gone_list[GONE_MAX];
static int ngone, gone_next;

static void forget_gone(void)
{
	ngone = gone_next = 0;
}

static void remember_gone(const struct rt_thread *t)
{
	struct rt_gone *g = NULL;
	for (int i = 0; i < ngone && !g; i++)
		if (pthread_equal(gone_list[i].real, t->real))
			g = &gone_list[i];
	if (!g) {
		g = &gone_list[gone_next];
		gone_next = (gone_next + 1) % GONE_MAX;
		if (ngone < GONE_MAX)
			ngone++;
	}
	*g = (struct rt_gone){ .real = t->real, .tid = t->tid, .joined = t->joined };
}

static const struct rt_gone *gone_by_real(pthread_t th)
{
	for (int i = 0; i < ngone; i++)
		if (pthread_equal(gone_list[i].real, th))
			return &gone_list[i];
	return NULL;
}

/* A slot for a new thread: the first one whose thread is gone for good
 * (finished, and joined or detached), else a new one; -1 if all are taken.
 * The first free slot, so that the same schedule reuses the same slots. */
static int free_slot(void)
{
	if (rt.reuse)
		for (int i = 1; i < rt.nthreads; i++)
			if (rt.threads[i].state == T_UNUSED)
				return i;
	return rt.nthreads < RT_MAX_THREADS ? rt.nthreads : -1;
}

void rt_release_slot(struct rt_thread *t)
{
	bool gone = (t->joined && t->reaped) || t->detached; /* glibc reaps a detached one */
	if (gone && t->state == T_FINISHED)
		rt_pool_release(t);
	if (rt.reuse && t->tid != 0 && t->state == T_FINISHED && gone &&
	    t->nheld == 0) { /* locks it still holds name it as their owner */
		remember_gone(t);
		t->state = T_UNUSED;
	}
}

/* Creation in three parts, so that pthread_create itself calls the real one
 * (ASan's interceptor in the ASan mode): the creation stack a sanitizer
 * records then shows pthread_create once, then the program's caller. */
static struct rt_thread *create_begin(struct rt_thread *self, const pthread_attr_t *attr,
				      void *(*fn)(void *), int (*c11_fn)(void *), void *arg,
				      const void *site)
{
	rt_point(self, EV_THREAD_CREATE, 0, NULL, 0, site);
	if (rt.ncreated == 1)
		forget_gone(); /* the execution's first thread: the handles gone were another's */
	int slot = free_slot(); /* after the point: others may have taken one */
	if (slot < 0)
		rt_unsupported("pthread_create", "more than 128 threads alive at once in one execution");
	struct rt_thread *t = &rt.threads[slot];
	rt_memset(t, 0, sizeof *t);
	rt_own_thread_begin(t);
	t->tid = rt.ncreated;
	t->slot = slot;
	t->fn = fn;
	t->c11_fn = c11_fn;
	t->arg = arg;
	t->site = site;
	int detach = PTHREAD_CREATE_JOINABLE;
	if (attr)
		pthread_attr_getdetachstate(attr, &detach);
	t->detached = detach == PTHREAD_CREATE_DETACHED;
	t->sig_mask = self->sig_mask; /* what glibc gives the new thread */
	rt.busy++; /* across the real call: create_end ends it */
	return t;
}

static int create_end(struct rt_thread *t, pthread_t *th, int r)
{
	rt.busy--;
	if (r != 0)
		return r;
	t->state = T_LIVE;
	if (rt.ncreated == 1) /* what main did alone happens before any thread */
		rt_own_settle();
	rt.ncreated++;
	if (t->slot == rt.nthreads)
		rt.nthreads++;
	rt_race_created(rt_self, t);
	rt_observe_thread_created(t);
	*th = t->real;
	rt_changed();
	rt.strat->note(rt.sstate, STRAT_NOTE_THREAD_CREATED, t->slot, rt.step);
	rt_roles_created(t);
	return 0;
}

/* glibc's pthread_create, as the runtime's own work: what glibc allocates
 * for the thread (its DTV, with calloc) is not the program's, so a block
 * the program freed and glibc now takes is still one the program freed
 * (rt_heap_freed.c): a second free of it is a double free in every
 * process, whatever glibc's heap looked like before. */
static int new_kernel_thread(struct rt_thread *t, const pthread_attr_t *attr)
{
	struct rt_thread *own = rt_own_work_begin();
	int r = REAL(pthread_create)(&t->real, attr, trampoline, t);
	rt_own_work_end(own);
	return r;
}

int rt_thread_create(struct rt_thread *self, pthread_t *th, const pthread_attr_t *attr,
		     void *(*fn)(void *), int (*c11_fn)(void *), void *arg, const void *site)
{
	struct rt_thread *t = create_begin(self, attr, fn, c11_fn, arg, site);
	/* Its kernel thread: a pooled one where it can (rt_pool.c), else its own. */
	int r = rt_pool_start(t, attr) ? 0 : new_kernel_thread(t, attr);
	return create_end(t, th, r);
}

/* The thread another one waits to join, if any: glibc's joinid. */
static struct rt_thread *joiner_of(const struct rt_thread *t)
{
	for (int i = 0; i < rt.nthreads; i++) {
		struct rt_thread *w = &rt.threads[i];
		if (w->state == T_LIVE && w->wait == W_JOIN && w->join_target == t)
			return w;
	}
	return NULL;
}

static const char *errno_name(int e)
{
	return e == EBUSY ? "EBUSY" : e == ESRCH ? "ESRCH" : "EINVAL";
}

/* A join glibc refuses, in glibc's order. pthread_tryjoin_np looks at the
 * descriptor's tid alone first: EBUSY while the thread runs, and after a
 * join, which set it to -1. The others: ESRCH after a join, EINVAL for a
 * detached thread, EDEADLK for the caller itself, EINVAL for a thread
 * another one joins (joinid taken). All but the caller's own answer
 * undefined behaviour that glibc survives: said once. 0 if the join may
 * go on (a tryjoin then looks at the thread at its scheduling point). */
static int join_refused(struct rt_thread *self, const struct rt_thread *t,
			const struct rt_gone *g, enum rt_how how, const void *site)
{
	bool joined = t ? t->joined : g->joined;
	bool detached = t ? t->detached : !g->joined;
	int tid = t ? t->tid : g->tid;
	bool running = t && t->state != T_FINISHED;
	const struct rt_thread *other = t && !joined && !detached ? joiner_of(t) : NULL;
	const char *call = how == HOW_TRY     ? "pthread_tryjoin_np"
			   : how == HOW_TIMED ? "pthread_timedjoin_np"
					      : "pthread_join";
	if (!joined && !detached && !other) /* the caller, or a join that goes on */
		return t != self ? 0 : how == HOW_TRY ? EBUSY : EDEADLK;
	int r = how == HOW_TRY && (joined || running) ? EBUSY : joined ? ESRCH : EINVAL;
	if (joined)
		rt_warn(site, "%s of T%d, which was joined already: undefined; glibc returns %s "
			      "and the execution goes on", call, tid, errno_name(r));
	else if (detached)
		rt_warn(site, "%s of T%d, which is detached: undefined; glibc returns %s and the "
			      "execution goes on", call, tid, errno_name(r));
	else if (other)
		rt_warn(site, "%s of T%d, which T%d is joining already: undefined; glibc returns "
			      "%s and the execution goes on", call, tid, other->tid, errno_name(r));
	return r;
}

int rt_thread_join(struct rt_thread *self, pthread_t th, void **ret, enum rt_how how,
		   const void *site)
{
	struct rt_thread *t = rt_thread_by_real(th);
	const struct rt_gone *g = t ? NULL : gone_by_real(th);
	if (!t && !g)
		rt_unsupported("pthread_join", "the thread was not created in this execution");
	int refused = join_refused(self, t, g, how, site);
	if (refused)
		return refused;
	if (how != HOW_TRY)
		rt_cancel_point(self);
	if (how == HOW_TRY) {
		rt_point_try(self, EV_THREAD_JOIN, NULL, site);
		if (t->state != T_FINISHED)
			return EBUSY;
		rt_progress(self);
	} else {
		self->wait = W_JOIN;
		self->join_target = t;
		self->wobj = NULL;
		self->timed = how == HOW_TIMED;
		int r = rt_block(self, EV_THREAD_JOIN, site);
		rt_cancel_point(self); /* before it joins: the target stays joinable */
		if (r)
			return r;
	}
	if (t->joined || t->detached) /* meanwhile, by a tryjoin or a detach */
		return join_refused(self, t, NULL, how, site);
	t->joined = true;
	rt_race_joined(self, t);
	if (t->pool)
		t->reaped = true; /* its return value is in t->retval already */
	if (!t->reaped) {
		rt.busy++;
		REAL(pthread_join)(t->real, &t->retval); /* what it returned or passed to pthread_exit */
		rt.busy--;
		t->reaped = true;
	}
	if (ret)
		*ret = t->retval;
	rt_release_slot(t);
	return 0;
}

/* glibc's pthread_detach: ESRCH for a joined thread (its descriptor's tid
 * is -1), EINVAL for a detached one, and 0 with nothing done for one that
 * another thread is joining (the join goes on). The first two are
 * undefined, the third unspecified: each is said once. */
static const void *caller_site(void)
{
	const char *entry;
	return rt_program_caller(&entry);
}

int rt_thread_detach(struct rt_thread *self, pthread_t th)
{
	(void)self;
	struct rt_thread *t = rt_thread_by_real(th);
	const struct rt_gone *g = t ? NULL : gone_by_real(th);
	if (!t && !g)
		return REAL(pthread_detach)(th);
	int tid = t ? t->tid : g->tid;
	if (t ? t->joined : g->joined) {
		rt_warn(caller_site(), "pthread_detach of T%d, which was joined already: undefined; glibc "
			      "returns ESRCH and the execution goes on", tid);
		return ESRCH;
	}
	if (!t || t->detached) {
		rt_warn(caller_site(), "pthread_detach of T%d, which is detached already: undefined; glibc "
			      "returns EINVAL and the execution goes on", tid);
		return EINVAL;
	}
	struct rt_thread *joiner = joiner_of(t);
	if (joiner) {
		rt_warn(caller_site(), "pthread_detach of T%d, which T%d is joining: glibc returns 0, leaves "
			      "it joinable, and the join goes on", tid, joiner->tid);
		return 0;
	}
	t->detached = true;
	rt_changed();
	int r = t->pool ? 0 : REAL(pthread_detach)(t->real);
	t->reaped = true;
	rt_release_slot(t);
	return r;
}

void rt_thread_exit(struct rt_thread *self, void *retval, const void *site)
{
	self->retval = retval;
	self->site = site;
	if (self->tid == 0) {
		if (rt.harness)
			rt_unsupported("pthread_exit", "called by the thread running the fuzz target");
		/* main() leaving early: the others go on; the process ends
		 * with the last of them, as without us. */
		run_key_destructors();
		rt_thread_finish(self);
	}
	if (self->pool) {
		rt_pool_thread_exits(self);
		__cxa_thread_atexit_impl(on_pooled_exit, self, &__dso_handle);
	}
	REAL(pthread_exit)(retval); /* unwinds into on_thread_end */
}

/* ---- the pthread entry points ------------------------------------------------ */

RT_INTERPOSE int pthread_create(pthread_t *th, const pthread_attr_t *attr, void *(*fn)(void *),
			     void *arg)
{
	struct rt_thread *self = rt_self;
	if (!self)
		return REAL(pthread_create)(th, attr, fn, arg);
	/* rt_thread_create's two lines, not a call to it: ASan's creation
	 * stack shows no frame of ours between this and the program
	 * (report.asan_frames). */
	struct rt_thread *t = create_begin(self, attr, fn, NULL, arg, RT_CALLER());
	int r = 0;
	if (!rt_pool_start(t, attr)) { /* new_kernel_thread's lines: no inlined frame either */
		struct rt_thread *own = rt_own_work_begin();
		r = REAL(pthread_create)(&t->real, attr, trampoline, t);
		rt_own_work_end(own);
	}
	return create_end(t, th, r);
}

RT_INTERPOSE int pthread_join(pthread_t th, void **ret)
{
	struct rt_thread *self = rt_self;
	if (!self)
		return REAL(pthread_join)(th, ret);
	return rt_thread_join(self, th, ret, HOW_BLOCK, RT_CALLER());
}

RT_INTERPOSE int pthread_tryjoin_np(pthread_t th, void **ret)
{
	struct rt_thread *self = rt_self;
	if (!self) {
		static int (*real)(pthread_t, void **);
		if (!real)
			real = (int (*)(pthread_t, void **))dlsym(RTLD_NEXT, "pthread_tryjoin_np");
		return real(th, ret);
	}
	return rt_thread_join(self, th, ret, HOW_TRY, RT_CALLER());
}

RT_INTERPOSE int pthread_timedjoin_np(pthread_t th, void **ret, const struct timespec *abs)
{
	struct rt_thread *self = rt_self;
	if (!self) {
		static int (*real)(pthread_t, void **, const struct timespec *);
		if (!real)
			real = (int (*)(pthread_t, void **, const struct timespec *))dlsym(
				RTLD_NEXT, "pthread_timedjoin_np");
		return real(th, ret, abs);
	}
	if (abs && !rt_timespec_valid(abs))
		return EINVAL;
	return rt_thread_join(self, th, ret, abs ? HOW_TIMED : HOW_BLOCK, RT_CALLER());
}

RT_INTERPOSE int pthread_detach(pthread_t th)
{
	struct rt_thread *self = rt_self;
	if (!self)
		return REAL(pthread_detach)(th);
	return rt_thread_detach(self, th);
}

RT_INTERPOSE void pthread_exit(void *retval)
{
	struct rt_thread *self = rt_self;
	if (!self)
		REAL(pthread_exit)(retval);
	rt_thread_exit(self, retval, RT_CALLER());
}
