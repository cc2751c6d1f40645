/* rt_internal.h - the runtime's private header: the one place that joins
 * the controlled scheduler, the ABI hooks, the interposed pthread API, the
 * sync-object models and the reports.
 *
 * The invariant everything relies on: during an execution exactly one
 * controlled thread runs (rt.running); every other controlled thread is
 * parked on its own futex word. So runtime state needs no lock: only the
 * running thread reads or writes it, and the futex handoff orders memory.
 * The one exception is the watchdog's thread (rt_watchdog.c), which reads
 * rt.step, rt.running and a thread's ktid, and lowers rt.livelock_limit. */
#ifndef SCHEDFUZZ_RT_INTERNAL_H
#define SCHEDFUZZ_RT_INTERNAL_H

#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "generate.h"
#include "search_log.h"
#include "spec.h"
#include "strategy.h"

#define RT_HIDDEN __attribute__((visibility("hidden")))
#define RT_EXPORT __attribute__((visibility("default")))
/* A libc, libpthread or libstdc++ name the runtime defines to interpose it.
 * Weak, so that a program (or one of its static libraries) that defines
 * the same name links and its definition wins, as it would over libc.so;
 * the runtime then no longer models that call, and its own work never
 * reaches the program's function (rt_libc.h).
 * An attribute at the definition rather than objcopy --weaken-symbol over
 * a list: the definition is the one place that says a name is interposed,
 * and it cannot weaken by mistake an ABI hook (rt_*, __tsan_*) or an
 * undefined reference, which a list matched against nm's output could.
 * Beside ASan too, whose interceptors are weak definitions of the same
 * names: schedfuzz-cc links ASan's runtime after ours, and of two weak
 * definitions the linker keeps the first.
 * tests/libc/weak_interposers.sh checks both archives. */
#define RT_INTERPOSE RT_EXPORT __attribute__((weak))
#define RT_NOINLINE __attribute__((noinline))
#define RT_NORETURN __attribute__((noreturn))
#define RT_LIKELY(x) __builtin_expect(!!(x), 1)
#define RT_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define RT_CALLER() __builtin_return_address(0)

#define RT_MAX_THREADS 128  /* controlled threads alive at once in an execution */
_Static_assert(RT_MAX_THREADS <= STRAT_MAX_THREADS, "strategies know every thread");
#define RT_MAX_HELD 16      /* locks one thread holds at once, for reports */
#define RT_CTX_DEPTH 4      /* innermost call sites a report, a trace or a context uses */
#define RT_CTX_RING 64      /* call sites a thread keeps (power of two) */
#define RT_TRACE_SIZE 256   /* events kept for the report (power of two) */
#define RT_SPIN_LIMIT 100   /* own steps without progress before a thread must give way */
#define RT_SLICE 20000      /* own steps in a row before a thread must give way */
#define RT_RECENT 16        /* addresses a thread read lately (power of two) */
#define RT_DEFAULT_LIVELOCK_STEPS 1000000
#define RT_DEFAULT_STALL_MS 10
#define RT_DEFAULT_TIMEOUT_S 30
#define RT_EXIT_SETUP 3     /* exit status: the run could not start (bad setting) */

/* ---- events ------------------------------------------------------------ */

enum rt_ev {
	EV_READ,
	EV_WRITE,
	EV_ATOMIC_LOAD,
	EV_ATOMIC_STORE,
	EV_ATOMIC_RMW,
	EV_ATOMIC_CAS,
	EV_FENCE,
	EV_THREAD_CREATE,
	EV_THREAD_START,
	EV_THREAD_JOIN,
	EV_THREAD_EXIT,
	EV_MUTEX_LOCK,
	EV_MUTEX_TRYLOCK,
	EV_MUTEX_UNLOCK,
	EV_COND_WAIT,
	EV_COND_WAKE,
	EV_COND_SIGNAL,
	EV_COND_BROADCAST,
	EV_RW_RDLOCK,
	EV_RW_WRLOCK,
	EV_RW_UNLOCK,
	EV_SEM_WAIT,
	EV_SEM_POST,
	EV_BARRIER_WAIT,
	EV_ONCE,
	EV_YIELD,
	EV_SLEEP,
	EV_PROC_EXIT, /* exit() or main's return: the process ends once it is picked */
	EV_FD_IO,      /* a blocking call on a file descriptor completes (rt_io.c) */
	EV_FUTEX_WAIT, /* a futex wait compares its word, or resumes (rt_futex.c) */
	EV_FUTEX_WAKE, /* a futex wake or requeue */
	/* Thread lifecycle, signals and processes (rt_lifecycle.h). */
	EV_CANCEL,     /* pthread_cancel */
	EV_TESTCANCEL, /* pthread_testcancel */
	EV_KILL,       /* pthread_kill to another controlled thread */
	EV_SIGNAL,     /* a signal's handler runs on its target */
	EV_SIGWAIT,    /* sigwait and friends, pause, sigsuspend */
	EV_FORK,
	EV_WAITPID,    /* waitpid and friends */
	EV_SPAWN,      /* system(), posix_spawn, pclose */
	EV_COUNT
};
extern const char *const rt_ev_names[EV_COUNT];

/* One entry of the trace ring kept for reports. Every step logs one, so
 * the event of step s is trace[s % RT_TRACE_SIZE] and needs no number. */
struct rt_event {
	const void *site;
	uintptr_t addr; /* memory address, or the object's address */
	uint32_t obj_id; /* stable per-execution object number, 0 for memory */
	uint16_t tid;
	uint8_t kind;    /* enum rt_ev */
	uint8_t flags;   /* RT_EVF_* */
	uint32_t size;   /* bytes, for memory events */
};
#define RT_EVF_PREEMPT 1  /* the previous thread could have continued */
#define RT_EVF_SWITCH 2   /* a different thread than the previous event's */
#define RT_EVF_TIMEOUT 4  /* the operation completed by timing out */
#define RT_EVF_WAITED 8   /* the thread had to wait before it could complete (traces only) */
#define RT_EVF_SPURIOUS 16 /* a condition wait that returned without a signal */

/* ---- sync objects ------------------------------------------------------ */

enum rt_otype { O_MUTEX, O_SPIN, O_COND, O_RWLOCK, O_SEM, O_BARRIER, O_ONCE, O_GUARD, O_COUNT };
extern const char *const rt_otype_names[O_COUNT];
extern const char rt_otype_letters[O_COUNT];

/* The modelled state of one sync object, keyed by its address. Created on
 * first touch in an execution, forgotten at its end. */
struct rt_obj {
	uintptr_t addr;
	uint32_t slot;  /* index in the hash table, kept across growth */
	uint32_t id;    /* 1, 2, ... per type in order of first touch */
	uint8_t type;   /* enum rt_otype */
	bool ready;     /* type-specific state has been initialised */
	bool in_freed;  /* inside a block the program freed since (rt_obj_freed) */
	union {
		struct { /* O_MUTEX, O_SPIN */
			struct rt_thread *owner; /* NULL when free */
			int count;               /* recursion depth, >= 1 when owned */
			int kind;                /* PTHREAD_MUTEX_{NORMAL,RECURSIVE,ERRORCHECK} */
			int users; /* glibc's __nusers: takes less releases; a stray unlock counts too */
		} mutex;
		struct { /* O_RWLOCK */
			struct rt_thread *writer;
			int readers; /* read holds summed over threads */
		} rw;
		struct { /* O_SEM */
			unsigned value;
		} sem;
		struct { /* O_BARRIER */
			unsigned count, arrived;
			uint64_t round; /* bumped when a round completes */
		} barrier;
		struct { /* O_ONCE, O_GUARD */
			struct rt_thread *runner; /* thread running the initialiser */
		} once;
	};
};

