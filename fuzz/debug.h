/* debug.h - `schedfuzz debug`: gdb stopped at a scheduling step of a
 * saved input's replay. */
#ifndef SCHEDFUZZ_DEBUG_H
#define SCHEDFUZZ_DEBUG_H

int cmd_debug(int argc, char **argv);

#endif
