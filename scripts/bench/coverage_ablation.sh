#!/usr/bin/env bash
# coverage_ablation.sh [CAMPAIGNS] [EXECS] [BUG] - does interleaving coverage help
# afl-fuzz find the zoo's bugs? For each zoo bug and each feedback setting
# (SCHEDFUZZ_COVERAGE=none, hapset, map, both), CAMPAIGNS afl-fuzz campaigns
# (default 10, RNG seeds 1..CAMPAIGNS) of at most EXECS executions each
# (default 2000), stopping at the first crash. The engine, the seeds and
# the budget are the same in every cell; "none" still has afl-fuzz's edge
# coverage of the program. Prints, per bug and setting, the share of
# campaigns that found the bug and the median executions to the first
# crash (afl-fuzz's own count, from the crash file's name; campaigns that
# found nothing count as EXECS, so a median of ">EXECS" means fewer than
# half found it). BUG restricts the run to one zoo program.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
campaigns=${1:-10}
execs=${2:-2000}
only=${3:-}
sf=$top/build/bin/schedfuzz
cc=$top/build/bin/schedfuzz-cc
work=$(mktemp -d "${TMPDIR:-/tmp}/schedfuzz-ablation.XXXXXX")
trap 'rm -rf "$work"' EXIT
command -v afl-fuzz >/dev/null || { echo "coverage_ablation: afl-fuzz not found (scripts/setup.sh)" >&2; exit 2; }
export AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1
export AFL_BENCH_UNTIL_CRASH=1 AFL_QUIET=1
settings="none hapset map both"
jobs=$(nproc)

# One campaign: prints the executions to the first crash, or nothing.
campaign() { # campaign PROG SEEDS SETTING RNG OUT
	SCHEDFUZZ_COVERAGE=$3 timeout 600 afl-fuzz -s "$4" -i "$2" -o "$5" -E "$execs" -- "$1" \
		>"$5.log" 2>&1 || true
	ls "$5/default/crashes" 2>/dev/null | sed -n 's/.*,execs:\([0-9]*\).*/\1/p' | sort -n | head -1
}
export -f campaign
export execs

echo "coverage ablation: afl-fuzz, $campaigns campaigns per cell, at most $execs executions each"
printf '| %-17s |' bug
for s in $settings; do printf ' %-18s |' "$s"; done
printf '\n|---|'
for s in $settings; do printf -- '---|'; done
printf '\n'
grep -v '^#' "$top/tests/bugs/zoo.tsv" | while IFS=$'\t' read -r bug _expect _class _threads _depth _finders input; do
	[ -z "$only" ] || [ "$bug" = "$only" ] || continue
	[ "$input" = data ] && continue # its seeds would need data too
	prog=$work/$bug
	SCHEDFUZZ_ENGINE=afl "$cc" -O1 "$top/tests/bugs/$bug.c" -o "$prog"
	# Seeds that do not fail on their own: the fuzzer must find the bug.
	mkdir -p "$work/seeds.$bug"
	for s in "$top"/seeds/random/random-{0,1,2,3} "$top"/seeds/pct/pct_d_2_k_1000-0 \
		"$top"/seeds/rpro/* "$top"/seeds/pctvb/*; do
		[ "$(ls "$work/seeds.$bug" | wc -l)" -lt 4 ] || break
		[ -f "$s" ] || continue
		{ SCHEDFUZZ_INPUT=$s "$prog"; } >/dev/null 2>&1 && cp "$s" "$work/seeds.$bug/"
	done
	row="| $(printf '%-17s' "$bug") |"
	for setting in $settings; do
		mkdir -p "$work/$bug.$setting"
		seq 1 "$campaigns" | xargs -P "$jobs" -I{} bash -c \
			'campaign "$0" "$1" "$2" {} "$3/{}"' "$prog" "$work/seeds.$bug" "$setting" \
			"$work/$bug.$setting" >"$work/$bug.$setting.found" 2>/dev/null || true
		found=$(grep -c . "$work/$bug.$setting.found" || true)
		median=$( (cat "$work/$bug.$setting.found"; yes "$((execs + 1))" | head -n $((campaigns - found))) |
			sort -n | awk '{ v[NR] = $1 } END { m = v[int((NR + 1) / 2)]; print m }')
		[ "$median" -gt "$execs" ] && median=">$execs"
		cell="$found/$campaigns, $median"
		row="$row $(printf '%-18s' "$cell") |"
		echo "ablation_${bug}_${setting}: found $found/$campaigns, median_execs $median"
		rm -rf "$work/$bug.$setting"
	done
	echo "$row"
done | tee "$work/out" | grep '^|' || true
grep '^ablation_' "$work/out"
echo "ablation_campaigns_per_cell: $campaigns"
echo "ablation_execs_per_campaign: $execs"