/* ---- threads ----------------------------------------------------------- */

enum rt_wait {
	W_NONE,    /* can always take its next step */
	W_MUTEX,   /* mutex or spinlock wobj to be free */
	W_COND,    /* a signal on condition wobj; reacquires cond_mutex after */
	W_RDLOCK,  /* no writer on rwlock wobj */
	W_WRLOCK,  /* no holder at all on rwlock wobj */
	W_SEM,     /* semaphore wobj above zero */
	W_BARRIER, /* barrier wobj to leave round wait_round */
	W_JOIN,    /* thread join_target to finish */
	W_ONCE,    /* initialiser of once/guard wobj to finish */
	W_OTHERS,  /* every other thread to finish (harness end) */
	W_EXTERNAL, /* a condition outside the runtime's objects: ext (rt_external.c) */
	W_SIGNAL,  /* one of sig_waitset to be pending (rt_kill.c) */
	W_CHILD,   /* a child process to change state (rt_process.c) */
	W_COUNT
};
extern const char *const rt_wait_names[W_COUNT];

enum rt_tstate { T_UNUSED, T_LIVE, T_FINISHED };

struct rt_held {
	struct rt_obj *obj;
	int count;
	bool write; /* rwlock held for writing */
};

struct rt_thread {
	_Atomic uint32_t go; /* futex word: 1 while this thread may run, 2 while it
			      * sleeps in the kernel waiting for it (rt_park) */
	int tid;             /* creation order; 0 started the execution */
	int slot;            /* index in rt.threads, what strategies know it by */
	enum rt_tstate state;

	/* What the thread waits for; wait == W_NONE unless it is blocked. */
	enum rt_wait wait;
	struct rt_obj *wobj;
	struct rt_obj *cond_mutex; /* W_COND: the mutex to reacquire */
	struct rt_thread *join_target;
	uint64_t wait_round;
	bool timed;     /* a timed wait: may complete by timing out */
	bool timed_out; /* set when it was picked to time out */
	bool signalled; /* W_COND: woken by a signal, now reacquiring */
	const void *wait_site;
	struct rt_ext *ext; /* W_EXTERNAL: what it waits for (on its own stack) */

	pthread_t real;
	bool detached, joined, reaped;
	struct rt_pooled *pool; /* its kernel thread, if pooled (rt_pool.c) */
	void *(*fn)(void *);
	int (*c11_fn)(void *);
	void *arg, *retval;

	uintptr_t stack_lo, stack_size; /* own stack: accesses there are private */

	struct rt_held held[RT_MAX_HELD];
	int nheld;

	/* Fairness (rt_sched.c, "progress"): the step of its last progress,
	 * the step it was last switched in at (only the running thread steps,
	 * so their distances to rt.step are its own steps), and the addresses
	 * it read lately (a read of one of them is no progress). */
	uint64_t progressed_at;
	uint64_t switched_in_at;
	bool trying;      /* inside a try-operation: progress only if it succeeds */
	uintptr_t recent[RT_RECENT];
	uint32_t nrecent;
	/* Set by an asynchronous preemption (rt_watchdog.c): the thread
	 * spins where the runtime cannot see it, so until step hold_until or
	 * its next progress it runs only when no other thread can, and it
	 * waits longer each time in a row. */
	uint64_t hold_until;
	uint32_t holds;
	pid_t ktid;       /* the kernel's id of the real thread, for signals */
	int asan_tid;     /* its number in ASan's reports, -1 without ASan */

	bool waited;      /* blocked since its last event (traces only) */
	const void *site; /* last site this thread reached */
	/* Its call sites, a ring by depth: a call RT_CTX_RING deeper
	 * overwrites an outer one, and the frames below depth ctx_lost
	 * (which may exceed depth after returns) are those overwritten
	 * (rt_ctx_count). */
	const void *ctx[RT_CTX_RING];
	uint32_t depth, ctx_lost;

	/* For the systematic search's log: the operation the thread is
	 * parked on (EV_COUNT: resuming a wait), and where it was created. */
	uint8_t pend_ev;
	uint32_t pend_size;
	uintptr_t pend_addr;
	struct rt_obj *pend_obj;
	const void *pend_site;
	uint32_t born_in;

	/* Ownership (rt_own.h): the shadow cells of the granules it owns and
	 * of those it alone read since they settled, or RT_OWN_NONE when its
	 * next private access must be a point; private accesses left before
	 * the next tick; whether it wrote private memory since its last
	 * decision (progress, as a write that is a point is: rt_sched.c).
	 * The pairs hold each tag twice, two cells' worth (rt_own_set_tags). */
	uint16_t own_tag, own_r1;
	uint32_t own_tag_pair, own_r1_pair;
	uint32_t own_left;
	bool own_wrote;
	bool at_tick; /* its point is the tick: strat_view.tick (rt_sched.c) */
	/* Cancellation and signals (rt_lifecycle.h). Zero is the default:
	 * cancellation enabled and deferred, nothing pending. */
	bool cancel_pending; /* pthread_cancel was called on it */
	bool cancel_off;     /* PTHREAD_CANCEL_DISABLE */
	bool cancel_async;   /* PTHREAD_CANCEL_ASYNCHRONOUS */
	bool cancelled;      /* it ended by acting on a cancel, at cancel_site */
	const void *cancel_site;
	uint64_t sig_pending; /* sent to it, not delivered yet: bit sig - 1 */
	uint64_t sig_waitset; /* W_SIGNAL: the signals that end the wait */
	pid_t wait_pid;       /* W_CHILD: the child (or group, as waitpid says) */
	sigset_t sig_mask;    /* its signal mask (rt_kill.c keeps it), first its creator's */
	/* Who it is, for strategies with roles (rt_roles.c): its start
	 * routine's rank in this execution (0 for the first thread), and the
	 * events it executed; stream is 1 + the stream that counts them, 0
	 * for none. */
	uint32_t routine;
	uint32_t events;
	uint8_t stream;
};

/* ---- the execution ------------------------------------------------------ */

enum rt_fail_kind {
	F_NONE,
	F_ASSERT,
	F_SIGNAL,
	F_DEADLOCK,
	F_HANG,
	F_EXIT,
	F_MISUSE,
	F_SANITIZER, /* ASan's or UBSan's report */
	F_STACK_OVERFLOW, /* a controlled thread ran past the end of its stack */
	F_LEAK, /* LeakSanitizer's report at exit */
	F_RACE, /* a data race, with SCHEDFUZZ_RACES=fail (rt_race.h) */
	F_COUNT
};
extern const char *const rt_fail_names[F_COUNT];

/* What an execution ended with; written to shared memory in explore mode
 * so that the parent learns it from a child that died. */
