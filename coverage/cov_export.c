/* cov_export.c - the libFuzzer and AFL++ exporters (cov_export.h). */
#include <stdlib.h>

#include "cov_export.h"

/* libFuzzer: one byte per slot, aligned, a multiple of 64 in size. Never
 * touched unless libFuzzer runs the program. */
__attribute__((section("__libfuzzer_extra_counters"), aligned(64),
	       used)) static uint8_t libfuzzer_counters[COV_LIBFUZZER_SLOTS];

/* AFL++'s runtime (afl-compiler-rt.o), present in afl builds only. */
extern uint8_t *__afl_area_ptr __attribute__((weak));
extern uint32_t __afl_final_loc __attribute__((weak));

static uint32_t afl_base; /* first slot of our region; 0 = none */

/* Priority 1: before the sanitizer-coverage constructors that number the
 * edges from __afl_final_loc, and before AFL++ maps the shared memory and
 * tells afl-fuzz its size. Slot 0 is never ours. */
__attribute__((constructor(1))) static void afl_reserve(void)
{
	if (&__afl_final_loc == NULL || &__afl_area_ptr == NULL)
		return;
	afl_base = __afl_final_loc + 1;
	__afl_final_loc += COV_AFL_SLOTS;
}

bool cov_export_afl_present(void)
{
	const char *shm = getenv("__AFL_SHM_ID");
	return afl_base != 0 && shm && *shm;
}

/* Keep the larger of the slot's value and v (cov_export.h). */
static inline void mark(uint8_t *slot, uint8_t v)
{
	if (*slot < v)
		*slot = v;
}

void cov_export(unsigned sinks, uint64_t hash)
{
	/* The high half: the low one also picks slots in the seen-set. Its
	 * top three bits pick the bucket, bits no slot number uses. */
	uint32_t h = (uint32_t)(hash >> 32);
	uint8_t v = cov_export_bucket_value(h >> 29);
	if (sinks & COV_TO_LIBFUZZER)
		mark(&libfuzzer_counters[h & (COV_LIBFUZZER_SLOTS - 1)], v);
	if (sinks & COV_TO_AFL)
		mark(&__afl_area_ptr[afl_base + (h & (COV_AFL_SLOTS - 1))], v); /* it moves: read each time */
}
