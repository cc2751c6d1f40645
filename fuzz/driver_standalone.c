/* driver_standalone.c - main() for a libFuzzer-style harness built with
 * SCHEDFUZZ_ENGINE=standalone: no fuzzing engine, the harness runs over
 * the inputs named on its command line (or stdin), and `schedfuzz run`
 * explores schedules of it like any program (the runtime's main wrapper
 * does that before this main is reached). */
#include "driver.h"

int main(int argc, char **argv)
{
	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	return driver_run_inputs(argc, argv);
}
