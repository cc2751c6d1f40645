/* rt_objects.c - shadow state of sync objects, keyed by address.
 *
 * Objects live in a pool of fixed chunks (so pointers stay valid while the
 * hash table grows) and are indexed by an open-addressing table. At the end
 * of an execution exactly the objects it touched are cleared: the cost of
 * a reset follows what the execution did, never how many objects the
 * process has ever seen (docs/design/architecture.md, decision 5). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_internal.h"

const char *const rt_otype_names[O_COUNT] = {
	[O_MUTEX] = "mutex",
	[O_SPIN] = "spinlock",
	[O_COND] = "condition",
	[O_RWLOCK] = "rwlock",
	[O_SEM] = "semaphore",
	[O_BARRIER] = "barrier",
	[O_ONCE] = "once",
	[O_GUARD] = "static init guard",
};
_Static_assert(sizeof rt_otype_names / sizeof rt_otype_names[0] == O_COUNT, "name every type");

/* Reports and traces name an object by letter and number: M1, C2, ... */
const char rt_otype_letters[O_COUNT] = {
	[O_MUTEX] = 'M', [O_SPIN] = 'S', [O_COND] = 'C', [O_RWLOCK] = 'L',
	[O_SEM] = 'P', [O_BARRIER] = 'B', [O_ONCE] = 'O', [O_GUARD] = 'G',
};

#define CHUNK 256

static struct rt_obj **chunks; /* pool: chunks[i] holds CHUNK objects */
static uint32_t nchunks, nobjs;
static struct rt_obj **table;  /* open addressing, power-of-two size */
static uint32_t table_size;
static uint32_t next_id[O_COUNT];

static uint32_t hash(uintptr_t a)
{
	uint64_t x = (uint64_t)a * 0x9e3779b97f4a7c15ull;
	return (uint32_t)(x >> 32);
}

static void oom(void)
{
	rt_unsupported("sync object table", "out of memory");
}

static void grow(void)
{
	uint32_t size = table_size ? table_size * 2 : 1024;
	struct rt_obj **t = calloc(size, sizeof *t);
	if (!t)
		oom();
	for (uint32_t i = 0; i < nobjs; i++) {
		struct rt_obj *o = &chunks[i / CHUNK][i % CHUNK];
		uint32_t s = hash(o->addr) & (size - 1);
		while (t[s])
			s = (s + 1) & (size - 1);
		t[s] = o;
		o->slot = s;
	}
	free(table);
	table = t;
	table_size = size;
}

struct rt_obj *rt_obj_find(const void *addr)
{
	if (!table_size)
		return NULL;
	uint32_t s = hash((uintptr_t)addr) & (table_size - 1);
	for (struct rt_obj *o; (o = table[s]) != NULL; s = (s + 1) & (table_size - 1))
		if (o->addr == (uintptr_t)addr)
			return o;
	return NULL;
}

/* A call with an invalid sync object, reported at the program's call, not
 * inside the model that noticed: "<entry point> on <what>". */