struct rt_result {
	uint32_t fail;        /* enum rt_fail_kind */
	uint32_t threads;     /* created, main included */
	uint64_t steps;
	uint64_t fingerprint; /* of the interleaving: tids, kinds, sites */
	uint64_t decisions;
	uint64_t handoffs;    /* switches from one thread to another: what it cost */
	uint32_t out_of_time; /* a hang the clock ended, at a step it chose */
	/* What the explorer's plan generator learns from (generate.h). */
	struct sf_estimates seen;
	/* Asynchronous preemptions (rt_watchdog.c): the execution did not
	 * follow its schedule alone, and may not replay exactly. */
	uint32_t async;
	uint32_t async_tid;       /* the first one's thread */
	uintptr_t async_site;     /* ... and where it was (an address in this binary) */
	/* The report's message (a sanitizer's summary, an assertion, an
	 * exit): what tells two failures of one kind apart (rt_findings.c). */
	char detail[256];
	int32_t exit_code;        /* the status the program exited with (0: none yet) */
	uint64_t site; /* where it failed, to tell findings apart (rt_report.c) */
	/* Data races reported (rt_race.h): how many pairs of sites, and the
	 * first pair's key. */
	uint32_t races;
	uint64_t race_key;
};

struct rt_config {
	uint64_t livelock_steps; /* retries without progress before a livelock is reported */
	uint64_t stall_ms;       /* no scheduling point this long: preempt (0: never) */
	uint64_t timeout_ms;     /* an execution's wall-clock limit (0: none) */
	bool memory_points; /* memory accesses are scheduling points */
	bool memory_all;    /* ... all of them, private ones too (SCHEDFUZZ_MEMORY=2) */
	bool pin;           /* keep the execution on one CPU */
	bool pool;          /* a harness's threads run on kept kernel threads (rt_pool.c) */
	const char *record_path; /* write the executed schedule here */
	const char *input_path;  /* the input being replayed, for reports */
	bool brief;              /* reports are one line: nobody reads them */
	bool pinned;             /* SCHEDFUZZ_STRATEGY pins the strategy */
	struct sf_spec spec;     /* ... to this */
	unsigned coverage;       /* SCHEDFUZZ_COVERAGE: COV_* bits */
	unsigned hapset_context; /* call sites in a HaPSet statement (c) */
	const char *cov_dump;    /* SCHEDFUZZ_COV_DUMP: append features here */
	const char *trace_path;  /* SCHEDFUZZ_TRACE: write the whole interleaving here */
	bool no_spurious;        /* SCHEDFUZZ_SPURIOUS=0: whatever the genome says */
};

struct rt_state {
	bool active; /* inside an execution */
	bool harness; /* started by LLVMFuzzerTestOneInput, not main() */
	bool under_libfuzzer; /* main() was handed to libFuzzer */
	bool under_engine;    /* ... or to another engine: inputs run one after another here */
	bool cov_on;  /* this execution computes interleaving coverage */
	bool trace_on; /* this execution is traced (SCHEDFUZZ_TRACE) */
	bool observed; /* some observer hears events (rt_observer.h) */
	struct sx_log *search; /* a systematic search's child: log here (rt_search.c) */
	struct rt_config cfg;

	struct rt_thread threads[RT_MAX_THREADS];
	int nthreads;  /* slots in use or used before: threads[0 .. nthreads-1] */
	int ncreated;  /* threads created, main included: the next tid */
	bool reuse;    /* slots of joined or detached threads are reused */
	struct rt_thread *running;

	uint64_t step;
	/* Livelock: retries (yields, failed updates and try-operations) since
	 * any thread last made progress, and switches among them; the limit
	 * is the configured one, or 0 once the watchdog found the execution
	 * out of time (the watchdog writes it: read it atomically). */
	uint64_t retries;
	uint64_t retry_switches;
	uint64_t livelock_limit;
	bool held_off; /* some thread may have hold_until in the future */
	int npolled;   /* threads in W_EXTERNAL waits the kernel ends (rt_external.c) */
	/* The running thread is inside the runtime in a call that may block
	 * (a real create or join, writing files at the end): the watchdog
	 * must not preempt it there, in the middle of the runtime's state. */
	int busy;
	uint64_t ndecisions;
	uint64_t preemptions; /* switches away from a thread that could go on */
	uint64_t handoffs;    /* switches of any kind (hand_to) */
	int last_tid; /* tid of the previous event, for switch marks */
	bool preempt_pending; /* the next event of the new thread is a preemption */

	/* The candidates for the next step, valid unless dirty. */
	bool dirty;
	struct strat_candidate cand[RT_MAX_THREADS];
	int ncand;
	int solo; /* 1 + the slot of the only candidate, when it can complete; else 0 */

	struct sf_plan plan;
	const uint8_t *genome;
	size_t genome_size;
	const struct strat_methods *strat;
	void *strat_state[SF_KIND_COUNT];
	void *sstate; /* strat_state of the plan's kind */

	/* Change point counting for the strategy (strategy.h). */
	struct strat_counting counting;
	uint64_t locks; /* lock acquisitions so far */

	uint64_t fingerprint;
	struct rt_event trace[RT_TRACE_SIZE];

	bool reported;      /* a failure report has been printed */
	struct rt_result *result; /* shared with the explorer's parent, or local */
	uintptr_t exe_bias; /* load bias of the main executable */
	uintptr_t exe_lo, exe_hi; /* its mapped image: where globals live */
	/* Memory that is never the program's own shared state: libFuzzer's
	 * inline edge counters, which -fsanitize=fuzzer adds and TSan then
	 * instruments (or AFL++'s CmpLog map pointer, rt_driver.c). Accesses
	 * there are neither scheduling points nor events. */
	uintptr_t unwatched_lo, unwatched_size;
	/* Code whose memcpy, memmove and memset calls are not the program's
	 * accesses: an uninstrumented runtime's own bookkeeping (libomp's,
	 * rt_openmp.c), whose sizes depend on the machine, not the schedule. */
	uintptr_t quiet_code_lo, quiet_code_size;
	int cpu;            /* CPU the execution is pinned to, -1 if none */
	uint32_t spurious;  /* spurious wakeups injected in this execution */
};

extern struct rt_state rt RT_HIDDEN;
extern __thread struct rt_thread *rt_self RT_HIDDEN __attribute__((tls_model("local-exec")));
/* rt_self, or rt_nobody where it is NULL: the inline access check
 * (rt_own_mine, rt_inline.c) reads this one, so that it needs no test for
 * an uncontrolled thread. rt_nobody's tags match no granule, so that its
 * accesses take the slow path, which returns at once (its reads of memory
 * several threads read pass inline, as they would for any thread). Set
 * with rt_self, by rt_set_self only.
 *
 * The check compiled into the program (RT_INLINE_CONSTANTS) takes it for
 * a constant, so that a loop keeps it in a register: a thread's value
 * changes where no frame of the program's is live (the thread's start,
 * the execution's end) or in the runtime's calls, which mostly put it
 * back before they return. Where they do not (a forked child, ASan's
 * recover mode after a report) and a loop kept the old value, the thread
 * is not rt_self: the slow path (rt_abi.c, not_passed) makes no event of
 * its accesses. So is a frame that a coroutine library moves to another
 * thread (swapcontext, resumed elsewhere): such programs are not
 * supported. */
extern struct rt_thread rt_nobody RT_HIDDEN;
#ifdef RT_INLINE_CONSTANTS
extern __thread struct rt_thread *const rt_self_or_nobody RT_HIDDEN
	__attribute__((tls_model("local-exec")));
#else
extern __thread struct rt_thread *rt_self_or_nobody RT_HIDDEN
	__attribute__((tls_model("local-exec")));
static inline void rt_set_self(struct rt_thread *t)
{
	rt_self = t;
	rt_self_or_nobody = t ? t : &rt_nobody;
}
#endif

/* How many of t's call sites, innermost first, are still in its ring, at
 * most n, leaving out the frames below depth floor (the outermost, entered
 * from the runtime, when floor is 1); and the k-th of them. */
