#!/usr/bin/env bash
# blocking.sh [--quick] - the blocking probes (tests/blocking/blocking.tsv:
# pipes, sockets, eventfd, C++20 futex waits, OpenMP) on their bench
# budgets, for scripts/bench.sh. For each program, side by side:
#   native_s          the median of 20 native runs (process start to exit;
#                     a buggy build that hangs natively is cut at 5 s)
#   schedule_mean_s   the explorer's wall time over its budget of
#                     schedules (--keep-going for the correct builds, up
#                     to the first failure for the buggy ones) per schedule
#   schedule_max_s    the longest of 30 single-schedule runs (schedfuzz run
#                     -n 1, seeds 1..30, process start to exit, as the
#                     native runs are timed)
# then: failures of a correct build (false alarms), or the schedule a
# buggy one was found at and whether it replayed. Summary lines:
#   blocking_false_alarms    failing schedules of the correct builds (must be 0)
#   blocking_found           buggy builds found and replayed, X/Y
#   blocking_worst_over_native_s  max over programs of schedule_max_s -
#                            native_s (target: below 1)
# --quick divides the budgets by 10. SF_BIN overrides build/bin.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
div=1
[ "${1:-}" = "--quick" ] && div=10
bin=${SF_BIN:-$top/build/bin}
work=$(mktemp -d "${TMPDIR:-/tmp}/schedfuzz-blocking.XXXXXX")
trap 'rm -rf "$work"' EXIT
[ -x "$bin/schedfuzz-cc" ] || { echo "blocking.sh: build first (scripts/build.sh)" >&2; exit 2; }
dir=$top/tests/blocking
budget() { echo $(($1 / div > 0 ? $1 / div : 1)); }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f", b - a }'; }

# median_native PROG: the median of 20 timed native runs.
median_native() {
	local s e
	: >"$work/native"
	for _ in $(seq 20); do
		s=$EPOCHREALTIME
		timeout 5 "$1" </dev/null >/dev/null 2>&1 || true
		e=$EPOCHREALTIME
		secs "$s" "$e" >>"$work/native"
		echo >>"$work/native"
	done
	sort -n "$work/native" | grep . | sed -n 10p
}

# max_schedule PROG: the longest of 30 single-schedule runs.
max_schedule() {
	local s e
	: >"$work/single"
	for i in $(seq 30); do
		s=$EPOCHREALTIME
		"$bin/schedfuzz" run -n 1 --seed "$i" --timeout 30 -o "$work/out-single" -- "$1" \
			</dev/null >/dev/null 2>&1 || true
		e=$EPOCHREALTIME
		secs "$s" "$e" >>"$work/single"
		echo >>"$work/single"
	done
	sort -n "$work/single" | grep . | tail -n 1
}

alarms=0 found=0 buggy=0 worst=-1
while IFS=$'\t' read -r name source flags expect _ _ bench; do
	case $name in '#'* | '') continue ;; esac
	[ "$flags" = - ] && flags=
	cc=schedfuzz-cc
	[[ $source == *.cpp ]] && cc=schedfuzz-c++
	# shellcheck disable=SC2086 # flags are words
	"$bin/$cc" -O1 -g $flags "$dir/$source" -o "$work/$name"
	# shellcheck disable=SC2086
	case $source in
	*.cpp) clang++-14 -O1 -g $flags "$dir/$source" -o "$work/$name.native" -lpthread ;;
	*) clang-14 -O1 -g $flags "$dir/$source" -o "$work/$name.native" -lpthread ;;
	esac
	runs=$(budget "$bench")
	native=$(median_native "$work/$name.native")
	log=$work/$name.log
	s=$EPOCHREALTIME
	if [ "$expect" = clean ]; then
		timeout 7200 "$bin/schedfuzz" run --keep-going --timeout 30 -n "$runs" --seed 1 \
			-o "$work/out-$name" -- "$work/$name" </dev/null >"$log.out" 2>"$log" || true
	else
		timeout 7200 "$bin/schedfuzz" run --timeout 30 -n "$runs" --seed 1 \
			-o "$work/out-$name" -- "$work/$name" </dev/null >"$log.out" 2>"$log" || true
	fi
	e=$EPOCHREALTIME
	if [ "$expect" = clean ]; then
		f=$(sed -n 's|^failures: \([0-9]*\)/.*|\1|p' "$log")
		[ -n "$f" ] || f=$runs
		done_runs=$runs
		alarms=$((alarms + f))
		verdict="failures $f/$runs"
	else
		buggy=$((buggy + 1))
		at=$(sed -n 's/^schedfuzz: schedule \([0-9]*\) of .* failed: .*/\1/p' "$log" | head -n 1)
		done_runs=${at:-$runs}
		if grep -Eq "^==schedfuzz== ERROR: ($expect)" "$log" &&
			grep -q "replay reproduced the failure" "$log"; then
			found=$((found + 1))
			verdict="found at schedule $at of $runs, replayed"
		else
			verdict="not found in $runs schedules"
		fi
	fi
	mean=$(awk -v a="$s" -v b="$e" -v n="$done_runs" 'BEGIN { printf "%.4f", (b - a) / n }')
	max=$(max_schedule "$work/$name")
	worst=$(awk -v w="$worst" -v m="$max" -v n="$native" 'BEGIN { d = m - n; print (d > w ? d : w) }')
	echo "blocking $name: native_s $native, schedule_mean_s $mean, schedule_max_s $max, $verdict"
done <"$dir/blocking.tsv"
echo "blocking_false_alarms: $alarms"
echo "blocking_found: $found/$buggy"
echo "blocking_worst_over_native_s: $worst"
