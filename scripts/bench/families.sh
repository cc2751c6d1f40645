#!/usr/bin/env bash
# families.sh [--quick] [--cap N] [--seeds S] [--threads "2 3 ..."] [--family F]
#   [--configs "default guide0 pct3"]
# - the scalable families (tests/families/, docs/many-threads.md): for
# each family and thread count N, schedules to the first bug over seeds
# 1..S (median and maximum, "-" when some seed did not find it within the
# cap, with how many did), side by side for three configurations of
# `schedfuzz run`:
#   default  as a user runs it (the guided search, where it exists)
#   guide0   SCHEDFUZZ_GUIDE=0: the unguided portfolio
#   pct3     --strategy pct:d=3
# Then each fixed twin runs CAP schedules of the default configuration at
# every N (false alarms must be 0), and the cost of one schedule of each
# fixed twin at N = 3 and N = 100 (CPU seconds of the explorer and its
# children over 200 schedules, divided by 200) and their ratio (target:
# 100/3 = 33 or less). Prints "name: value" lines:
#   families_F_N_CONFIG: median=M max=X found=K/S
#   families_found_within_cap: K/T   (family x N cells found by every seed, default)
#   families_median_n100: M          (median over families of the default medians at N=100)
#   families_fixed_false_alarms: K
#   families_cost_F: n3_ms=A n100_ms=B ratio=R
# --quick: seeds 3, threads "3 10 100", cap 300. --configs runs only those
# configurations (columns of the others print as "not run").
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cap=1000 seeds=10 threads="2 3 5 10 20 50 100" only="" configs="default guide0 pct3"
while [ $# -gt 0 ]; do
	case $1 in
	--quick) seeds=3 threads="3 10 100" cap=300; shift; continue ;;
	--cap) cap=$2 ;;
	--seeds) seeds=$2 ;;
	--threads) threads=$2 ;;
	--family) only=$2 ;;
	--configs) configs=$2 ;;
	*) echo "families.sh: unknown option '$1' (see the comment at the top)" >&2; exit 2 ;;
	esac
	shift 2 || { echo "families.sh: $1 needs a value" >&2; exit 2; }
done
bin=$top/build/bin
[ -x "$bin/schedfuzz-cc" ] || "$top/scripts/build.sh" >/dev/null
work=$(mktemp -d "${TMPDIR:-/tmp}/schedfuzz-families.XXXXXX")
trap 'rm -rf "$work"' EXIT
families="setters twostage stack deque"
[ -n "$only" ] && families=$only
for f in $families; do
	[ -f "$top/tests/families/$f.c" ] || { echo "families.sh: no family '$f'" >&2; exit 2; }
	"$bin/schedfuzz-cc" -O1 "$top/tests/families/$f.c" -o "$work/$f"
	"$bin/schedfuzz-cc" -O1 -DFIXED "$top/tests/families/$f.c" -o "$work/${f}_fixed"
done

# Schedules to the first failure of one run, or nothing.
first() {
	sed -n 's/^schedfuzz: schedule \([0-9]*\) of [0-9]* failed.*/\1/p' "$1" | head -n 1
}

# median max found over the numbers on stdin ("x" = not found), cap = $1.
summarize() {
	sort -n | awk -v cap="$1" -v seeds="$seeds" '
		$1 == "x" { next }
		{ v[++n] = $1 }
		END {
			if (n < seeds) { printf "median=- max=- found=%d/%d", n, seeds; exit }
			m = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
			printf "median=%g max=%d found=%d/%d", m, v[n], n, seeds
		}'
}

run_config() { # config family n seed -> schedules or x
	local config=$1 f=$2 n=$3 seed=$4 env=() spec=()
	case $config in
	guide0) env=(SCHEDFUZZ_GUIDE=0) ;;
	pct3) spec=(--strategy pct:d=3) ;;
	esac
	env "${env[@]}" "$bin/schedfuzz" run -n "$cap" --seed "$seed" "${spec[@]}" -o "$work/out" -- \
		"$work/$f" "$n" >/dev/null 2>"$work/log" || true
	rm -rf "$work/out"
	local s
	s=$(first "$work/log")
	echo "${s:-x}"
}

cells=0 found_cells=0
declare -A med100=()
printf '%-9s %4s  %-26s %-26s %-26s\n' family N default guide0 pct3 >&2
for f in $families; do
	for n in $threads; do
		line=()
		for config in default guide0 pct3; do
			if [[ " $configs " != *" $config "* ]]; then
				line+=("not run")
				continue
			fi
			r=$(for seed in $(seq 1 "$seeds"); do run_config "$config" "$f" "$n" "$seed"; done |
				summarize "$cap")
			echo "families_${f}_${n}_${config}: $r"
			line+=("$r")
			if [ "$config" = default ]; then
				cells=$((cells + 1))
				[[ $r == *"found=$seeds/$seeds" ]] && found_cells=$((found_cells + 1))
				[ "$n" = 100 ] && med100[$f]=$(sed 's/median=\([^ ]*\).*/\1/' <<<"$r")
			fi
		done
		printf '%-9s %4s  %-26s %-26s %-26s\n' "$f" "$n" "${line[@]}" >&2
	done
done
echo "families_found_within_cap: $found_cells/$cells"
if [ ${#med100[@]} -gt 0 ]; then
	echo "families_median_n100: $(for f in "${!med100[@]}"; do echo "${med100[$f]}"; done |
		sed 's/^-$/inf/' | sort -g | awk '{ v[++n] = $1 } END {
			m = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2; print m }')"
fi

alarms=0
for f in $families; do
	for n in $threads; do
		if ! "$bin/schedfuzz" run -n "$cap" --seed 1 -o "$work/out" -- "$work/${f}_fixed" "$n" \
			>/dev/null 2>"$work/log"; then
			alarms=$((alarms + 1))
			echo "families: false alarm on ${f}_fixed with $n threads:" >&2
			grep -m1 '^==schedfuzz== ERROR' "$work/log" >&2 || tail -n 3 "$work/log" >&2
		fi
		rm -rf "$work/out"
	done
done
echo "families_fixed_false_alarms: $alarms"

# CPU seconds (user + system, children included) of 200 schedules.
cpu() {
	/usr/bin/time -f '%U %S' -o "$work/time" "$bin/schedfuzz" run -n 200 --seed 1 -o "$work/out" -- \
		"$@" >/dev/null 2>&1 || true
	awk '{ printf "%.3f", ($1 + $2) * 1000 / 200 }' "$work/time"
}
for f in $families; do
	a=$(cpu "$work/${f}_fixed" 3)
	b=$(cpu "$work/${f}_fixed" 100)
	echo "families_cost_$f: n3_ms=$a n100_ms=$b ratio=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.1f", b / a }')"
done