static inline uint32_t rt_ctx_count(const struct rt_thread *t, uint32_t floor, uint32_t n)
{
	if (floor < t->ctx_lost)
		floor = t->ctx_lost;
	uint32_t have = t->depth > floor ? t->depth - floor : 0;
	return have < n ? have : n;
}
static inline const void *rt_ctx_site(const struct rt_thread *t, uint32_t k)
{
	return t->ctx[(t->depth - 1 - k) & (RT_CTX_RING - 1)];
}
/* The thread while rt_self is cleared around the runtime's own work on it
 * that must not be controlled (rt_own_work_begin): a fatal signal there, a
 * stack overflow above all, is still that thread's failure (rt_signals.c). */
extern __thread struct rt_thread *rt_self_hidden RT_HIDDEN;

#ifndef RT_INLINE_CONSTANTS /* the runtime's own code only */
/* The runtime's own work on a program's thread (coverage, unwinding, a
 * fuzzer's hook, stdio): uncontrolled meanwhile, so its memory accesses
 * and calls are no events. Nests: an inner pair leaves the outer's thread. */
static inline struct rt_thread *rt_own_work_begin(void)
{
	struct rt_thread *self = rt_self;
	if (self)
		rt_self_hidden = self;
	rt_set_self(NULL);
	return self;
}

static inline void rt_own_work_end(struct rt_thread *self)
{
	rt_set_self(self);
	if (self)
		rt_self_hidden = NULL;
}
#endif

/* Only the part of a site that is the same in every process: an offset
 * into the executable, or nothing for code in shared libraries. */
static inline uint32_t rt_stable_site(const void *site)
{
	uintptr_t off = (uintptr_t)site - rt.exe_bias;
	return off < (1u << 30) ? (uint32_t)off : 0;
}

/* ---- rt_real.c: the real functions behind the interposed ones ---------- */

struct rt_real_fns {
	int (*pthread_create)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
	int (*pthread_join)(pthread_t, void **);
	int (*pthread_detach)(pthread_t);
	void (*pthread_exit)(void *) __attribute__((noreturn));
	int (*pthread_key_create)(pthread_key_t *, void (*)(void *));
	int (*pthread_key_delete)(pthread_key_t);
	int (*pthread_mutex_init)(pthread_mutex_t *, const pthread_mutexattr_t *);
	int (*pthread_mutex_destroy)(pthread_mutex_t *);
	int (*pthread_mutex_lock)(pthread_mutex_t *);
	int (*pthread_mutex_trylock)(pthread_mutex_t *);
	int (*pthread_mutex_timedlock)(pthread_mutex_t *, const struct timespec *);
	int (*pthread_mutex_clocklock)(pthread_mutex_t *, clockid_t, const struct timespec *);
	int (*pthread_mutex_unlock)(pthread_mutex_t *);
	int (*pthread_cond_init)(pthread_cond_t *, const pthread_condattr_t *);
	int (*pthread_cond_destroy)(pthread_cond_t *);
	int (*pthread_cond_wait)(pthread_cond_t *, pthread_mutex_t *);
	int (*pthread_cond_timedwait)(pthread_cond_t *, pthread_mutex_t *, const struct timespec *);
	int (*pthread_cond_clockwait)(pthread_cond_t *, pthread_mutex_t *, clockid_t,
				      const struct timespec *);
	int (*pthread_cond_signal)(pthread_cond_t *);
	int (*pthread_cond_broadcast)(pthread_cond_t *);
	int (*pthread_rwlock_init)(pthread_rwlock_t *, const pthread_rwlockattr_t *);
	int (*pthread_rwlock_destroy)(pthread_rwlock_t *);
	int (*pthread_rwlock_rdlock)(pthread_rwlock_t *);
	int (*pthread_rwlock_tryrdlock)(pthread_rwlock_t *);
	int (*pthread_rwlock_timedrdlock)(pthread_rwlock_t *, const struct timespec *);
	int (*pthread_rwlock_clockrdlock)(pthread_rwlock_t *, clockid_t, const struct timespec *);
	int (*pthread_rwlock_wrlock)(pthread_rwlock_t *);
	int (*pthread_rwlock_trywrlock)(pthread_rwlock_t *);
	int (*pthread_rwlock_timedwrlock)(pthread_rwlock_t *, const struct timespec *);
	int (*pthread_rwlock_clockwrlock)(pthread_rwlock_t *, clockid_t, const struct timespec *);
	int (*pthread_rwlock_unlock)(pthread_rwlock_t *);
	int (*pthread_spin_init)(pthread_spinlock_t *, int);
	int (*pthread_spin_destroy)(pthread_spinlock_t *);
	int (*pthread_spin_lock)(pthread_spinlock_t *);
	int (*pthread_spin_trylock)(pthread_spinlock_t *);
	int (*pthread_spin_unlock)(pthread_spinlock_t *);
	int (*pthread_barrier_init)(pthread_barrier_t *, const pthread_barrierattr_t *, unsigned);
	int (*pthread_barrier_destroy)(pthread_barrier_t *);
	int (*pthread_barrier_wait)(pthread_barrier_t *);
	int (*pthread_once)(pthread_once_t *, void (*)(void));
	int (*sem_init)(sem_t *, int, unsigned);
	int (*sem_destroy)(sem_t *);
	int (*sem_wait)(sem_t *);
	int (*sem_trywait)(sem_t *);
	int (*sem_timedwait)(sem_t *, const struct timespec *);
	int (*sem_clockwait)(sem_t *, clockid_t, const struct timespec *);
	int (*sem_post)(sem_t *);
	int (*sem_getvalue)(sem_t *, int *);
	int (*sched_yield)(void);
	unsigned (*sleep)(unsigned);
	int (*usleep)(useconds_t);
	int (*nanosleep)(const struct timespec *, struct timespec *);
	int (*clock_nanosleep)(clockid_t, int, const struct timespec *, struct timespec *);
	void (*exit)(int) __attribute__((noreturn));
	void (*assert_fail)(const char *, const char *, unsigned, const char *)
		__attribute__((noreturn));
	int (*cxa_guard_acquire)(uint64_t *);
	void (*cxa_guard_release)(uint64_t *);
	void (*cxa_guard_abort)(uint64_t *);
	void (*call_tls_dtors)(void);
	void *(*memcpy)(void *, const void *, size_t);
	void *(*memmove)(void *, const void *, size_t);
	void *(*memset)(void *, int, size_t);
};
extern struct rt_real_fns rt_real RT_HIDDEN;
RT_HIDDEN void rt_real_init(void);
#define REAL(fn) (RT_LIKELY(rt_real.fn != NULL) ? (void)0 : rt_real_init(), rt_real.fn)
/* The runtime's own copies must not reach our memcpy/memset hooks, which
 * would record them as the program's accesses. */
#define rt_memset(d, c, n) REAL(memset)((d), (c), (n))
#define rt_memcpy(d, s, n) REAL(memcpy)((d), (s), (n))

/* ---- rt_sched.c: the controlled scheduler ------------------------------ */

/* Start an execution under plan; the calling thread becomes tid 0. */
/* t's stack bounds for the main thread: read from /proc once a process. */
RT_HIDDEN void rt_main_stack_lookup(struct rt_thread *t);
RT_HIDDEN void rt_exec_begin(const uint8_t *genome, size_t genome_size, bool harness);
/* End it: reap threads, forget objects, leave the caller uncontrolled. */
RT_HIDDEN void rt_exec_end(void);

/* Record an event by self at site, then let the schedule decide who runs.
 * Returns when self is picked again. */
