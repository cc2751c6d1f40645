/* seed.h - `schedfuzz seed`: a data corpus made into schedfuzz inputs. */
#ifndef SCHEDFUZZ_SEED_H
#define SCHEDFUZZ_SEED_H

int cmd_seed(int argc, char **argv);

#endif
