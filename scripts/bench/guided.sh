#!/usr/bin/env bash
# guided.sh [--budget N] [--seeds S] [--program NAME[,NAME...]] [--baseline DIR] [--memory2]
# - schedules to the first bug with guided `schedfuzz run` (the default)
# beside the unguided portfolio (--no-guide), on every main() program of the zoo
# (tests/bugs/zoo.tsv), seeds 1..S (default 10), and on reorder_n with 10
# and 20 threads (order violations among symmetric threads).
#
# Prints one line per program: the median schedules to the first failure
# of each configuration over the seeds (a seed that found nothing counts
# as the budget, and the found count says so), then
#   guided_geomean: G   unguided_geomean: U (baseline_geomean)   ratio: G/U
# over the zoo's medians (the issue's target: ratio <= 0.5).
# --memory2: the second column is guided `run` with SCHEDFUZZ_MEMORY=2
# (every access a scheduling point), and the memory-error zoo
# (tests/bugs/memory/zoo.tsv) runs too, in the ASan mode, outside the
# geometric means; each line then ends with guided / memory2 (the
# issue's target: at most 1.5 on every program).
# --baseline DIR: the second column is another checkout's `schedfuzz run`
# as it runs by default (DIR/build/bin, built there; each program built by
# its schedfuzz-cc), e.g. the portfolio of an older commit:
#   git worktree add /tmp/base 4462567 && (cd /tmp/base && scripts/build.sh)
#   scripts/bench/guided.sh --baseline /tmp/base
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
budget=1000 seeds=10 only="" baseline="" memory2=""
while [ $# -gt 0 ]; do
	case $1 in
	--budget) budget=$2 ;;
	--seeds) seeds=$2 ;;
	--program) only=$2 ;;
	--baseline) baseline=$2 ;;
	--memory2) memory2=yes; shift; continue ;;
	*) echo "guided.sh: unknown option '$1' (see the comment at the top)" >&2; exit 2 ;;
	esac
	shift 2 || { echo "guided.sh: $1 needs a value" >&2; exit 2; }
done
bin=$top/build/bin
[ -x "$bin/schedfuzz-cc" ] || "$top/scripts/build.sh" >/dev/null
work=$(mktemp -d "${TMPDIR:-/tmp}/schedfuzz-guided.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The second column: --no-guide here, or the baseline's default.
uenv=""
if [ -n "$memory2" ]; then
	ubin=$bin uflag="" ulabel=memory2 uenv=SCHEDFUZZ_MEMORY=2
elif [ -n "$baseline" ]; then
	ubin=$baseline/build/bin uflag="" ulabel=baseline
	[ -x "$ubin/schedfuzz" ] || { echo "guided.sh: no $ubin/schedfuzz (build $baseline first)" >&2; exit 2; }
else
	ubin=$bin uflag=--no-guide ulabel=unguided
fi

# The schedule at which run failed first, or the budget if none did.
first() { # BINARY SEED [FLAG [BIN [ENV]]]
	rm -rf "$work/o"
	mkdir "$work/o"
	env ${5:-} "${4:-$bin}/schedfuzz" run -n "$budget" --seed "$2" --timeout 10 ${3:-} -o "$work/o" -- "$1" \
		>/dev/null 2>"$work/log" || true
	local n
	n=$(sed -n 's/^schedfuzz: schedule \([0-9]*\) of .* failed:.*/\1/p' "$work/log" | head -1)
	echo "${n:-miss}"
}
median() { tr ' ' '\n' | sed 's/miss/'"$budget"'/' | sort -n | awk '{ v[NR] = $1 } END {
	if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
found() { tr ' ' '\n' | grep -cv miss || true; }

programs=$(awk -F'\t' '!/^#/ && $NF == "schedule" { print $1 }' "$top/tests/bugs/zoo.tsv")
in_only() { [ -z "$only" ] || [[ ",$only," == *",$1,"* ]]; }
programs=$(for p in $programs; do in_only "$p" && echo "$p"; done)
printf '%-24s %18s %18s\n' program "guided med (found)" "$ulabel med (found)"
gsum=0 usum=0 count=0
measure() { # NAME BINARY IN_GEOMEAN [BASELINE_BINARY]
	local g="" u="" s
	for s in $(seq 1 "$seeds"); do
		g="$g $(first "$2" "$s")"
		u="$u $(first "${4:-$2}" "$s" "$uflag" "$ubin" "$uenv")"
	done
	local gm um
	gm=$(echo $g | median) um=$(echo $u | median)
	printf '%-24s %12s (%2d) %12s (%2d)' "$1" "$gm" "$(echo $g | found)" "$um" "$(echo $u | found)"
	[ -n "$memory2" ] && awk -v g="$gm" -v u="$um" 'BEGIN { printf "   %.2f", g / u }'
	echo
	if [ "$3" = yes ]; then
		gsum=$(awk -v a="$gsum" -v m="$gm" 'BEGIN { print a + log(m) }')
		usum=$(awk -v a="$usum" -v m="$um" 'BEGIN { print a + log(m) }')
		count=$((count + 1))
	fi
}
for p in $programs; do
	"$bin/schedfuzz-cc" -O1 "$top/tests/bugs/$p.c" -o "$work/$p" 2>/dev/null
	"$ubin/schedfuzz-cc" -O1 "$top/tests/bugs/$p.c" -o "$work/$p.u" 2>/dev/null
	measure "$p" "$work/$p" yes "$work/$p.u"
done
if [ -n "$memory2" ]; then
	mprograms=$(awk -F'\t' '!/^#/ { print $1 }' "$top/tests/bugs/memory/zoo.tsv")
	mprograms=$(for p in $mprograms; do in_only "$p" && echo "$p"; done)
	for p in $mprograms; do
		"$bin/schedfuzz-cc" -O1 -fsanitize=address "$top/tests/bugs/memory/$p.c" -o "$work/$p" 2>/dev/null
		measure "$p (asan)" "$work/$p" no
	done
fi
if [ -z "$only" ]; then
	for n in 10 20; do
		"$bin/schedfuzz-cc" -O1 -DTHREADS=$n "$top/tests/bugs/reorder_n.c" -o "$work/reorder_$n"
		"$ubin/schedfuzz-cc" -O1 -DTHREADS=$n "$top/tests/bugs/reorder_n.c" -o "$work/reorder_$n.u"
		measure "reorder_n (N=$n)" "$work/reorder_$n" no "$work/reorder_$n.u"
	done
fi
awk -v g="$gsum" -v u="$usum" -v n="$count" -v l="$ulabel" 'BEGIN { if (n) {
	printf "guided_geomean: %.2f\n%s_geomean: %.2f\nratio: %.2f\n", exp(g / n), l, exp(u / n), exp(g / n) / exp(u / n) } }'
