/* rt_race_annotate.c - what a program tells the race detector, in the
 * words ThreadSanitizer takes: dynamic annotations (AnnotateHappensBefore
 * and After, AnnotateBenignRace(Sized), AnnotateIgnore{Reads,Writes}Begin
 * and End) and the __tsan_acquire/__tsan_release interface.
 *
 * The annotations are weak, as the dynamic_annotations.c that projects
 * carry defines them: a program's own definitions (no-ops for builds
 * without a race detector) win the link and switch them off, as they
 * would with TSan. */
#include "rt_race.h"

#define WEAK RT_EXPORT __attribute__((weak))

/* Ranges whose races are benign: kept for the process (a program marks
 * them once, often before any execution starts). */
#define BENIGN 256
static struct {
	uintptr_t lo, hi;
} benign[BENIGN];
static uint32_t nbenign;
/* Per thread slot: inside an ignore region, its reads (or writes) are
 * not recorded. */
static uint32_t ignoring[2][RT_MAX_THREADS];

bool rt_race_benign(uintptr_t addr)
{
	for (uint32_t i = 0; i < nbenign; i++)
		if (addr - benign[i].lo < benign[i].hi - benign[i].lo)
			return true;
	return false;
}

bool rt_race_ignoring(const struct rt_thread *self, bool write)
{
	return ignoring[write][self->slot] != 0;
}

void rt_race_annotations_begin(void)
{
	rt_memset(ignoring, 0, sizeof ignoring);
}

static struct rt_thread *modelled(void)
{
	struct rt_thread *self = rt_self;
	return self && rt.active ? self : NULL;
}

/* The exported names call these, never each other: a program that
 * defines one of the weak names takes that one alone. */
static void happens_before(const volatile void *addr)
{
	struct rt_thread *self = modelled();
	if (self)
		rt_race_release(self, (uintptr_t)addr);
}

static void happens_after(const volatile void *addr)
{
	struct rt_thread *self = modelled();
	if (self)
		rt_race_acquire(self, (uintptr_t)addr);
}

static void benign_range(const volatile void *addr, size_t size)
{
	uintptr_t lo = (uintptr_t)addr;
	if (nbenign < BENIGN && size) {
		benign[nbenign].lo = lo;
		benign[nbenign++].hi = lo + size;
	}
}

WEAK void AnnotateHappensBefore(const char *file, int line, const volatile void *addr)
{
	(void)file, (void)line;
	happens_before(addr);
}

WEAK void AnnotateHappensAfter(const char *file, int line, const volatile void *addr)
{
	(void)file, (void)line;
	happens_after(addr);
}

/* The TSan interface is ours, as the rest of it is (rt_abi.c): strong. */
RT_EXPORT void __tsan_release(void *addr)
{
	happens_before(addr);
}

RT_EXPORT void __tsan_acquire(void *addr)
{
	happens_after(addr);
}

WEAK void AnnotateBenignRaceSized(const char *file, int line, const volatile void *addr,
				  size_t size, const char *description)
{
	(void)file, (void)line, (void)description;
	benign_range(addr, size);
}

WEAK void AnnotateBenignRace(const char *file, int line, const volatile void *addr,
			     const char *description)
{
	(void)file, (void)line, (void)description;
	benign_range(addr, 1);
}

static void ignore(bool write, int delta)
{
	struct rt_thread *self = modelled();
	if (self && (delta > 0 || ignoring[write][self->slot]))
		ignoring[write][self->slot] += (uint32_t)delta;
}

WEAK void AnnotateIgnoreReadsBegin(const char *file, int line)
{
	(void)file, (void)line;
	ignore(false, 1);
}

WEAK void AnnotateIgnoreReadsEnd(const char *file, int line)
{
	(void)file, (void)line;
	ignore(false, -1);
}

WEAK void AnnotateIgnoreWritesBegin(const char *file, int line)
{
	(void)file, (void)line;
	ignore(true, 1);
}

WEAK void AnnotateIgnoreWritesEnd(const char *file, int line)
{
	(void)file, (void)line;
	ignore(true, -1);
}

void rt_race_ignore_thread(int delta)
{
	ignore(false, delta);
	ignore(true, delta);
}
