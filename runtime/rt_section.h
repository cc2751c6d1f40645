/* rt_section.h - forced (-include) into every file of the runtime, the
 * strategies and the coverage: their code goes to one section of its own,
 * so that the watchdog's signal can tell that it interrupted a thread
 * inside the runtime, whose state is then half-changed, and leave it be
 * (rt_watchdog.c). The linker names its bounds __start_/__stop_. */
#ifndef __clang__
#error "the runtime is built with clang: its code section needs #pragma clang section"
#endif
#pragma clang section text = "schedfuzz_text"
