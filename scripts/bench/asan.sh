#!/usr/bin/env bash
# asan.sh [RUNS] - the ASan mode's figures, for scripts/bench.sh:
#   asan_zoo_found      memory-error zoo programs (tests/bugs/memory/zoo.tsv)
#                       whose bug `schedfuzz run` finds within 10,000
#                       schedules (seed 1), as ASan's report, that replay
#   asan_zoo_fixed_false_alarms  reports from their fixed twins (2,000 each)
#   asan_exec_ratio     controlled executions/s of the two-thread libFuzzer
#                       harness in the ASan mode, divided by the same harness
#                       built with plain ASan (clang -fsanitize=address,fuzzer)
#                       run natively; RUNS inputs each (default 100,000),
#                       side by side in this run
# and one line per zoo program with the schedules its bug took.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
runs=${1:-100000}
bin=$top/build/bin
work=$(mktemp -d "${TMPDIR:-/tmp}/schedfuzz-asan.XXXXXX")
trap 'rm -rf "$work"' EXIT
clang=$(command -v clang-14 || command -v clang)
. "$top/scripts/bench/timing.sh"

found=0 total=0 alarms=0
while IFS=$'\t' read -r bug report _; do
	case $bug in '#'* | '') continue ;; esac
	src=$top/tests/bugs/memory/$bug.c
	"$bin/schedfuzz-cc" -O1 -fsanitize=address "$src" -o "$work/$bug"
	"$bin/schedfuzz-cc" -O1 -fsanitize=address -DFIXED "$src" -o "$work/${bug}_fixed"
	total=$((total + 1))
	"$bin/schedfuzz" run -n 10000 --seed 1 -o "$work/out-$bug" -- "$work/$bug" \
		>/dev/null 2>"$work/$bug.log" || true
	at=$(sed -n 's/^schedfuzz: schedule \([0-9]*\) of .* failed: .*/\1/p' "$work/$bug.log" | head -n 1)
	if grep -q "^==schedfuzz== ERROR: $report" "$work/$bug.log" &&
		grep -q "replay reproduced the failure" "$work/$bug.log"; then
		found=$((found + 1))
		echo "asan_zoo $bug: found at schedule $at, replayed"
	else
		echo "asan_zoo $bug: not found in 10000 schedules"
	fi
	if ! "$bin/schedfuzz" run -n 2000 --seed 1 -o "$work/fixed-$bug" -- "$work/${bug}_fixed" \
		>/dev/null 2>&1; then
		alarms=$((alarms + 1))
		echo "asan_zoo $bug: the fixed twin failed"
	fi
done <"$top/tests/bugs/memory/zoo.tsv"
echo "asan_zoo_found: $found/$total"
echo "asan_zoo_fixed_false_alarms: $alarms"

harness=$top/tests/integration/harness.c
"$bin/schedfuzz-cc" -O1 -fsanitize=address,fuzzer "$harness" -o "$work/harness_sf_asan"
"$clang" -O1 -fsanitize=address,fuzzer "$harness" -o "$work/harness_asan"
exec_rates asan_ "$work/harness_asan" "$work/harness_sf_asan" "$runs" "$work/rates"