RT_HIDDEN void rt_point(struct rt_thread *self, enum rt_ev ev, uintptr_t addr,
			struct rt_obj *obj, uint32_t size, const void *site);
/* Block self until its wait (set in self->wait...) can complete. Returns 0,
 * or ETIMEDOUT when a timed wait was picked to time out. */
RT_HIDDEN int rt_block(struct rt_thread *self, enum rt_ev ev, const void *site);
/* The same, with the event's address given (a wait on no rt_obj). */
RT_HIDDEN int rt_block_at(struct rt_thread *self, enum rt_ev ev, uintptr_t addr,
			  const void *site);
/* A state change may have enabled or disabled threads. */
static inline void rt_changed(void) { rt.dirty = true; }
/* Can t's pending operation complete now? */
RT_HIDDEN bool rt_can_complete(const struct rt_thread *t);
/* A decision among n >= 2 options other than a pick. */
RT_HIDDEN uint32_t rt_choose(enum strat_choice what, uint32_t n);
/* Self made progress: a write, a change of sync state, a fresh read. A
 * thread held off after an asynchronous preemption got past whatever it
 * spun on, so it is held off no longer. */
static inline void rt_progress(struct rt_thread *self)
{
	self->progressed_at = rt.step;
	self->hold_until = 0;
	self->holds = 0;
	rt.retries = 0;
	rt.retry_switches = 0;
}
/* A try-operation (trylock, trywait, tryjoin): a scheduling point that is
 * progress only if the caller then says so with rt_progress. */
RT_HIDDEN void rt_point_try(struct rt_thread *self, enum rt_ev ev, struct rt_obj *obj,
			    const void *site);
/* Self is about to end the process (exit(), main's return): the other
 * live threads may run first, as under the OS. Returns once it is picked,
 * with the result published and the execution still running (exit
 * handlers run under control). */
RT_HIDDEN void rt_exit_point(struct rt_thread *self, const void *site);
/* From the watchdog's signal: self, running, reached no scheduling point
 * for a while at pc. Let the others run; returns when self is picked. */
RT_HIDDEN void rt_preempt_async(struct rt_thread *self, const void *pc);
/* Self was picked for the first time and starts running its function. */
RT_HIDDEN void rt_thread_started(struct rt_thread *self);
/* Self has finished: hand the CPU on, never to run again. */
RT_HIDDEN void rt_thread_finish(struct rt_thread *self);
RT_HIDDEN struct rt_thread *rt_thread_by_real(pthread_t th);
RT_HIDDEN void rt_held_add(struct rt_thread *t, struct rt_obj *o, bool write);
RT_HIDDEN int rt_held_drop(struct rt_thread *t, struct rt_obj *o); /* remaining count */
RT_HIDDEN struct rt_held *rt_held_find(struct rt_thread *t, struct rt_obj *o);
/* Per-thread setup a new controlled thread does on its own stack. */
RT_HIDDEN void rt_thread_setup(struct rt_thread *t);
/* The part of rt_thread_setup each thread on a kernel thread does again:
 * its CPU, its alternate signal stack. */
RT_HIDDEN void rt_thread_enter(void);
/* rt_pool.c: kernel threads kept across executions. rt_pool_start gives t
 * one (and its pthread_t) if it can: t->pool is set while t runs on one
 * that goes on after it; release: t is gone (finished, and joined or
 * detached). */
RT_HIDDEN bool rt_pool_start(struct rt_thread *t, const pthread_attr_t *attr);
RT_HIDDEN void rt_pool_release(struct rt_thread *t);
RT_HIDDEN void rt_pool_thread_exits(struct rt_thread *t);
RT_HIDDEN void rt_pool_exec_end(void);
RT_HIDDEN void rt_thread_run_pooled(struct rt_thread *t);
/* rt_thread.c: the keys that hold a value in the calling kernel thread
 * before any thread of the program ran on it are its own, not a thread's. */
RT_HIDDEN void rt_keys_of_kernel_thread(void);
/* rt_tls.c: the calling thread's TLS back to its initial images. */
RT_HIDDEN bool rt_tls_resettable(void);
RT_HIDDEN void rt_tls_check(void);
RT_HIDDEN void rt_tls_reset(void);
RT_HIDDEN void rt_cancel_defaults(void);
RT_HIDDEN void rt_signal_mask_set(const sigset_t *mask);
/* rt_kill.c: a thread of the runtime's own (watchdog, pool), started with
 * every signal blocked, so that no signal meant for the program lands
 * on it. */
RT_HIDDEN int rt_create_unsignalled(pthread_t *th, void *(*fn)(void *), void *arg);
RT_HIDDEN void rt_futex_wait(_Atomic uint32_t *word, uint32_t val);
RT_HIDDEN void rt_futex_wake(_Atomic uint32_t *word);
RT_HIDDEN void rt_park(_Atomic uint32_t *go);

/* The memory-access slow path (rt_abi.c inlines the fast checks). */
RT_HIDDEN void rt_access(struct rt_thread *self, uintptr_t addr, uint32_t size, bool write,
			 const void *site);
/* An atomic load's point, before the load (rt_abi.c): wherever it is, a
 * fresh read is progress. */
RT_HIDDEN void rt_atomic_load_point(struct rt_thread *self, uintptr_t addr, uint32_t size,
				    const void *site);

/* ---- the modelled operations, shared by the pthread and C11 entry points */

enum rt_how { HOW_BLOCK, HOW_TRY, HOW_TIMED };
RT_HIDDEN int rt_thread_create(struct rt_thread *self, pthread_t *th, const pthread_attr_t *attr,
			       void *(*fn)(void *), int (*c11_fn)(void *), void *arg,
			       const void *site);
RT_HIDDEN int rt_thread_join(struct rt_thread *self, pthread_t th, void **ret, enum rt_how how,
			     const void *site);
RT_HIDDEN int rt_thread_detach(struct rt_thread *self, pthread_t th);
/* t will never be named again (finished, and joined or detached, holding
 * no lock): its slot may take a new thread. */
RT_HIDDEN void rt_release_slot(struct rt_thread *t);
RT_HIDDEN RT_NORETURN void rt_thread_exit(struct rt_thread *self, void *retval, const void *site);
RT_HIDDEN int rt_key_create(pthread_key_t *key, void (*dtor)(void *));
RT_HIDDEN int rt_mutex_lock(struct rt_thread *self, pthread_mutex_t *m, enum rt_how how,
			    const struct timespec *abs, const void *site);
RT_HIDDEN int rt_mutex_unlock(struct rt_thread *self, pthread_mutex_t *m, const void *site);
RT_HIDDEN int rt_mutex_destroy(struct rt_thread *self, pthread_mutex_t *m);
RT_HIDDEN int rt_cond_wait(struct rt_thread *self, pthread_cond_t *c, pthread_mutex_t *m,
			   const struct timespec *abs, bool timed, const void *site);
RT_HIDDEN int rt_cond_wake(struct rt_thread *self, pthread_cond_t *c, bool all, const void *site);
RT_HIDDEN int rt_cond_destroy(struct rt_thread *self, pthread_cond_t *c);
RT_HIDDEN int rt_once(struct rt_thread *self, pthread_once_t *once, void (*init)(void),
		      const void *site);
RT_HIDDEN void rt_yield(struct rt_thread *self, enum rt_ev ev, const void *site);
RT_HIDDEN bool rt_timespec_valid(const struct timespec *ts);

