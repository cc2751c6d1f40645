/* rt_warn.c - warnings about undefined behaviour that glibc survives: a
 * second join, an unlock of a mutex nobody holds, and their family. The
 * runtime answers as glibc 2.36 does and the execution goes on; a stop
 * would hide every bug behind the first such call.
 *
 * A warning is printed when first seen, with its site as file:line. Which
 * ones were printed is kept in memory shared with the explorer's
 * children (mapped before the first fork), so a run of thousands of
 * schedules prints each once, on the stderr the process started with (an
 * explorer's child writes its own output to a file shown only with a
 * failure). Each execution also keeps its own, which a failure's report
 * lists. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rt_libc.h"
#include "rt_warn.h"

#define SEEN_MAX 512 /* distinct warnings remembered: past that, printed again */
#define EXEC_MAX 16  /* warnings one execution keeps for its report */

/* (site, message) keys printed so far: 0 is a free slot. */
static _Atomic uintptr_t *seen;

static struct {
	const void *site;
	int tid;
	char text[200];
} kept[EXEC_MAX];
static int nkept;
static unsigned long long kept_exec = ~0ull; /* the execution they belong to */
static unsigned long long exec_number;

static int first_stderr = -1; /* a copy of fd 2 as the process started */

__attribute__((constructor)) static void map_seen(void)
{
	void *m = mmap(NULL, SEEN_MAX * sizeof *seen, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	seen = m == MAP_FAILED ? NULL : m;
	first_stderr = fcntl(2, F_DUPFD_CLOEXEC, 64);
}

static void say(const char *line)
{
	size_t n = strlen(line);
	if (rt.cfg.brief && first_stderr >= 0 && write(first_stderr, line, n) == (ssize_t)n)
		return; /* an explorer's child: its fd 2 is a file shown only with a failure */
	fputs(line, stderr);
	fflush(stderr);
}

/* True the first time key is claimed, in this process or any that shares
 * the record. */
static bool first_time(uintptr_t key)
{
	if (!seen)
		return true;
	uint32_t h = (uint32_t)(key * 0x9e3779b97f4a7c15ull >> 40) % SEEN_MAX;
	for (int n = 0; n < SEEN_MAX; n++, h = (h + 1) % SEEN_MAX) {
		uintptr_t now = atomic_load_explicit(&seen[h], memory_order_acquire);
		if (now == key)
			return false;
		if (now == 0) {
			uintptr_t expected = 0;
			if (atomic_compare_exchange_strong(&seen[h], &expected, key))
				return true;
			if (expected == key)
				return false;
		}
	}
	return true;
}

/* A warning of this execution, once per site and thread; a new
 * execution starts an empty list. */
static void keep(const void *site, int tid, const char *text)
{
	if (kept_exec != exec_number) {
		nkept = 0;
		kept_exec = exec_number;
	}
	for (int i = 0; i < nkept; i++)
		if (kept[i].site == site && kept[i].tid == tid)
			return;
	if (nkept == EXEC_MAX)
		return;
	kept[nkept].site = site;
	kept[nkept].tid = tid;
	snprintf(kept[nkept].text, sizeof kept[nkept].text, "%s", text);
	nkept++;
}

void rt_warn_exec_begin(void)
{
	exec_number++;
}

void rt_warn(const void *site, const char *fmt, ...)
{
	char text[200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	struct rt_thread *self = rt_self;
	int tid = self ? self->tid : -1;
	keep(site, tid, text);
	if (!first_time((uintptr_t)site * 31 + (uintptr_t)fmt))
		return;
	/* The symbolizer is a child process and pipes: the runtime's own
	 * calls, not the program's. */
	rt.busy++;
	struct rt_thread *own = rt_own_work_begin();
	uintptr_t addr = (uintptr_t)site;
	bool data = false;
	struct rt_sym sym = { 0 };
	if (site)
		rt_symbolize(&addr, &data, &sym, 1);
	const char *where = sym.text[0] ? sym.text : sym.func[0] ? sym.func : "?";
	char line[512];
	snprintf(line, sizeof line, "==schedfuzz== warning: %s at %s (thread T%d); said once per site\n",
		 text, where, tid);
	say(line);
	rt_own_work_end(own);
	rt.busy--;
}

bool rt_warn_get(int i, const void **site, int *tid, const char **text)
{
	if (kept_exec != exec_number || i < 0 || i >= nkept)
		return false;
	*site = kept[i].site;
	*tid = kept[i].tid;
	*text = kept[i].text;
	return true;
}