static RT_NORETURN void misuse(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static RT_NORETURN void misuse(const char *fmt, ...)
{
	char what[160];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	const char *entry;
	const void *site = rt_program_caller(&entry);
	rt_fail(F_MISUSE, site, "%s on %s", entry ? entry : "a call", what);
}

static const char *type_name(enum rt_otype type)
{
	return type == O_COND ? "condition variable" : rt_otype_names[type];
}

/* A sync object at an address no object can have: the program passed NULL
 * (or a pointer into the first page, a NULL struct's member). glibc would
 * crash inside its own code. */
static void check_address(const void *addr, enum rt_otype type)
{
	if ((uintptr_t)addr < 4096)
		misuse("a NULL %s (address %p)", rt_otype_names[type], addr);
}

/* ASan's, when it is linked (the ASan mode). */
int __asan_address_is_poisoned(const volatile void *addr) __attribute__((weak));
void __asan_report_error(void *pc, void *bp, void *sp, void *addr, int is_write,
			 size_t size) __attribute__((weak));

/* In the ASan mode, an object in memory ASan says is gone (freed, out of
 * bounds) is ASan's report, made at the program's call as its own
 * interceptors would: the model never touches the object's memory, so
 * ASan would not see it otherwise. */
static void check_addressable(const void *addr)
{
	if (!__asan_address_is_poisoned || !__asan_report_error ||
	    !__asan_address_is_poisoned(addr))
		return;
	const char *entry;
	const void *site = rt_program_caller(&entry);
	__asan_report_error((void *)site, __builtin_frame_address(0), __builtin_frame_address(0),
			    (void *)addr, 1, 1);
}

/* An object its program destroyed and did not initialise again: glibc
 * marks a destroyed mutex (its kind -1) and condition variable (the wake
 * request bit of __wrefs), and then fails or misbehaves on it. Read from
 * the object itself, so memory reused for a new object initialised by
 * assignment is no misuse. No address in the report: it differs from run
 * to run, and the report must not. */
static void check_destroyed(const void *addr, enum rt_otype type)
{
	if ((type == O_MUTEX && ((const pthread_mutex_t *)addr)->__data.__kind == -1) ||
	    (type == O_COND && (((const pthread_cond_t *)addr)->__data.__wrefs & 4) != 0))
		misuse("a destroyed %s", type_name(type));
}

/* Mutexes in freed memory, without ASan: the program's frees mark the
 * objects inside them (rt_obj_freed), a first touch looks in the heap log,
 * and the heap log confirms (a block allocated again holds a new object).
 * Both scan, so only while an execution has touched few objects: beyond
 * that a use of freed memory goes unreported, never misreported. */
#define FEW_OBJECTS 64

/* o: the object at addr, if it was touched before in this execution. */
static void check_freed(uintptr_t addr, enum rt_otype type, struct rt_obj *o)
{
	struct rt_freed f;
	if (o)
		o->in_freed = false;
	if (!rt_heap_log_freed(addr, rt.step + 1, &f))
		return;
	if (o)
		misuse("%s %c#%u, in a %lu-byte block T%d freed after step %llu",
		       rt_otype_names[type], rt_otype_letters[type], o->id, (unsigned long)f.size,
		       f.tid, (unsigned long long)f.step);
	misuse("a %s in a %lu-byte block T%d freed after step %llu", rt_otype_names[type],
	       (unsigned long)f.size, f.tid, (unsigned long long)f.step);
}

bool rt_obj_still(struct rt_obj *o, uintptr_t addr)
{
	if (o->addr != addr)
		return false;
	if (o->in_freed)
		check_freed(addr, (enum rt_otype)o->type, o);
	return true;
}

void rt_obj_freed(uintptr_t lo, uintptr_t hi)
{
	if (nobjs > FEW_OBJECTS)
		return;
	for (uint32_t i = 0; i < nobjs; i++) {
		struct rt_obj *o = &chunks[i / CHUNK][i % CHUNK];
		if (o->addr >= lo && o->addr < hi)
			o->in_freed = true;
	}
}

struct rt_obj *rt_obj_get(const void *addr, enum rt_otype type)
{
	check_address(addr, type);
	check_addressable(addr);
	struct rt_obj *o = rt_obj_find(addr);
	if (o && o->in_freed)
		check_freed((uintptr_t)addr, (enum rt_otype)o->type, o);
	if (!o) {
		check_destroyed(addr, type);
		if (nobjs <= FEW_OBJECTS)
			check_freed((uintptr_t)addr, type, NULL);
	}
	if (o) {
		if (o->type != type) {
			/* Memory reused for another kind of object (e.g. freed
			 * and reallocated) without destroy: start it afresh. */
			uint32_t slot = o->slot;
			rt_memset(o, 0, sizeof *o);
			o->addr = (uintptr_t)addr;
			o->slot = slot;
			o->type = (uint8_t)type;
			o->id = ++next_id[type];
		}
		return o;
	}
	if ((nobjs + 1) * 2 > table_size)
		grow();
	if (nobjs == nchunks * CHUNK) {
		struct rt_obj **c = realloc(chunks, (nchunks + 1) * sizeof *c);
		if (!c)
			oom();
		chunks = c;
		if (!(chunks[nchunks] = calloc(CHUNK, sizeof **chunks)))
			oom();
		nchunks++;
	}
	o = &chunks[nobjs / CHUNK][nobjs % CHUNK];
	nobjs++;
	rt_memset(o, 0, sizeof *o);
	o->addr = (uintptr_t)addr;
	o->type = (uint8_t)type;
	o->id = ++next_id[type];
	uint32_t s = hash(o->addr) & (table_size - 1);
	while (table[s])
		s = (s + 1) & (table_size - 1);
	table[s] = o;
	o->slot = s;
	return o;
}

/* Forget one object (destroy, or re-init): its state starts afresh on the
 * next touch. Removal re-inserts the rest of its probe run. */
void rt_obj_forget(const void *addr)
{
	struct rt_obj *o = rt_obj_find(addr);
	if (!o)
		return;
	o->addr = 0;
	o->type = O_COUNT; /* a dead object is never found: addr 0 is never asked */
	uint32_t s = o->slot;
	table[s] = NULL;
	for (s = (s + 1) & (table_size - 1); table[s]; s = (s + 1) & (table_size - 1)) {
		struct rt_obj *m = table[s];
		table[s] = NULL;
		uint32_t t = hash(m->addr) & (table_size - 1);
		while (table[t])
			t = (t + 1) & (table_size - 1);
		table[t] = m;
		m->slot = t;
	}
}

void rt_obj_reset_all(void)
{
	for (uint32_t i = 0; i < nobjs; i++) {
		struct rt_obj *o = &chunks[i / CHUNK][i % CHUNK];
		if (o->addr)
			table[o->slot] = NULL;
	}
	nobjs = 0;
	rt_memset(next_id, 0, sizeof next_id);
}
