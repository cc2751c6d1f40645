#!/usr/bin/env bash
# first_failures.sh [--bin DIR] [--seeds S] [--budget N] [--program NAME[,NAME...]] [CONFIG...]
# - the first failure of `schedfuzz run` on every main() program of the
# zoo (tests/bugs/zoo.tsv), seeds 1..S (default 3), under each CONFIG
# (default: "guided" and "no-guide"; else a `--strategy` spec such as
# pct:d=3): one line per run, "program config seed schedule input", where
# input is the names of the files it saved (crash-<hash of the input's
# bytes>), or "miss".
#
# For a change that must not move any schedule: run it with the build
# before (--bin OTHER/build/bin, a copy of that build's bin/ and lib/
# will do) and after, and diff the two outputs; the same lines mean the
# same inputs failed first at the same schedules.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/build/bin seeds=3 budget=1000 only=""
while [ $# -gt 0 ]; do
	case $1 in
	--bin) bin=$2 ;;
	--seeds) seeds=$2 ;;
	--budget) budget=$2 ;;
	--program) only=$2 ;;
	--*) echo "first_failures.sh: unknown option '$1' (see the comment at the top)" >&2; exit 2 ;;
	*) break ;;
	esac
	shift 2 || { echo "first_failures.sh: $1 needs a value" >&2; exit 2; }
done
configs=${*:-guided no-guide}
[ -x "$bin/schedfuzz-cc" ] || { echo "first_failures.sh: no $bin/schedfuzz-cc" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/schedfuzz-first.XXXXXX")
trap 'rm -rf "$work"' EXIT

programs=$(awk -F'\t' '!/^#/ && $NF == "schedule" { print $1 }' "$top/tests/bugs/zoo.tsv")
for p in $programs; do
	[ -z "$only" ] || [[ ",$only," == *",$p,"* ]] || continue
	"$bin/schedfuzz-cc" -O1 "$top/tests/bugs/$p.c" -o "$work/$p" 2>/dev/null
	for c in $configs; do
		case $c in
		guided) flag="" ;;
		no-guide) flag=--no-guide ;;
		*) flag="--strategy $c" ;;
		esac
		for s in $(seq 1 "$seeds"); do
			rm -rf "$work/o"
			"$bin/schedfuzz" run -n "$budget" --seed "$s" --timeout 10 $flag -o "$work/o" -- "$work/$p" \
				>/dev/null 2>"$work/log" || true
			n=$(sed -n 's/^schedfuzz: schedule \([0-9]*\) of .* failed:.*/\1/p' "$work/log" | head -1)
			f=$(ls "$work/o" | sort | paste -sd, -)
			echo "$p $c $s ${n:-miss} ${f:-miss}"
		done
	done
done
