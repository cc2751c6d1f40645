/* rt_caller.c - the program's side of a call into the runtime: which of
 * its sites called, and which of our entry points it called, found by
 * unwinding. For reports about a call's arguments (a NULL mutex), which
 * belong at the program's call, not inside the model that noticed. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>

#include "rt_internal.h"

int rt_backtrace(void **frames, int n)
{
	/* Uncontrolled meanwhile: the unwinder's own pthread_once is no
	 * scheduling point. */
	struct rt_thread *self = rt_own_work_begin();
	int got = backtrace(frames, n);
	rt_own_work_end(self);
	return got;
}

const void *rt_program_caller(const char **entry)
{
	void *frames[48];
	int n = rt_backtrace(frames, 48);
	*entry = NULL;
	for (int i = 1; i < n; i++) {
		if (rt_in_runtime_code(frames[i]))
			continue;
		/* frames[i - 1] returns into the entry point it called. */
		Dl_info info;
		if (dladdr((char *)frames[i - 1] - 1, &info) && info.dli_sname)
			*entry = info.dli_sname;
		return frames[i];
	}
	return NULL;
}
