#!/usr/bin/env bash
# libfuzzer_artifact.sh HARNESS SEEDS: the report printed inside libFuzzer
# names, on its replay line, the very file libFuzzer saves the crash to:
# <-artifact_prefix>crash-<SHA-1>, or -exact_artifact_path.
. "$(dirname "$0")/lib.sh"
harness=$1
cd "$WORK"
# libFuzzer adds what it finds to the first corpus directory: fuzz a copy.
cp -r "$2" seeds
seeds=$WORK/seeds
timeout 300 "$harness" -seed=1 -runs=200000 -artifact_prefix="$WORK/art-" "$seeds" >fuzz.log 2>&1
crash=$(ls "$WORK"/art-crash-* 2>/dev/null | head -1)
[ -n "$crash" ] || { tail -20 fuzz.log; fail "libFuzzer saved no crash"; }
grep -qF "==schedfuzz== replay: schedfuzz replay $crash -- " fuzz.log ||
	fail "the replay line does not name $crash: $(grep '==schedfuzz== replay:' fuzz.log)"
echo "-artifact_prefix: the report names $(basename "$crash")"

# Run on the file itself, libFuzzer saves nothing: the input is that file.
cp "$crash" "$WORK/again"
timeout 300 "$harness" "$WORK/again" >again.log 2>&1
grep -qF "==schedfuzz== replay: schedfuzz replay $WORK/again -- " again.log ||
	fail "running the file: the replay line does not name it: $(grep '==schedfuzz== replay:' again.log)"
echo "a file run by libFuzzer: the report names the file"

rm -f "$WORK"/art-crash-*
timeout 300 "$harness" -seed=1 -runs=200000 -exact_artifact_path="$WORK/exact" "$seeds" >exact.log 2>&1
[ -f "$WORK/exact" ] || { tail -20 exact.log; fail "no crash saved at -exact_artifact_path"; }
grep -qF "==schedfuzz== replay: schedfuzz replay $WORK/exact -- " exact.log ||
	fail "the replay line does not name $WORK/exact: $(grep '==schedfuzz== replay:' exact.log)"
echo "-exact_artifact_path: the report names it"
