/* genome_fuzzer.c - libFuzzer target for the genome decoder and the spec
 * parser, built with ASan and UBSan. Any input must decode to a plan in
 * range, print, read its change points, re-encode to the same plan, and
 * survive being pinned by any spec, the spec text taken from the input,
 * and mutate under that pin into a canonical plan of the pinned kind. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "generate.h"
#include "genome.h"
#include "mutate.h"
#include "priority.h"
#include "spec.h"

static void check(int ok)
{
	if (!ok)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sf_plan plan;
	size_t used = sf_genome_decode(data, size, &plan);
	check(used <= size);
	check(plan.kind < SF_KIND_COUNT && plan.depth >= 1 && plan.depth <= SF_MAX_DEPTH);

	static char text[SF_MAX_DECISIONS * 16 + 256];
	int len = sf_plan_format(&plan, text, sizeof text);
	check(len > 0 && (size_t)len < sizeof text && strlen(text) == (size_t)len);
	char tiny[7];
	check(sf_plan_format(&plan, tiny, sizeof tiny) == len); /* truncation is safe */

	struct sf_change c[SF_MAX_CP];
	int n = sf_plan_changes(&plan, c);
	for (int i = 0; i < n; i++)
		check(c[i].at >= 1 && c[i].slot < SF_MAX_CP);

	static struct sf_decision d[SF_MAX_DECISIONS];
	for (uint32_t i = 0; i < plan.ndecisions; i++)
		d[i] = sf_plan_decision(&plan, i);
	static uint8_t again[SF_GENOME_HEADER + SF_MAX_DECISIONS * SF_DECISION_BYTES];
	size_t m = sf_genome_encode(&plan, d, plan.ndecisions, again, sizeof again);
	struct sf_plan back;
	check(sf_genome_decode(again, m, &back) == m);
	check(back.kind == plan.kind && back.seed == plan.seed && back.k == plan.k &&
	      back.depth == plan.depth && back.ndecisions == plan.ndecisions &&
	      memcmp(back.cp, plan.cp, sizeof plan.cp) == 0);

	/* The bytes after the genome, as a spec: parse, pin, make a plan. */
	char spec_text[64];
	size_t rest = size - used < sizeof spec_text - 1 ? size - used : sizeof spec_text - 1;
	memcpy(spec_text, data + used, rest);
	spec_text[rest] = 0;
	struct sf_spec spec;
	char err[256];
	if (sf_spec_parse(spec_text, &spec, err, sizeof err)) {
		sf_spec_pin(&spec, &plan);
		sf_plan_format(&plan, text, sizeof text);
		struct sf_estimates est = { .events = plan.k, .locks = plan.radius, .nvars = 1 };
		est.vars[0] = (struct sf_var_estimate){ plan.var[0] | SF_VAR_AUTO_LIMIT, plan.var_acc[0], 1 };
		struct sf_plan made;
		sf_plan_generate(&spec, &est, plan.seed, &made);
		check(sf_plan_changes(&made, c) == (sf_kind_has_priorities(made.kind) ? made.depth - 1 : 0));

		/* The custom mutators' step: a canonical plan that keeps the pin. */
		struct sf_plan mutated = plan;
		if (sf_plan_mutate(&mutated, &spec, &est, plan.seed ^ size)) {
			check(mutated.kind == spec.kind);
			check(!(spec.given & SF_SPEC_DEPTH) || mutated.depth == spec.depth);
			uint8_t bytes[SF_GENOME_HEADER];
			check(sf_genome_encode(&mutated, NULL, 0, bytes, sizeof bytes) == sizeof bytes);
			struct sf_plan round;
			sf_genome_decode(bytes, sizeof bytes, &round);
			check(round.k == mutated.k && round.depth == mutated.depth &&
			      memcmp(round.cp, mutated.cp, sizeof round.cp) == 0);
			check(sf_plan_changes(&round, c) ==
			      (sf_kind_has_priorities(round.kind) ? round.depth - 1 : 0));
		}
	} else {
		check(strlen(err) > 0);
	}
	return 0;
}
