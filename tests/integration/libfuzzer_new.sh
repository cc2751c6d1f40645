#!/usr/bin/env bash
# libfuzzer_new.sh HARNESS: libFuzzer keeps inputs for their interleavings.
# HARNESS takes the same code path on every input, so with coverage off
# libFuzzer never reports NEW; with HaPSet, MAP or reads-from features on
# it does, and keeps those inputs in its corpus, which `schedfuzz cov` then
# reads back.
. "$(dirname "$0")/lib.sh"
harness=$1
run() { # run COVERAGE DIR
	mkdir -p "$2"
	SCHEDFUZZ_COVERAGE=$1 "$harness" -runs=3000 -seed=1 "$2" >"$WORK/log.$1" 2>&1 ||
		{ tail -20 "$WORK/log.$1"; fail "libFuzzer failed with SCHEDFUZZ_COVERAGE=$1"; }
	grep -cE '[[:space:]]NEW[[:space:]]' "$WORK/log.$1"
}
off=$(run none "$WORK/none")
on=$(run both "$WORK/both")
echo "NEW lines: coverage none $off, both $on"
[ "$off" -eq 0 ] || fail "NEW without interleaving coverage: code coverage alone changed"
[ "$on" -ge 1 ] || fail "no NEW with interleaving coverage"
kept=$(ls "$WORK/both" | wc -l)
[ "$kept" -ge 2 ] || fail "libFuzzer kept $kept inputs"
for c in hapset map rf; do
	[ "$(run $c "$WORK/$c")" -ge 1 ] || fail "no NEW with SCHEDFUZZ_COVERAGE=$c"
done
"$SCHEDFUZZ" cov --json "$WORK/both" -- "$harness" >"$WORK/cov.json" || fail "schedfuzz cov"
pairs=$(sed -n 's/^  "hapset_pairs": \([0-9]*\).*/\1/p' "$WORK/cov.json")
echo "corpus of $kept inputs: $pairs HaPSet pairs"
[ "$pairs" -ge 2 ] || fail "the kept inputs cover $pairs pairs"
# A bad setting is one line and a setup error, not a crash.
SCHEDFUZZ_COVERAGE=most "$harness" -runs=1 >"$WORK/bad" 2>&1
[ $? -eq 3 ] || fail "SCHEDFUZZ_COVERAGE=most: expected exit 3"
grep -q 'SCHEDFUZZ_COVERAGE=most: expected hapset, map, rf, both, all or none' "$WORK/bad" || fail "no reason given"