/* ---- rt_external.c: waits on conditions outside the runtime's objects ------
 *
 * A thread blocked on something the runtime does not own (a file
 * descriptor, a futex word, a child process, a signal) waits in W_EXTERNAL
 * on an rt_ext that says, without blocking, whether the wait can end now.
 * The ext lives on the waiter's stack for the duration of the wait. */

struct rt_ext;
struct rt_ext_ops {
	/* Can the wait end now? Never blocks (a zero-timeout poll, a flag). */
	bool (*ready)(struct rt_ext *e);
	/* What it waits for, for reports: "read on pipe fd 5". */
	void (*describe)(const struct rt_ext *e, char *buf, size_t cap);
	/* Can nothing but this execution's threads make it ready? Then, when
	 * none can run, the wait is part of a deadlock; otherwise the runtime
	 * really waits (the kernel, another process, the clock). Asked only
	 * when no thread can run; NULL: never. */
	bool (*internal)(const struct rt_ext *e);
};
struct rt_ext {
	const struct rt_ext_ops *ops;
	/* The kernel, not the runtime, decides when it is ready (a descriptor,
	 * a child process), so readiness may change without a call of ours;
	 * false for runtime-owned state (a futex word's waiters). */
	bool kernel;
	/* The descriptors to really wait on when no thread can run (none: the
	 * runtime naps and asks ready() again). */
	struct pollfd *pfd;
	int npfd;
	uintptr_t addr; /* memory the wait is on (a futex word), named in reports; 0: none */
	/* A POSIX cancellation point (read, write, poll...; not a futex):
	 * a pending cancel ends the wait, and the caller acts on it. */
	bool cancel_point;
	/* Set (then rt_changed) by whoever ends the wait early, a cancellation
	 * or a signal: the thread becomes a candidate and rt_ext_block
	 * returns EINTR. */
	bool interrupted;
};
/* Block self on e (timed: the schedule may end the wait by a timeout).
 * Records ev when the wait ends. Returns 0, ETIMEDOUT, or EINTR when
 * e->interrupted was set. */
RT_HIDDEN int rt_ext_block(struct rt_thread *self, struct rt_ext *e, bool timed, enum rt_ev ev,
			   uintptr_t addr, const void *site);
/* No thread can run: really wait until a polled wait becomes ready and
 * return true, or return false when a deadlock is certain. Reports a hang
 * when the execution runs out of time meanwhile. */
RT_HIDDEN bool rt_ext_idle(void);
/* Something a W_EXTERNAL wait may depend on changed (a write, a close). */
static inline void rt_ext_changed(void)
{
	if (rt.npolled)
		rt.dirty = true;
}

/* rt_openmp.c: an iteration of a harness ends; libomp's worker pool ends
 * with it, under control. */
RT_HIDDEN void rt_openmp_iteration_end(void);
/* rt_openmp.c: an execution begins (outside it): libomp's serial
 * initialisation, in the process that runs the execution. */
RT_HIDDEN void rt_openmp_exec_begin(void);
/* rt_openmp.c: an OpenMP runtime is linked (its synchronisation is out of
 * the runtime's sight: no race detection). */
RT_HIDDEN bool rt_openmp_present(void);
/* rt_openmp.c: the process ends with the exiting thread still controlled:
 * libomp's workers are joined now, under control. */
RT_HIDDEN void rt_openmp_process_end(void);

/* ---- rt_objects.c: shadow state keyed by address ------------------------ */

RT_HIDDEN struct rt_obj *rt_obj_get(const void *addr, enum rt_otype type);
RT_HIDDEN struct rt_obj *rt_obj_find(const void *addr);
RT_HIDDEN void rt_obj_forget(const void *addr);
RT_HIDDEN void rt_obj_freed(uintptr_t lo, uintptr_t hi);
/* Whether o, looked up for addr before a scheduling point, is still the
 * object there (a use of freed memory is reported); if not, the caller
 * looks addr up again, which reports a destroyed object. */
RT_HIDDEN bool rt_obj_still(struct rt_obj *o, uintptr_t addr);
RT_HIDDEN void rt_obj_reset_all(void);

/* ---- rt_vars.c: variables for PCTVB (globals and heap allocation sites) */

/* Start an execution: track variables if the plan counts their accesses. */
RT_HIDDEN void rt_vars_begin(void);
/* A memory event by self at addr, while the plan counts variables. */
RT_HIDDEN void rt_vars_access(struct rt_thread *self, uintptr_t addr);
/* Keep the counted variables' memory shared in the ownership shadow, so
 * that every access to them is a point: as the execution's shadow starts
 * and after each settling (rt_own.c), and for each new block of a counted
 * allocation site [lo, hi) (rt_heap.c). */
RT_HIDDEN void rt_vars_watch(void);
RT_HIDDEN void rt_vars_allocated(uintptr_t lo, uintptr_t hi, uint32_t site);
/* The execution's variables, for the explorer's estimates. */
RT_HIDDEN void rt_vars_profile(struct sf_estimates *out);
/* rt_roles.c: threads by start routine, for FOCUS's roles. */
RT_HIDDEN void rt_roles_begin(struct rt_thread *t0);
RT_HIDDEN void rt_roles_created(struct rt_thread *t);
RT_HIDDEN void rt_roles_ended(const struct rt_thread *t);
RT_HIDDEN void rt_roles_profile(struct sf_estimates *out);

/* ---- rt_mutate.c: libFuzzer's custom mutator ---------------------------- */

/* Fold one execution's counts into what the mutators write into genomes:
 * libFuzzer's in this process, AFL++'s through SCHEDFUZZ_ESTIMATES. */
RT_HIDDEN void rt_mutate_learn(const struct sf_estimates *run);
/* A change point stream's count reached its mark: let the strategy act. */
RT_HIDDEN void rt_fire(int stream, uint64_t count, struct rt_thread *self);

/* ---- rt_cov.c: interleaving coverage, to the fuzzers and the report ---- */

/* Read SCHEDFUZZ_COVERAGE and friends; exits with a one-line reason. */
RT_HIDDEN void rt_cov_init(void);
/* What ev is to HaPSet's conflict rules (enum cov_op), or COV_OP_COUNT. */
RT_HIDDEN int rt_cov_op(enum rt_ev ev, const struct rt_obj *obj);
/* Self's call context as HaPSet statements carry it; returns how many. */
RT_HIDDEN uint8_t rt_cov_context(const struct rt_thread *self, uint32_t ctx[4]);
/* A pair of racing sites, by its key: one more feature (rt_race_report.c). */
RT_HIDDEN void rt_cov_race(uint64_t key);

/* ---- rt_search.c: the log a systematic search reads ------------------------ */

/* Coverage's HaPSet pair, added to the transition just logged. */
RT_HIDDEN void rt_search_hapset(uint64_t pair);

/* ---- rt_watchdog.c: time, and code the runtime cannot see -------------------
 *
 * A thread outside the schedule watches every execution: when the running
 * thread reaches no scheduling point for SCHEDFUZZ_STALL_MS while others
 * could run, it is preempted asynchronously; when the execution runs out
 * of time, the running thread is made to report the hang. */

/* An execution starts and ends (the watchdog's thread starts with the
 * first execution of a process). */
