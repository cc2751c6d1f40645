#!/usr/bin/env bash
# lifecycle.sh [--quick] - the lifecycle probes (tests/lifecycle/
# lifecycle.tsv), for scripts/bench.sh: how long one schedule of each
# correct program takes under control against the same program built
# natively (clang, -O1, no schedfuzz). Each native build runs 10 times (3
# with --quick); each controlled build runs 200 single-schedule processes
# (20 with --quick), SCHEDFUZZ_SEED 1, 2, ... (a random schedule each),
# each timed from start to exit, process start included. Note:
# under control the programs' timers and sleeps run in virtual time, so a
# program that sleeps (alarm) is faster under control than natively.
# Prints one line per program, then:
#   lifecycle_worst_over_native_s  the largest (slowest schedule - native
#                       median) over the programs (target: below 1 s)
#   lifecycle_schedule_failures    schedules that failed (must be 0)
# SF_BIN overrides the tools' directory (default build/bin).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
natives=10 schedules=200
if [ "${1:-}" = "--quick" ]; then
	natives=3 schedules=20
fi
bin=${SF_BIN:-$top/build/bin}
work=$(mktemp -d "${TMPDIR:-/tmp}/schedfuzz-lifecycle.XXXXXX")
trap 'rm -rf "$work"' EXIT
[ -x "$bin/schedfuzz-cc" ] || { echo "lifecycle.sh: build first (scripts/build.sh)" >&2; exit 2; }
clang=$(command -v clang-14 || command -v clang)
clangxx=$(command -v clang++-14 || command -v clang++)
dir=$top/tests/lifecycle

# timed CMD...: run it, print its wall time in seconds; "fail" if it failed.
timed() {
	local s e rc=0
	s=$EPOCHREALTIME
	timeout 60 "$@" >/dev/null 2>&1 </dev/null || rc=$?
	e=$EPOCHREALTIME
	[ $rc -eq 0 ] && awk -v a="$s" -v b="$e" 'BEGIN { printf "%.4f\n", b - a }' || echo fail
}

# stats FILE: "median max" of the numbers in FILE.
stats() {
	sort -g "$1" | awk '{ v[NR] = $1 } END { printf "%.4f %.4f\n", v[int((NR + 1) / 2)], v[NR] }'
}

worst=0 failures=0
while IFS=$'\t' read -r name source flags expect _; do
	case $name in '#'* | '') continue ;; esac
	[ "$expect" = clean ] || continue
	[ "$flags" = - ] && flags=
	if [[ $source == *.cpp ]]; then
		"$bin/schedfuzz-c++" -std=c++20 -O1 $flags "$dir/$source" -o "$work/$name"
		"$clangxx" -std=c++20 -O1 -pthread $flags "$dir/$source" -o "$work/$name.native"
	else
		"$bin/schedfuzz-cc" -O1 $flags "$dir/$source" -o "$work/$name"
		"$clang" -O1 -pthread $flags "$dir/$source" -o "$work/$name.native"
	fi
	: >"$work/native" && : >"$work/sched"
	for i in $(seq 1 "$natives"); do
		timed "$work/$name.native" >>"$work/native"
	done
	for i in $(seq 1 "$schedules"); do
		SCHEDFUZZ_SEED=$i timed "$work/$name" >>"$work/sched"
	done
	f=$(grep -c fail "$work/sched" || true)
	failures=$((failures + f))
	sed -i '/fail/d' "$work/native" "$work/sched"
	read -r nmed nmax < <(stats "$work/native")
	read -r smed smax < <(stats "$work/sched")
	over=$(awk -v a="$smax" -v b="$nmed" 'BEGIN { printf "%.4f", a - b }')
	worst=$(awk -v a="$over" -v b="$worst" 'BEGIN { print (a > b) ? a : b }')
	printf 'lifecycle %s: native median %s s (max %s), per schedule median %s s, max %s s: max - native median %s s%s\n' \
		"$name" "$nmed" "$nmax" "$smed" "$smax" "$over" "$([ "$f" -eq 0 ] || echo ", $f failed")"
done <"$dir/lifecycle.tsv"
echo "lifecycle_worst_over_native_s: $worst"
echo "lifecycle_schedule_failures: $failures"
