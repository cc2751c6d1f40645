#!/usr/bin/env bash
# debug.sh [--bugs "NAME..."] [--trials N] [--seed S] - `schedfuzz debug`
# over the zoo: how long until gdb stands at the failing step, and whether
# it stands where the report says.
#
# For each zoo bug whose input is a schedule (tests/bugs/zoo.tsv; all of
# them by default): build it at -O1 -g, find it with `schedfuzz run` (fixed
# seed), replay the input for its report, then run `schedfuzz debug` on it
# N times in batch mode. Each time, the seconds from the command's start to
# the first command gdb runs at the stop (what a user waits for the
# prompt), and whether $sf_step is the report's step count and `sf where`
# the report's line of that step. Prints one line per bug and
#   debug_prompt_median_s: X    the median over every bug and trial
#   debug_prompt_max_s: X
#   debug_same_step: X/Y        bugs stopped at the report's failing step,
#                               with the report's line for it
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=${SF_BIN:-$top/build/bin}
bugs=$(awk -F'\t' '!/^#/ && $7 == "schedule" { print $1 }' "$top/tests/bugs/zoo.tsv")
trials=5 seed=1
while [ $# -gt 0 ]; do
	case $1 in
	--bugs) bugs=$2 ;;
	--trials) trials=$2 ;;
	--seed) seed=$2 ;;
	*) echo "usage: debug.sh [--bugs \"NAME...\"] [--trials N] [--seed S]" >&2; exit 2 ;;
	esac
	shift 2
done
work=$(mktemp -d "${TMPDIR:-/tmp}/schedfuzz-debug-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
times=() same=0 total=0
printf '%-22s %6s %8s %8s %s\n' bug steps median_s max_s same_step
for bug in $bugs; do
	prog=$work/$bug
	"$bin/schedfuzz-cc" -O1 -g "$top/tests/bugs/$bug.c" -o "$prog" 2>/dev/null || { echo "$bug: build failed"; continue; }
	"$bin/schedfuzz" run -n 10000 --seed "$seed" -o "$work/$bug.out" -- "$prog" >"$work/run" 2>/dev/null
	crash=$(tail -n 1 "$work/run")
	[ -f "$crash" ] || { echo "$bug: not found"; continue; }
	"$bin/schedfuzz" replay "$crash" -- "$prog" >/dev/null 2>"$work/report"
	steps=$(sed -n 's/^==schedfuzz== schedule: .*(\([0-9]*\) steps,.*/\1/p' "$work/report")
	line=$(awk -v n="$steps" 'substr($0, 1, 2) == "  " && substr($0, 11, 3) == "  T" &&
		substr($0, 5, 6) + 0 == n' "$work/report" | head -1)
	total=$((total + 1))
	mine=() ok=yes
	for _ in $(seq "$trials"); do
		t0=$(date +%s.%N)
		"$bin/schedfuzz" debug "$crash" -batch -ex 'python import time; print("@at %.6f" % time.time())' \
			-ex 'print $sf_step' -ex 'sf where' -- "$prog" >"$work/gdb" 2>/dev/null
		t1=$(sed -n 's/^@at //p' "$work/gdb")
		[ -n "$t1" ] || { ok=no; continue; }
		mine+=("$(echo "$t1 - $t0" | bc -l)")
		grep -qx "\$1 = $steps" "$work/gdb" && grep -qxF -- "$line" "$work/gdb" || ok=no
	done
	[ "$ok" = yes ] && same=$((same + 1))
	times+=("${mine[@]}")
	sorted=$(printf '%s\n' "${mine[@]}" | sort -g)
	printf '%-22s %6s %8.3f %8.3f %s\n' "$bug" "$steps" \
		"$(sed -n "$(((${#mine[@]} + 1) / 2))p" <<<"$sorted")" "$(tail -n 1 <<<"$sorted")" "$ok"
done
sorted=$(printf '%s\n' "${times[@]}" | sort -g)
printf 'debug_prompt_median_s: %.3f\n' "$(sed -n "$(((${#times[@]} + 1) / 2))p" <<<"$sorted")"
printf 'debug_prompt_max_s: %.3f\n' "$(tail -n 1 <<<"$sorted")"
echo "debug_same_step: $same/$total"
