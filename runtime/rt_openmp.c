/* rt_openmp.c - LLVM's OpenMP runtime (libomp) under control.
 *
 * libomp's worker threads are created by pthread_create, so in an
 * execution they are controlled threads; their waits are condition
 * variables, futexes through syscall() and sched_yield loops, all
 * modelled. Two things need help:
 *   - A worker that finishes its share spins (yielding) for KMP_BLOCKTIME
 *     (200 ms of real time by default) before it sleeps. Under control
 *     those spins are thousands of scheduling points of nothing, so the
 *     runtime sets KMP_BLOCKTIME=0 (sleep at once) when the program did
 *     not set it. The interleavings of the program's own code are the
 *     same; only libomp's spinning is skipped.
 *   - libomp keeps its workers in a pool across parallel regions, so they
 *     outlive a libFuzzer iteration, whose end waits for every thread it
 *     created (docs/design/architecture.md, decision 4: only threads created inside an iteration
 *     are controlled). At the end of each iteration the runtime makes
 *     libomp release its resources (omp_pause_resource_all with
 *     omp_pause_hard, OpenMP 5.0): the workers are joined under control,
 *     and the next iteration's first parallel region creates new ones.
 *   - Locks (critical sections, omp_lock_t) default to libomp's futex
 *     locks (KMP_LOCK_KIND=futex), whose waits are modelled futexes and
 *     whose state lives in the lock's own word: the default queuing locks
 *     of critical sections are allocated by libomp and freed by the hard
 *     pause below, after which a critical section would use freed memory.
 *   - libomp's serial initialisation is made outside executions, and its
 *     own memcpy and memset calls are no events (rt.quiet_code_lo): their
 *     sizes follow the machine (processors, affinity), not the schedule,
 *     and would make a replay elsewhere differ. It is made by the process
 *     that runs the execution, not by a constructor: an explorer forks its
 *     children from a process that never runs the program, and libomp's
 *     fork handler in the child abandons what the parent initialised,
 *     which LeakSanitizer then reports (39,200 bytes in 30 blocks for a
 *     parallel loop).
 *   - In the ASan mode LeakSanitizer's exit-time check takes the exiting
 *     thread out of control (rt_sanitizer.c) before libomp's destructor
 *     joins its workers, which only the schedule can run: they are joined
 *     just before, under control, by the same hard pause.
 * GCC's libgomp waits with futexes issued by inline assembly, which the
 * runtime cannot see: its programs are kept running by the watchdog only
 * (docs/blocking.md). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdlib.h>

#include "rt_internal.h"

static int (*pause_all)(int);
static int (*max_threads)(void);

/* libomp's serial initialisation (reading its environment variables,
 * copying strings whose addresses depend on the environment's layout) is
 * made here, outside any execution: inside one its copies would be
 * events, and their number would differ between an explorer's child and
 * a replay. */
static void initialise(void)
{
	struct rt_thread *self = rt_own_work_begin();
	max_threads();
	rt_own_work_end(self);
}

/* The executable segment of the object that holds addr. */
static int find_text(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	uintptr_t addr = *(uintptr_t *)data;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && addr - lo < ph->p_memsz) {
			rt.quiet_code_lo = lo;
			rt.quiet_code_size = ph->p_memsz;
			return 1;
		}
	}
	return 0;
}

__attribute__((constructor)) static void openmp_defaults(void)
{
	setenv("KMP_BLOCKTIME", "0", 0);
	setenv("KMP_LOCK_KIND", "futex", 0);
	/* libomp's own entry point: GCC's libgomp has no hard pause. */
	void *fork_call = dlsym(RTLD_DEFAULT, "__kmpc_fork_call");
	if (!fork_call)
		return;
	uintptr_t addr = (uintptr_t)fork_call;
	dl_iterate_phdr(find_text, &addr);
	pause_all = (int (*)(int))dlsym(RTLD_DEFAULT, "omp_pause_resource_all");
	max_threads = (int (*)(void))dlsym(RTLD_DEFAULT, "omp_get_max_threads");
}

bool rt_openmp_present(void)
{
	static int present = -1;
	if (present < 0)
		present = dlsym(RTLD_DEFAULT, "__kmpc_fork_call") || dlsym(RTLD_DEFAULT, "GOMP_parallel");
	return present;
}

void rt_openmp_exec_begin(void)
{
	if (pause_all && max_threads)
		initialise(); /* at once once libomp is initialised */
}

void rt_openmp_process_end(void)
{
	if (pause_all && max_threads && rt.ncreated > 1)
		pause_all(2 /* omp_pause_hard */);
}

void rt_openmp_iteration_end(void)
{
	if (!pause_all || !max_threads || rt.ncreated == 1)
		return;
	pause_all(2 /* omp_pause_hard: the workers are joined, under control */);
	initialise(); /* for the next iteration, as before the first */
}
