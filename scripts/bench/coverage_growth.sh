#!/usr/bin/env bash
# coverage_growth.sh [EXECS] - the coverage report over a campaign's corpus:
# an afl-fuzz campaign (EXECS executions, default 5000, RNG seed 1) on
# scripts/bench/interleavings.c (three threads, four shared variables, no
# bug to end it early), then `schedfuzz cov` on its queue, oldest input
# first. Prints MAP coverage and HaPSet pairs as the corpus grows.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
execs=${1:-5000}
work=$(mktemp -d "${TMPDIR:-/tmp}/schedfuzz-growth.XXXXXX")
trap 'rm -rf "$work"' EXIT
export AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1
export AFL_QUIET=1
SCHEDFUZZ_ENGINE=afl "$top/build/bin/schedfuzz-cc" -O1 "$top/scripts/bench/interleavings.c" -o "$work/prog"
mkdir "$work/seeds"
cp "$top/seeds/random/random-0" "$top/seeds/pct/pct_d_2_k_1000-0" "$work/seeds/"
timeout 900 afl-fuzz -s 1 -i "$work/seeds" -o "$work/out" -E "$execs" -- "$work/prog" >"$work/afl.log" 2>&1 ||
	{ tail -20 "$work/afl.log"; exit 1; }
"$top/build/bin/schedfuzz" cov --json "$work/out/default/queue" -- "$work/prog" >"$work/cov.json"
echo "coverage growth: afl-fuzz on interleavings.c, $execs executions; schedfuzz cov over its queue"
echo "| inputs | HaPSet pairs | MAP covered | MAP estimate (TC) | MAP coverage |"
echo "|---|---|---|---|---|"
sed -n 's/.*"inputs": \([0-9]*\), "hapset_pairs": \([0-9]*\), "map_covered": \([0-9]*\), "map_total_estimate": \([0-9]*\)}.*/\1 \2 \3 \4/p' \
	"$work/cov.json" | while read -r n h m t; do
	printf '| %s | %s | %s | %s | %s |\n' "$n" "$h" "$m" "$t" \
		"$(awk -v m="$m" -v t="$t" 'BEGIN { printf "%.4f", t ? m / t : 0 }')"
done
sed -n 's/^  "\(hapset_pairs\|map_covered\|map_total_estimate\|map_coverage\)": \([0-9.]*\),*/growth_final_\1: \2/p' \
	"$work/cov.json"
