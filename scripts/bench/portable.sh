#!/usr/bin/env bash
# portable.sh [--bugs "NAME..."] [--runs N] [--seed S] [--keep DIR] - do
# minimised reproducers replay on other builds of the same source?
#
# For each zoo bug (tests/bugs/NAME.c; by default every main() program of
# tests/bugs/zoo.tsv): build it four ways (-O1 -g; -O2
# -gline-tables-only, as OSS-Fuzz does; the ASan mode; the AFL++ build),
# and its fixed twin at -O1 -g; find the bug with `schedfuzz run` on the
# -O1 -g build (fixed seed), `schedfuzz min` it, then replay the
# binary-exact minimised input and its portable form on every build.
# Prints one table line per bug (1: failed as on -O1 -g, with the same
# kind of failure; 0: passed; d: failed another way) and
#   portable_replays: X/Y  bugs whose portable form failed the same way on
#                          the -O2, ASan and AFL++ builds
#   not_portable: N        the others, each with why below
#   exact_replays: X/Y     the same for the binary-exact input, for comparison
#   fixed_false_alarms: N  portable forms that failed on a fixed twin
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=${SF_BIN:-$top/build/bin}
bugs=$(awk -F'\t' '!/^#/ && $NF == "schedule" { print $1 }' "$top/tests/bugs/zoo.tsv")
runs=20000 seed=1 keep=""
while [ $# -gt 0 ]; do
	case $1 in
	--bugs) bugs=$2 ;;
	--runs) runs=$2 ;;
	--seed) seed=$2 ;;
	--keep) keep=$2 ;;
	*) echo "usage: portable.sh [--bugs \"NAME...\"] [--runs N] [--seed S] [--keep DIR]" >&2; exit 2 ;;
	esac
	shift 2
done
work=${keep:-$(mktemp -d "${TMPDIR:-/tmp}/schedfuzz-portable.XXXXXX")}
mkdir -p "$work"
[ -n "$keep" ] || trap 'rm -rf "$work"' EXIT
builds="o1 o2 asan afl"

build() { # build NAME BUILD SOURCE OUT
	case $2 in
	o1) "$bin/schedfuzz-cc" -O1 -g "$3" -o "$4" ;;
	o2) "$bin/schedfuzz-cc" -O2 -gline-tables-only "$3" -o "$4" ;;
	asan) "$bin/schedfuzz-cc" -O1 -g -fsanitize=address "$3" -o "$4" ;;
	afl) SCHEDFUZZ_ENGINE=afl "$bin/schedfuzz-cc" -O1 -g "$3" -o "$4" ;;
	fixed) "$bin/schedfuzz-cc" -O1 -g -DFIXED "$3" -o "$4" ;;
	esac
}

# The kind of a replay's failure ("assertion failure", "deadlock",
# "sanitizer report"), empty when it passed.
kind_of() {
	sed -n 's/^==schedfuzz== ERROR: \([^:(]*\).*/\1/p' "$1" | head -1
}

printf '%-24s %-8s %-20s %-20s %s\n' bug decisions "exact o1/o2/asan/afl" "portable o1/o2/asan/afl" fixed
total=0 portable_ok=0 exact_ok=0 false_alarms=0
why=""
for bug in $bugs; do
	src=$top/tests/bugs/$bug.c
	d=$work/$bug
	mkdir -p "$d"
	total=$((total + 1))
	for b in $builds fixed; do
		build "$bug" "$b" "$src" "$d/$b" >"$d/build-$b.log" 2>&1 ||
			{ echo "$bug: the $b build failed: $(head -3 "$d/build-$b.log")" >&2; continue 2; }
	done
	if "$bin/schedfuzz" run -n "$runs" --seed "$seed" -o "$d/found" -- "$d/o1" >"$d/run.log" 2>&1; then
		printf '%-24s not found in %s schedules\n' "$bug" "$runs"
		why="$why  $bug: not found on -O1 -g in $runs schedules"$'\n'
		continue
	fi
	crash=$(ls "$d/found"/crash-* 2>/dev/null | head -1)
	min=$("$bin/schedfuzz" min "$crash" -- "$d/o1" 2>"$d/min.log")
	if [ ! -f "$min.portable" ]; then
		reason=$(grep -m1 'no portable form' "$d/min.log" || grep -m1 'schedfuzz:' "$d/min.log")
		printf '%-24s %s\n' "$bug" "${reason#schedfuzz: }"
		why="$why  $bug: ${reason#schedfuzz: }"$'\n'
		continue
	fi
	ndec=$(grep -c '^at ' "$min.portable")
	exact="" port="" all_exact=1 all_port=1 bug_why=""
	# as in the portable.builds test: its kind, or on the ASan build what
	# ASan saw first
	want=$(sed -n 's/^failure \([^:]*\):.*/\1/p' "$min.portable")
	for b in $builds; do
		"$bin/schedfuzz" replay --events 0 "$min" -- "$d/$b" >"$d/exact-$b.log" 2>&1
		e=$?
		"$bin/schedfuzz" replay --events 0 "$min.portable" -- "$d/$b" >"$d/portable-$b.log" 2>&1
		p=$?
		[ $e -eq 1 ] && e=1 || { e=0; all_exact=0; }
		got=$(kind_of "$d/portable-$b.log")
		if [ $p -ne 1 ]; then
			p=0 all_port=0 bug_why="$bug_why, passes on $b"
			lost=$(grep -m1 'anchor\|no code' "$d/portable-$b.log")
			[ -z "$lost" ] || bug_why="$bug_why (${lost#schedfuzz: })"
		elif [ "$got" != "$want" ] && ! { [ "$b" = asan ] && [ "$got" = "sanitizer report" ]; }; then
			p=d all_port=0 bug_why="$bug_why, fails on $b with ${got:-no report} (-O1 -g: $want)"
		else
			p=1
		fi
		exact="$exact$e/" port="$port$p/"
	done
	[ -z "$bug_why" ] || why="$why  $bug: ${bug_why#, }"$'\n'

	"$bin/schedfuzz" replay --events 0 "$min.portable" -- "$d/fixed" >"$d/portable-fixed.log" 2>&1
	f=$?
	[ $f -eq 1 ] && false_alarms=$((false_alarms + 1))
	[ $all_port -eq 1 ] && portable_ok=$((portable_ok + 1))
	[ $all_exact -eq 1 ] && exact_ok=$((exact_ok + 1))
	printf '%-24s %-8s %-20s %-20s %s\n' "$bug" "$ndec" "${exact%/}" "${port%/}" \
		"$([ $f -eq 0 ] && echo passes || echo "FAILS (status $f)")"
done
echo "portable_replays: $portable_ok/$total"
echo "not_portable: $((total - portable_ok))"
printf '%s' "$why"
echo "exact_replays: $exact_ok/$total"
echo "fixed_false_alarms: $false_alarms"
[ -n "$keep" ] && echo "files: $work"
exit 0
