/* cc_scratch.h - schedfuzz-cc's private directory for intermediate files. */
#ifndef SCHEDFUZZ_CC_SCRATCH_H
#define SCHEDFUZZ_CC_SCRATCH_H

/* A directory of this process's own under $TMPDIR (or /tmp), made on the
 * first call; it and what it holds are removed when schedfuzz-cc exits,
 * also on failure or when SIGINT, SIGTERM or SIGHUP ends it. NULL (with a
 * message) if it cannot be made. */
const char *cc_scratch_dir(void);

#endif
