/* clone_thread: a thread made with clone(CLONE_THREAD) behind the
 * runtime's back: one clear line, and the run stops as unsupported. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>

static int body(void *arg)
{
	return arg != NULL;
}

int main(void)
{
	static char stack[64 << 10];
	int flags = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD;
	return clone(body, stack + sizeof stack, flags, NULL) < 0;
}
