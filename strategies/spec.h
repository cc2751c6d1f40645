/* spec.h - a strategy as the user names it: "pct:d=3", "rpro:d=4,r=20,locks",
 * "pctvb:d=2,v=1". A spec pins a kind and some parameters; the genome (or,
 * where genomes are made, the defaults) supplies the rest. */
#ifndef SCHEDFUZZ_SPEC_H
#define SCHEDFUZZ_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "genome.h"

/* Which parameters a spec gives. */
#define SF_SPEC_DEPTH 0x01
#define SF_SPEC_RADIUS 0x02
#define SF_SPEC_NVARS 0x04
#define SF_SPEC_K 0x08
#define SF_SPEC_FLAGS 0x10

struct sf_spec {
	enum sf_kind kind;
	unsigned given; /* SF_SPEC_* */
	uint8_t depth;
	uint16_t radius;
	uint8_t nvars;
	uint32_t k;
	uint8_t flags;
};

/* Parse KIND[:PARAM,...] with PARAM one of d=N r=N v=N k=N locks tb notb.
 * On error returns false with a one-line reason in err. */
bool sf_spec_parse(const char *text, struct sf_spec *spec, char *err, size_t errcap);

/* Pin the spec into a decoded plan: its kind and every parameter it gives. */
void sf_spec_pin(const struct sf_spec *spec, struct sf_plan *plan);

/* Fill what the spec leaves open with the defaults used to make plans:
 * pct d=3, rpro d=3 r=20, pctvb d=2 v=1; thread bounding off. */
void sf_spec_complete(struct sf_spec *spec);

#endif
