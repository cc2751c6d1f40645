#!/usr/bin/env bash
# afl_zoo.sh [SECONDS] [BUG] - afl-fuzz over every zoo program (or BUG),
# each built with SCHEDFUZZ_ENGINE=afl, for at most SECONDS (default 300)
# or until its first crash, from the bundled genome seeds. Every crash
# saved is replayed with `schedfuzz replay`, which must fail again. Prints
# a markdown table (seconds and executions to the first crash, crashes
# saved and replayed), then "afl_zoo_found: X/Y" and
# "afl_zoo_replayed: A/B".
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
limit=${1:-300}
only=${2:-}
bin=$top/build/bin
[ -x "$bin/schedfuzz-cc" ] || "$top/scripts/build.sh" >/dev/null
work=$(mktemp -d "${TMPDIR:-/tmp}/schedfuzz-afl-zoo.XXXXXX")
trap 'rm -rf "$work"' EXIT
export AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1
export AFL_BENCH_UNTIL_CRASH=1

# One flat seed directory: every strategy's genomes.
mkdir "$work/seeds"
for d in random pct rpro pctvb; do cp "$top/seeds/$d"/* "$work/seeds/"; done

found=0 total=0 crashes=0 replayed=0
echo "| bug | found | seconds to first crash | executions to first crash | crashes saved | replayed |"
echo "|---|---|---|---|---|---|"
while IFS=$'\t' read -r bug _expect _class _threads _depth _finders input; do
	case $bug in '#'* | '') continue ;; esac
	[ -n "$only" ] && [ "$bug" != "$only" ] && continue
	total=$((total + 1))
	# A harness whose bug needs data runs in persistent mode from its own
	# seeds (genomes followed by data).
	seeds=$work/seeds flags=()
	[ "$input" = data ] && seeds=$top/seeds/harnesses/$bug flags=(-fsanitize=fuzzer)
	SCHEDFUZZ_ENGINE=afl "$bin/schedfuzz-cc" -O1 "${flags[@]}" "$top/tests/bugs/$bug.c" -o "$work/$bug"
	timeout $((limit + 60)) afl-fuzz -s 1 -V "$limit" -i "$seeds" -o "$work/out-$bug" -- "$work/$bug" \
		>"$work/$bug.log" 2>&1 || true
	dir=$work/out-$bug/default/crashes
	first=$(ls "$dir" 2>/dev/null | grep '^id:' | head -1 || true)
	n=0 ok=0
	for c in "$dir"/id:*; do
		[ -e "$c" ] || continue
		n=$((n + 1))
		set +e
		"$bin/schedfuzz" replay --events 1 "$c" -- "$work/$bug" >/dev/null 2>&1
		[ $? -eq 1 ] && ok=$((ok + 1))
		set -e
	done
	crashes=$((crashes + n))
	replayed=$((replayed + ok))
	if [ -n "$first" ]; then
		found=$((found + 1))
		ms=$(echo "$first" | sed -n 's/.*time:\([0-9]*\).*/\1/p')
		execs=$(echo "$first" | sed -n 's/.*execs:\([0-9]*\).*/\1/p')
		secs=$(awk -v m="$ms" 'BEGIN { printf "%.1f", m / 1000 }')
		echo "| $bug | yes | $secs | $execs | $n | $ok |"
	else
		echo "| $bug | no (${limit} s) | - | - | 0 | 0 |"
	fi
done <"$top/tests/bugs/zoo.tsv"
echo "afl_zoo_found: $found/$total"
echo "afl_zoo_replayed: $replayed/$crashes"
