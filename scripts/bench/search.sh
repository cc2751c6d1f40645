#!/usr/bin/env bash
# search.sh [BUDGET] - the systematic strategies on the bug zoo, side by
# side as paper 000's tables 1-3: for each zoo program (tests/bugs/zoo.tsv,
# schedule bugs), DPOR, DPOR+HaPSet and preemption bounding with c = 2,
# each given BUDGET executions (default 5000):
#   first   executions up to and including the first that failed ("-": none)
#   total   executions explored, to the end of the space or of the budget
#   done    yes if the whole space (bounded by c for icb) was explored
# Prints one table row per program, then per strategy:
#   search_found_<s>: X/Y    programs whose bug it found within the budget
#   search_complete_<s>: N   programs whose space it explored to the end
#   search_total_<s>: N      executions it ran over all programs
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
budget=${1:-5000}
bin=$top/build/bin
work=$(mktemp -d "${TMPDIR:-/tmp}/schedfuzz-search.XXXXXX")
trap 'rm -rf "$work"' EXIT
[ -x "$bin/schedfuzz-cc" ] || { echo "search.sh: build first (scripts/build.sh)" >&2; exit 2; }

strategies="dpor dpor+hapset icb:c=2"
declare -A found complete total
for s in $strategies; do found[$s]=0 complete[$s]=0 total[$s]=0; done
programs=0
printf '%-26s' program
for s in $strategies; do printf ' | %-22s' "$s first/total/done"; done
echo
while IFS=$'\t' read -r prog kinds _ _ _ _ input; do
	case $prog in '#'* | '') continue ;; esac
	[ "$input" = schedule ] || continue
	"$bin/schedfuzz-cc" -O1 "$top/tests/bugs/$prog.c" -o "$work/$prog"
	programs=$((programs + 1))
	printf '%-26s' "$prog"
	for s in $strategies; do
		out=$work/$prog.$s
		timeout 1200 "$bin/schedfuzz" run --strategy "$s" -n "$budget" --keep-going \
			-o "$work/crashes" -- "$work/$prog" >/dev/null 2>"$out" || true
		first=$(sed -n 's/^first_failure: //p' "$out")
		n=$(sed -n 's/^schedules: //p' "$out")
		done_=$(sed -n 's/^complete: //p' "$out")
		[ -n "$first" ] && found[$s]=$((found[$s] + 1))
		[ "$done_" = yes ] && complete[$s]=$((complete[$s] + 1))
		total[$s]=$((total[$s] + ${n:-0}))
		printf ' | %-22s' "${first:--}/${n:-?}/${done_:-?}"
	done
	echo
done <"$top/tests/bugs/zoo.tsv"
for s in $strategies; do
	name=${s//[^a-z0-9]/_}
	echo "search_found_$name: ${found[$s]}/$programs"
	echo "search_complete_$name: ${complete[$s]}"
	echo "search_total_$name: ${total[$s]}"
done
