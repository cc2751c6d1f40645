/* minimize.h - `schedfuzz min`: the simplest schedule that still fails. */
#ifndef SCHEDFUZZ_MINIMIZE_H
#define SCHEDFUZZ_MINIMIZE_H

int cmd_min(int argc, char **argv);

#endif