RT_HIDDEN void rt_watchdog_begin(void);
RT_HIDDEN void rt_watchdog_end(void);
/* Under libFuzzer: the deadline is 3/4 of its -timeout, not SCHEDFUZZ_TIMEOUT. */
RT_HIDDEN void rt_watchdog_libfuzzer(void);
/* Has this execution run out of time? After how long: */
RT_HIDDEN bool rt_watchdog_expired(void);
RT_HIDDEN uint64_t rt_watchdog_deadline_ms(void);
/* Is this return address (or pc + 1) in the runtime's own code? */
RT_HIDDEN bool rt_in_runtime_code(const void *pc);
/* Is this return address (or pc + 1) in the main executable (the program's
 * code or the runtime's, not a shared library's)? */
static inline bool rt_in_executable(const void *pc)
{
	return (uintptr_t)pc - 1 - rt.exe_lo < rt.exe_hi - rt.exe_lo;
}
/* rt_artifact.c: the engine's input of this execution (libFuzzer's bytes),
 * and the file the engine saves it to when it fails; false if unknown. */
RT_HIDDEN void rt_artifact_input(const uint8_t *data, size_t size);
RT_HIDDEN bool rt_artifact_path(char *out, size_t cap);
RT_HIDDEN void rt_sha1_hex(const uint8_t *data, size_t size, char out[41]);
/* rt_caller.c: backtrace(3) of the calling thread, uncontrolled meanwhile;
 * and the program's innermost frame outside the runtime (NULL if none),
 * with *entry the runtime's entry point it called (NULL if unknown). */
RT_HIDDEN int rt_backtrace(void **frames, int n);
RT_HIDDEN const void *rt_program_caller(const char **entry);
/* What the deadline was taken from, for reports ("SCHEDFUZZ_TIMEOUT=30"). */
RT_HIDDEN const char *rt_watchdog_deadline_source(void);
/* Say that schedules of this run (first: the first of them) were
 * preempted asynchronously, where, and what follows for replays. */
RT_HIDDEN void rt_watchdog_note(const struct rt_result *first, uint64_t schedules, uint64_t of);
/* An explorer's count of such schedules, said once at its end. */
struct rt_async_tally {
	uint64_t schedules;
	struct rt_result first;
};
static inline void rt_async_count(struct rt_async_tally *t, const struct rt_result *r)
{
	if (r->async && t->schedules++ == 0)
		t->first = *r;
}
static inline void rt_async_say(const struct rt_async_tally *t, uint64_t of)
{
	if (t->schedules)
		rt_watchdog_note(&t->first, t->schedules, of);
}

/* ---- rt_afl.c ----------------------------------------------------------- */

/* The test case afl-fuzz delivered through shared memory, if any. */
RT_HIDDEN bool rt_afl_input(const uint8_t **data, size_t *size);

/* ---- rt_heap.c: heap blocks and their allocation sites ------------------- */

/* Record allocations (while a plan counts variables) or not. */
RT_HIDDEN void rt_heap_track(bool on);
/* The allocation site (an offset in the executable, or 0 outside it) and
 * the start of the tracked live block holding addr; false if none. */
RT_HIDDEN bool rt_heap_block(uintptr_t addr, uint32_t *site, uintptr_t *start);
/* The same with the block's end. */
RT_HIDDEN bool rt_heap_block_of(uintptr_t addr, uintptr_t *lo, uintptr_t *hi, uint32_t *site);
/* Whether this allocation or free is to be recorded: tracking is on and a
 * controlled thread of a running execution made it. */
RT_HIDDEN bool rt_heap_tracking(void);
RT_HIDDEN void rt_heap_remember(const void *p, size_t size, const void *site);
RT_HIDDEN void rt_heap_forget(const void *p);
/* Mark every tracked live block of allocation site site shared in the
 * ownership shadow (rt_vars_watch). */
RT_HIDDEN void rt_heap_share_site(uint32_t site);
/* ... or forgotten there (untouched: its next user owns it afresh), when
 * its variable is watched no longer (rt_vars.c, retire). */
RT_HIDDEN void rt_heap_forget_site(uint32_t site);
/* rt_heap_alloc.c or rt_heap_asan.c: make allocations reach the above. */
RT_HIDDEN void rt_heap_install_hooks(void);
/* A harness's input ended (its threads too): what the allocator kept of it
 * may go. */
RT_HIDDEN void rt_heap_input_ended(void);
/* Before the first fork of executions: what each child would otherwise
 * fault in afresh (the ASan mode: the program's writable globals, which
 * LeakSanitizer reads through at every exit). */
RT_HIDDEN void rt_heap_before_forks(void);
/* rt_heap_log.c (default mode): controlled threads' allocations and frees
 * this execution, for reports only. A freed block: */
struct rt_freed {
	uintptr_t start, size;
	uint64_t step;    /* freed after this step */
	const void *site; /* by this call */
	int tid;          /* of this thread */
};
RT_HIDDEN void rt_heap_log_reset(void);
RT_HIDDEN void rt_heap_log_alloc(const void *p);
RT_HIDDEN void rt_heap_log_free(const void *p, size_t size, const void *site);
/* Was addr, at event step, in a block freed (and not allocated again)? */
RT_HIDDEN bool rt_heap_log_freed(uintptr_t addr, uint64_t step, struct rt_freed *out);
/* The frees made right after event step (at most max). */
RT_HIDDEN int rt_heap_log_frees_after(uint64_t step, struct rt_freed *out, int max);
/* The calling thread's number in ASan's reports (its "T353"), -1 without ASan. */
RT_HIDDEN int rt_heap_sanitizer_tid(void);
/* rt_heap_freed.c, for rt_heap_alloc.c: the blocks controlled threads
 * freed in this execution. A new execution forgets them all; an
 * allocation that returns p forgets p. */
RT_HIDDEN void rt_heap_freed_reset(void);
RT_HIDDEN void rt_heap_freed_reused(const void *p);
/* The thread that freed p in this execution, if nothing reused it since;
 * else -1. And: thread tid frees p (the same answer, and p is remembered
 * if it was -1). */
RT_HIDDEN int rt_heap_freed_by(const void *p);
RT_HIDDEN int rt_heap_freed_remember(const void *p, int tid);
/* Say that call() freed a block twice (glibc let it pass), and abort. */
RT_HIDDEN RT_NORETURN void rt_heap_double_free(const char *call, int first_tid);

/* A variable as reports name it, the same in every process:
 *   'g' a global: its offset in the executable;
 *   'h' a heap field: the allocation site and the offset in the block;
 *   'm' other memory (another thread's stack, mmap): first_site, the site
 *       the caller saw touch it first. */
struct rt_var_id {
	char kind;
	uint32_t a, b;
};
RT_HIDDEN struct rt_var_id rt_var_of(uintptr_t addr, uint32_t first_site);

/* ---- rt_report.c: failures ---------------------------------------------- */

