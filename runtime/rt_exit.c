/* rt_exit.c - the last scheduling point of a process that ends while
 * other threads of the program still run.
 *
 * exit(), main's return and an exit() from any other thread are a
 * scheduling point where they are called (rt_exit_point). Then glibc
 * runs the atexit, on_exit and __cxa_atexit handlers (C++ static
 * destructors among them) and the executable's destructors on the
 * exiting thread, which is still controlled: their accesses are
 * scheduling points like any other. But natively the other threads go
 * on running until the kernel ends them at _exit, after the handler's
 * last write too; without a point after it, no schedule would let them
 * see what the last handler did (a table it freed and set to NULL while
 * a detached worker still uses it). glibc calls _exit internally, past
 * any interposition, so the point is this destructor: of the lowest
 * priority, it runs after every other destructor of the executable and
 * every handler the program registered (glibc runs the executable's
 * destructors from the handler it registered before main's
 * constructors ran, so after all of the program's own). Left out: the
 * destructors of shared libraries, which run after it, and a harness's
 * exit (the engine's business).
 *
 * In the ASan mode LeakSanitizer's exit-time check runs first, from the
 * executable's own destructors, and takes the exiting thread out of
 * control for good (rt_sanitizer.c): the last point is made there, before
 * it, and libomp's workers are joined under control then too. */
#define _GNU_SOURCE
#include "rt_internal.h"
#include "rt_lifecycle.h"

void rt_exit_last_point(void)
{
	struct rt_thread *self = rt_modelled_self();
	if (!self || rt.harness)
		return;
	/* Alone, the process just ends: no event, so that a program that
	 * joined its threads runs the same events as before. */
	bool others = false;
	for (int i = 0; i < rt.nthreads && !others; i++)
		others = &rt.threads[i] != self && rt.threads[i].state == T_LIVE;
	if (others)
		rt_point(self, EV_PROC_EXIT, 0, NULL, 0, NULL);
}

__attribute__((destructor(101))) static void last_point(void)
{
	rt_exit_last_point();
}
