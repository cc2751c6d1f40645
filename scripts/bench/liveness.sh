#!/usr/bin/env bash
# liveness.sh [--quick] - the liveness probes (tests/liveness/liveness.tsv)
# on large budgets, for scripts/bench.sh. Each correct program runs its
# "bench" budget of the default portfolio (20,000 schedules for the quick
# multi-threaded probes) and its "bench_pinned" budget under each of
# pct:d=2, pct:d=3 and pctvb:d=2,v=1 (3,000), with --keep-going; long_loop
# has one thread, hence one schedule, and thread_churn's schedules run
# 1,000 threads each, so they get 5 and 50. A buggy build runs its budget
# of the default portfolio up to the first failure. --quick divides every
# budget by 10 (at least 1). Each schedule may take 5 s (--timeout) before
# it counts as a failure. Prints one line per run, then:
#   liveness_found             buggy builds found and replayed, X/Y
#   liveness_asm_lock_max_schedule_s     the longest of 200 single-schedule
#                              runs of asm_xchg_lock (20 with --quick), the
#                              portfolio's strategies in turn, each timed
#                              from start to exit (process start included)
#   liveness_asm_lock_median_schedule_s  their median
#   liveness_false_alarms      failing schedules of the correct programs,
#                              over all the runs above (must be 0)
# SF_BIN overrides the tools' directory (default build/bin).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
div=1
if [ "${1:-}" = "--quick" ]; then
	div=10
fi
bin=${SF_BIN:-$top/build/bin}
work=$(mktemp -d "${TMPDIR:-/tmp}/schedfuzz-liveness.XXXXXX")
trap 'rm -rf "$work"' EXIT
[ -x "$bin/schedfuzz-cc" ] || { echo "liveness.sh: build first (scripts/build.sh)" >&2; exit 2; }
dir=$top/tests/liveness
pinned="pct:d=2 pct:d=3 pctvb:d=2,v=1" # as tests/CMakeLists.txt pins them
budget() { echo $(($1 / div > 0 ? $1 / div : 1)); }

alarms=0 found=0 buggy=0
# run_clean NAME SPEC RUNS: RUNS schedules of a correct build, every
# failing one a false alarm; "default" is the portfolio.
run_clean() {
	local name=$1 spec=$2 runs=$3 s e f rc=0 log=$work/$1.$2 pin=()
	[ "$spec" = default ] || pin=(--strategy "$spec")
	s=$EPOCHREALTIME
	timeout 7200 "$bin/schedfuzz" run --keep-going --timeout 5 -n "$runs" --seed 1 "${pin[@]}" \
		-o "$work/out-$name" -- "$work/$name" </dev/null >"$log" 2>"$log.err" || rc=$?
	e=$EPOCHREALTIME
	f=$(sed -n 's|^failures: \([0-9]*\)/.*|\1|p' "$log.err")
	if [ -z "$f" ]; then
		# No summary: a setup error (a limit, an unsupported call) or cut
		# off; every schedule counts as failed.
		f=$runs
		echo "liveness $name $spec: no summary (exit $rc): $(grep -m1 . "$log.err" || true)"
	fi
	alarms=$((alarms + f))
	printf 'liveness %s %s: failures %s/%s, %.1f s' "$name" "$spec" "$f" "$runs" \
		"$(awk -v a="$s" -v b="$e" 'BEGIN { print b - a }')"
	[ "$f" -eq 0 ] && echo || echo ", first: $(grep -m1 '^==schedfuzz== ERROR' "$log.err" || true)"
}

while IFS=$'\t' read -r name source flags expect _ _ _ bench bench_pinned; do
	case $name in '#'* | '') continue ;; esac
	[ "$flags" = - ] && flags=
	# shellcheck disable=SC2086 # flags are words
	"$bin/schedfuzz-cc" -O1 $flags "$dir/$source.c" -o "$work/$name"
	if [ "$expect" != clean ]; then
		buggy=$((buggy + 1))
		runs=$(budget "$bench")
		log=$work/$name.log
		timeout 7200 "$bin/schedfuzz" run --timeout 5 -n "$runs" --seed 1 -o "$work/out-$name" \
			-- "$work/$name" </dev/null >/dev/null 2>"$log" || true
		at=$(sed -n 's/^schedfuzz: schedule \([0-9]*\) of .* failed: .*/\1/p' "$log" | head -n 1)
		if grep -Eq "^==schedfuzz== ERROR: ($expect)" "$log" &&
			grep -q "replay reproduced the failure" "$log"; then
			found=$((found + 1))
			echo "liveness $name: found at schedule $at of $runs, replayed"
		else
			echo "liveness $name: not found in $runs schedules"
		fi
		continue
	fi
	run_clean "$name" default "$(budget "$bench")"
	[ "$bench_pinned" = - ] && continue
	for s in $pinned; do
		run_clean "$name" "$s" "$(budget "$bench_pinned")"
	done
done <"$dir/liveness.tsv"
echo "liveness_found: $found/$buggy"

# One schedule per process, so that each is timed alone; the strategies of
# the default portfolio in turn, as the explorer alternates them.
strategies=(random pct:d=2 pct:d=3 "rpro:d=3,r=20,locks" "pctvb:d=2,v=1")
n=$(budget 200)
: >"$work/times"
for ((i = 1; i <= n; i++)); do
	s=$EPOCHREALTIME
	if ! "$bin/schedfuzz" run -n 1 --seed "$i" --timeout 5 --strategy "${strategies[i % 5]}" \
		-o "$work/out-asm-time" -- "$work/asm_xchg_lock" </dev/null >/dev/null 2>"$work/asm-time.err"; then
		alarms=$((alarms + 1))
		echo "liveness asm_xchg_lock single schedule $i (${strategies[i % 5]}): $(grep -m1 'failed' "$work/asm-time.err" || true)"
	fi
	e=$EPOCHREALTIME
	awk -v a="$s" -v b="$e" 'BEGIN { printf "%.4f\n", b - a }' >>"$work/times"
done
sort -n "$work/times" >"$work/times.sorted"
echo "liveness_asm_lock_max_schedule_s: $(tail -n 1 "$work/times.sorted")"
echo "liveness_asm_lock_median_schedule_s: $(sed -n "$(((n + 1) / 2))p" "$work/times.sorted")"
echo "liveness_false_alarms: $alarms"
