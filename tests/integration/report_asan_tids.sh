#!/usr/bin/env bash
# report_asan_tids.sh ASAN_LIBFUZZER_HARNESS: under libFuzzer ASan numbers
# threads across all executions (T3, T4 ...) while our report numbers them
# per execution; the report maps one to the other, and every thread ASan's
# report names is in the map.
. "$(dirname "$0")/lib.sh"
harness=$1
cd "$WORK"
timeout 300 "$harness" -seed=1 -runs=20000 >fuzz.log 2>&1
grep -q "ERROR: AddressSanitizer" fuzz.log || { tail -20 fuzz.log; fail "ASan reported nothing"; }
map=$(grep "^==schedfuzz== ASan's names for our threads: " fuzz.log) || fail "no thread map in the report"
echo "$map"
for t in $(grep -o "^Thread T[0-9]* created" fuzz.log | grep -o "T[0-9][0-9]*"); do
	echo "$map" | grep -q "=$t\(,\|$\)" || fail "ASan's $t is not in the map"
done
echo "$map" | grep -q "T1=T[0-9]" || fail "T1 is not mapped"
