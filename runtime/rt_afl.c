/* rt_afl.c - test cases from afl-fuzz through shared memory, so that a
 * main() program's argv and stdin stay its own.
 *
 * In a binary built with SCHEDFUZZ_ENGINE=afl, AFL++'s runtime
 * (afl-compiler-rt.o) starts the forkserver before main() and, because we
 * set __afl_sharedmem_fuzzing, asks afl-fuzz for shared-memory test cases;
 * each forked child then finds its input at __afl_fuzz_ptr. Outside
 * afl-fuzz AFL++ clears the flag and the program runs as any other. In a
 * build without AFL++ the symbols below are absent and nothing happens.
 * (The coverage map side is coverage/cov_export.c.) */
#include "rt_internal.h"

RT_EXPORT int __afl_sharedmem_fuzzing = 1;
extern uint8_t *__afl_fuzz_ptr __attribute__((weak));
extern uint32_t *__afl_fuzz_len __attribute__((weak));

bool rt_afl_input(const uint8_t **data, size_t *size)
{
	if (&__afl_fuzz_ptr == NULL || !__afl_fuzz_ptr || !__afl_sharedmem_fuzzing)
		return false;
	*data = __afl_fuzz_ptr;
	*size = *__afl_fuzz_len;
	return true;
}