RT_HIDDEN RT_NORETURN void rt_fail(enum rt_fail_kind kind, const void *site, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
RT_HIDDEN RT_NORETURN void rt_fail_deadlock(void);
/* Show this stack of thread tid (return addresses, innermost first) with
 * the report about to be made. */
#define RT_STACK_MAX 16
RT_HIDDEN void rt_report_stack(int tid, void *const *pcs, int n);
/* t's innermost call sites (at most RT_CTX_DEPTH), the runtime's left out:
 * what reports show of a thread's stack. */
RT_HIDDEN int rt_report_call_sites(const struct rt_thread *t, const void **out);
/* Retries without progress passed their limit: a livelock if threads took
 * turns, or out of time if the watchdog lowered the limit. */
RT_HIDDEN void rt_livelock_limit_passed(void);
/* The execution ran out of time while self, the running thread, was
 * outside the runtime at pc (from the watchdog's signal). */
RT_HIDDEN RT_NORETURN void rt_fail_timeout_at(const void *pc);
/* From the watchdog's own thread: the running thread did not answer. */
RT_HIDDEN RT_NORETURN void rt_fail_stuck(void);
/* A call the runtime cannot model: one line, then exit with status 3. */
RT_HIDDEN RT_NORETURN void rt_unsupported(const char *what, const char *why);
/* The fatal-signal handlers (on alternate stacks), and the calling
 * thread's alternate stack: call it in every thread that runs an execution. */
RT_HIDDEN void rt_signals_install(void);
/* Where a signal interrupted the thread (its ucontext), as a site: one
 * past the instruction. NULL if unknown. */
RT_HIDDEN const void *rt_signal_pc(void *uctx);
/* The stack of the calling thread, interrupted by a signal at pc (a site:
 * one past the instruction), from there outward: frames[0] is pc. 0 if
 * unwinding did not reach it. */
RT_HIDDEN int rt_interrupted_stack(const void *pc, void **frames, int max);
/* Report a failure that another runtime diagnosed, if it is ours (a
 * controlled thread of a running execution) and the first; the caller
 * sees to it that the process ends. */
RT_HIDDEN void rt_report_foreign(enum rt_fail_kind kind, const char *msg);
/* The same with the site it happened at (a fatal signal's pc). */
RT_HIDDEN void rt_report_foreign_at(enum rt_fail_kind kind, const void *site, const char *msg);
RT_HIDDEN RT_NORETURN void rt_die(void);

/* ---- rt_altstack.c: where signal handlers run ----------------------------- */

/* Give the calling thread an alternate signal stack big enough for a
 * report, if it has none as big; it goes back to a pool as the thread
 * ends. Idempotent. */
RT_HIDDEN void rt_altstack_setup(void);

/* ---- rt_sanitizer.c: beside ASan and UBSan ------------------------------- */

RT_HIDDEN void rt_sanitizer_install(void);

/* ---- rt_symbolize.c ---------------------------------------------------- */

struct rt_sym {
	char text[160];  /* code: "file.c:12"; data: the variable's name; "" unknown */
	char func[96];   /* code: the function */
	uintptr_t start; /* data: where the variable starts (module offset) */
	uintptr_t offset; /* data: the address's offset into the variable */
};
/* Symbolize n addresses at once (code or data); unknown ones get "?". */
RT_HIDDEN void rt_symbolize(const uintptr_t *addrs, const bool *is_data, struct rt_sym *out, int n);

/* ---- rt_driver.c --------------------------------------------------------- */

/* The explorers' children: one execution each, in a fork. */
struct rt_child {
	int status;
	bool failed, timed_out, setup_error;
};
/* rt_findings.c: what the explorers say about a failure, and which
 * failures they pass over (--exit-ok, a leak every schedule shows). */
RT_HIDDEN bool rt_exit_ok(int status);
RT_HIDDEN void rt_exit_ok_init(void);
RT_HIDDEN void rt_exit_ok_all(void);
struct rt_child;
/* RT_PASS: no failure, or one passed over (it clears c->failed); RT_KNOWN:
 * one shown schedule-independent before; RT_NEW: to be kept. */
enum rt_judgement { RT_PASS, RT_KNOWN, RT_NEW };
RT_HIDDEN enum rt_judgement rt_findings_judge(struct rt_child *c, const struct rt_result *r);
/* After the "failed:" line: run the input under other schedules. 0: the
 * failure depends on the interleaving (or nothing can tell); 1: it does
 * not; 2: it does not and is a leak the search goes on past. */
RT_HIDDEN int rt_findings_probe(const struct rt_result *first, const struct rt_child *c,
				const uint8_t *input, size_t size, const char *path, int argc,
				char **argv, char **envp, struct rt_result *shared,
				unsigned timeout);
/* The end of a search without a failure that stopped it: what was passed
 * over. True when it reported a failure (a leak passed over). */
RT_HIDDEN bool rt_findings_summary(uint64_t runs, uint64_t seed, uint64_t failures,
				   bool keep_going, bool say_none);
RT_HIDDEN void rt_findings_warm_symbolizer(void);
/* Where the explorer keeps its last quiet child's output (-1: nowhere). */
extern int rt_kept_output RT_HIDDEN;
RT_HIDDEN struct rt_child rt_run_child(const uint8_t *input, size_t size, int argc, char **argv,
				       char **envp, struct rt_result *shared, int quiet_fd,
				       unsigned timeout);
RT_HIDDEN const char *rt_describe_child(const struct rt_child *c, const struct rt_result *r);
/* Write an input into dir as <prefix>-<hash>; its path into path. */
/* Run a saved input (at path) once more in a fresh child, its output
 * shown on stderr after "replaying it:". */
RT_HIDDEN struct rt_child rt_replay_shown(const uint8_t *input, size_t size, const char *path,
					  int argc, char **argv, char **envp,
					  struct rt_result *shared, unsigned timeout);
RT_HIDDEN int rt_save_input(const char *dir, const char *prefix, const uint8_t *input, size_t size,
			    char *path, size_t cap);
/* What a child that could not run printed (kept in quiet_fd). */
RT_HIDDEN void rt_show_child_output(int quiet_fd);
/* The child just run failed: say which schedule (index of runs) and how,
 * save its input in out, replay it and print its path. -1 if unsaved,
 * else what rt_findings_probe said. */
RT_HIDDEN int rt_keep_failure(const struct rt_child *c, uint64_t index, uint64_t runs,
			      const char *out, const uint8_t *input, size_t size, int argc,
			      char **argv, char **envp, struct rt_result *shared, unsigned timeout);
/* Replay it in a fresh child and say whether it failed the same way. */
RT_HIDDEN void rt_replay_check(const uint8_t *input, size_t size, const char *path,
			       const struct rt_result *first, int argc, char **argv, char **envp,
			       struct rt_result *shared, unsigned timeout);
RT_HIDDEN uint64_t rt_env_u64(const char *name, uint64_t dflt);
RT_HIDDEN const char *rt_env_str(const char *name);
/* NAME's value in the environment the process started with, or NULL. */
RT_HIDDEN const char *rt_env_initial(const char *name);
RT_HIDDEN uint8_t *rt_read_file(const char *path, size_t *size);
/* rt_search_explore.c: the systematic search's explorer. */
/* A log in memory shared with the children, NULL if it cannot be mapped;
 * the schedule of decisions d[0..n) as an input: an explicit genome whose
 * default is fair (SF_FLAG_FAIR; malloc'ed, NULL when it does not fit). */
RT_HIDDEN struct sx_log *rt_search_map_log(bool want_hapset);
RT_HIDDEN uint8_t *rt_search_encode(const struct sf_decision *d, uint32_t n, size_t *size);
RT_HIDDEN int rt_search_explore(const char *spec, uint64_t runs, int argc, char **argv,
				char **envp);

RT_HIDDEN void rt_init(void);
extern int rt_main_argc RT_HIDDEN;
extern char **rt_main_argv RT_HIDDEN;
/* Publish how the execution ended (and write the observers' files). */
RT_HIDDEN void rt_result_publish(enum rt_fail_kind fail);
/* rt_outfile.c: a file written at the end, opened now (*fd, -1 until then;
 * 0 or -errno, after a one-line reason); and a stream that rewrites it. */
RT_HIDDEN int rt_outfile_open(const char *path, int *fd);
RT_HIDDEN FILE *rt_outfile_rewrite(const char *path, int *fd, const char *mode);

#endif
