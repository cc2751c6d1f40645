/* cov_export.h - features into the fuzzers' maps.
 *
 * libFuzzer reads extra counters from the section __libfuzzer_extra_counters
 * and zeroes them before every input. AFL++ reads __afl_area_ptr, whose size
 * the binary announces in the forkserver handshake: a constructor that runs
 * before AFL++'s own reserves a region past its edges (__afl_final_loc), so
 * the announced size includes ours. Both see presence: each feature arrives
 * once per execution (cov.c), and a slot is a saturating counter, so two
 * features that share one still count as more than one.
 *
 * Compiled into the runtime only: it defines the libFuzzer section. */
#ifndef SCHEDFUZZ_COV_EXPORT_H
#define SCHEDFUZZ_COV_EXPORT_H

#include <stdbool.h>
#include <stdint.h>

#define COV_LIBFUZZER_SLOTS (1u << 16)
#define COV_AFL_SLOTS (1u << 14)

enum cov_sink_kind { COV_TO_LIBFUZZER = 1, COV_TO_AFL = 2 };

/* Is this binary running under afl-fuzz (or afl-showmap, afl-tmin) with our
 * region reserved in its map? */
bool cov_export_afl_present(void);
/* Count feature hash in the maps named by sinks (COV_TO_*). */
void cov_export(unsigned sinks, uint64_t hash);

#endif
