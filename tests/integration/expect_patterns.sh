#!/usr/bin/env bash
# expect_patterns.sh MAP_STEPS PATTERN IMPLIED...: run the map_steps program
# on MAP pattern PATTERN's own steps under a few schedules, and check with
# `schedfuzz cov --json` that the covered patterns are exactly PATTERN and
# the IMPLIED ones (the shorter patterns its steps form), each once.
. "$(dirname "$0")/lib.sh"
prog=$1 pattern=$2
shift 2
steps=$(awk -v p="$pattern" -F'\t' '$1 == p { print $2 }' <<'TABLE'
1	a:R x, b:W x
2	a:W x, b:R x
3	a:W x, b:W x
4	a:R x, b:W x, a:R x
5	a:W x, b:W x, a:R x
6	a:W x, b:R x, a:W x
7	a:R x, b:W x, a:W x
8	a:W x, b:W x, a:W x
9	a:W x, b:W x, b:W y, a:W y
10	a:W x, b:W y, b:W x, a:W y
11	a:W x, b:W y, a:W y, b:W x
12	a:W x, b:R x, b:R y, a:W y
13	a:W x, b:R y, b:R x, a:W y
14	a:R x, b:W x, b:W y, a:R y
15	a:R x, b:W y, b:W x, a:R y
16	a:R x, b:W y, a:R y, b:W x
17	a:W x, b:R y, a:W y, b:R x
TABLE
)
[ -n "$steps" ] || fail "no pattern $pattern"
mkdir "$WORK/corpus"
for s in 1 2 3 4; do
	"$SCHEDFUZZ" genome --strategy random --seed $s -o "$WORK/corpus/seed$s" 2>/dev/null ||
		fail "genome"
done
"$SCHEDFUZZ" cov --json "$WORK/corpus" -- "$prog" "$steps" >"$WORK/cov.json" ||
	fail "schedfuzz cov failed"
covered=$(sed -n 's/.*"id": \([0-9]*\), .*"covered": \([0-9]*\),.*/\1 \2/p' "$WORK/cov.json" |
	awk '$2 > 0 { print $1 }' | sort -n | tr '\n' ' ')
want=$(printf '%s\n' "$pattern" "$@" | sort -n | uniq | tr '\n' ' ')
echo "pattern $pattern ($steps): covered $covered"
[ "$covered" = "$want" ] || fail "covered patterns '$covered', want '$want'"
# One instance each: the order is forced, and sites are per step.
extra=$(sed -n 's/.*"id": \([0-9]*\), .*"covered": \([0-9]*\),.*/\2/p' "$WORK/cov.json" |
	awk '$1 > 1' | wc -l)
[ "$extra" -eq 0 ] || fail "a pattern was covered by more than one instance"
grep -q '"inputs": 4' "$WORK/cov.json" || fail "not every input was replayed"
