/* driver_afl.c - main() for a libFuzzer-style harness under afl-fuzz
 * (SCHEDFUZZ_ENGINE=afl with -fsanitize=fuzzer): AFL++'s persistent mode.
 *
 * The forkserver starts after LLVMFuzzerInitialize (deferred), and each
 * forked child runs up to AFL_FUZZER_LOOPCOUNT (default 1000) test cases,
 * taken from afl-fuzz's shared memory (or stdin when afl-fuzz delivers
 * them that way). AFL++'s runtime clears its map before each one, and our
 * runtime adds each execution's interleaving coverage to it at the end.
 * afl-fuzz, afl-showmap, afl-tmin and afl-cmin detect both modes by the
 * two signature strings below. Outside afl-fuzz, files named on the
 * command line are run once each, like libFuzzer with file arguments. */
#include <stdlib.h>
#include <unistd.h>

#include "driver.h"

__attribute__((used)) static volatile const char *const persistent_sig = "##SIG_AFL_PERSISTENT##";
__attribute__((used)) static volatile const char *const deferred_sig = "##SIG_AFL_DEFER_FORKSRV##";

extern int __afl_persistent_loop(unsigned int max_cnt);
extern void __afl_manual_init(void);
extern uint8_t *__afl_fuzz_ptr;
extern uint32_t *__afl_fuzz_len;

#define MAX_INPUT (1u << 20) /* afl-fuzz's own limit on a test case */

int main(int argc, char **argv)
{
	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	const char *shm = getenv("__AFL_SHM_ID");
	if ((!shm || !*shm) && argc > 1)
		return driver_run_inputs(argc, argv);

	const char *loops = getenv("AFL_FUZZER_LOOPCOUNT");
	unsigned n = loops && atoi(loops) > 0 ? (unsigned)atoi(loops) : 1000;
	static uint8_t buf[MAX_INPUT];
	__afl_manual_init();
	while (__afl_persistent_loop(n)) {
		if (__afl_fuzz_ptr) {
			LLVMFuzzerTestOneInput(__afl_fuzz_ptr, *__afl_fuzz_len);
			continue;
		}
		ssize_t got = read(0, buf, sizeof buf); /* no shared memory: stdin */
		LLVMFuzzerTestOneInput(buf, got > 0 ? (size_t)got : 0);
	}
	return 0;
}
