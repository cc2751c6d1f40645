#!/usr/bin/env bash
# long_events.sh [--baseline DIR] [--runs N] [--rounds R] [--elements E]
# - what a schedule of 30,000+ scheduling points costs: `schedfuzz run` on
# scripts/bench/workloads/datapar.c (4 workers, E elements each, default
# 2000: about 42,000 points a schedule), pinned to one CPU (taskset -c 0),
# N schedules (default 50) per measurement, R rounds (default 3) of every
# configuration, medians over the rounds:
#   guided        the default `schedfuzz run` (portfolio, mutants, coverage)
#   pct           --strategy pct:d=3 (few switches, no coverage)
#   pct+coverage  the same with coverage on, as a guided child has it
#                 (SCHEDFUZZ_COV_DUMP=/dev/null, which adds the dump's
#                 bookkeeping of sites)
#   walk          --strategy random (a switch at most points)
# Prints, per configuration, schedules per second of wall time and per
# CPU second (user+sys, children included: the figure a loaded machine
# moves least) and page faults per schedule; first the points and the
# walk's preemptions per schedule (`schedfuzz replay` of seed 1's
# genomes), and the load average before and after.
# --baseline DIR: the same for another build's bin/ (DIR/build/bin, or a
# copy of a build's bin/ and lib/ under DIR/build), run alternately with
# this one, each line then "before -> after".
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
baseline="" runs=50 rounds=3 elements=2000
while [ $# -gt 0 ]; do
	case $1 in
	--baseline) baseline=$2 ;;
	--runs) runs=$2 ;;
	--rounds) rounds=$2 ;;
	--elements) elements=$2 ;;
	*) echo "long_events.sh: unknown option '$1' (see the comment at the top)" >&2; exit 2 ;;
	esac
	shift 2 || { echo "long_events.sh: $1 needs a value" >&2; exit 2; }
done
bin=$top/build/bin
[ -x "$bin/schedfuzz-cc" ] || "$top/scripts/build.sh" >/dev/null
builds=new
if [ -n "$baseline" ]; then
	[ -x "$baseline/build/bin/schedfuzz" ] || { echo "long_events.sh: no $baseline/build/bin/schedfuzz" >&2; exit 2; }
	builds="old new"
fi
command -v perf >/dev/null || { echo "long_events.sh: needs perf (page faults, CPU time)" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/schedfuzz-long.XXXXXX")
trap 'rm -rf "$work"' EXIT
bin_of() { if [ "$1" = old ]; then echo "$baseline/build/bin"; else echo "$bin"; fi; }
for b in $builds; do
	"$(bin_of $b)/schedfuzz-cc" -O2 "$top/scripts/bench/workloads/datapar.c" -o "$work/datapar.$b"
done
echo "load_before: $(cut -d' ' -f1-3 /proc/loadavg)"
steps() { # GENOME_STRATEGY -> "steps preemptions"
	"$bin/schedfuzz" genome --strategy "$1" --seed 1 -o "$work/g" >/dev/null 2>&1
	"$bin/schedfuzz" replay --events 1 "$work/g" -- "$work/datapar.new" "$elements" 2>&1 >/dev/null |
		sed -n 's/^==schedfuzz== \([0-9]*\) steps, \([0-9]*\) preemption.*/\1 \2/p'
}
read -r points _ <<<"$(steps pct:d=3)"
read -r _ walk_pre <<<"$(steps random)"
echo "long_events_points_per_schedule: $points"
echo "long_events_walk_preemptions_per_schedule: $walk_pre"

# measure BUILD CONFIG -> "wall_s cpu_s faults" of one run of N schedules
measure() {
	local b=$1 c=$2 env="" flag=""
	case $c in
	guided) ;;
	pct) flag="--strategy pct:d=3" ;;
	pct+coverage) flag="--strategy pct:d=3" env=SCHEDFUZZ_COV_DUMP=/dev/null ;;
	walk) flag="--strategy random" ;;
	esac
	rm -rf "$work/o"
	local t0 t1
	t0=$(date +%s.%N)
	env $env perf stat -x, -e task-clock,page-faults -o "$work/stat" -- \
		taskset -c 0 "$(bin_of $b)/schedfuzz" run -n "$runs" --seed 1 $flag -o "$work/o" -- \
		"$work/datapar.$b" "$elements" >/dev/null 2>"$work/log" || true
	grep -q "no failure in $runs schedules" "$work/log" ||
		{ echo "long_events.sh: $b $c did not run $runs clean schedules:" >&2; tail -3 "$work/log" >&2; exit 1; }
	t1=$(date +%s.%N)
	awk -F, -v w="$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" \
		'$3 == "task-clock" { c = $1 / 1000 } $3 == "page-faults" { f = $1 } END { print w, c, f }' "$work/stat"
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
for c in guided pct pct+coverage walk; do
	for b in $builds; do : >"$work/$b.$c"; done
	for r in $(seq "$rounds"); do
		for b in $builds; do measure "$b" "$c" >>"$work/$b.$c"; done
	done
	line=""
	for b in $builds; do
		wall=$(awk '{ print $1 }' "$work/$b.$c" | median)
		cpu=$(awk '{ print $2 }' "$work/$b.$c" | median)
		faults=$(awk '{ print $3 }' "$work/$b.$c" | median)
		fig=$(awk -v n="$runs" -v w="$wall" -v c="$cpu" -v f="$faults" \
			'BEGIN { printf "%.1f/s, %.1f/CPU-s, %d faults", n / w, n / c, f / n }')
		line="$line${line:+ -> }$fig"
	done
	echo "long_events_$c: $line"
done
echo "load_after: $(cut -d' ' -f1-3 /proc/loadavg)"
