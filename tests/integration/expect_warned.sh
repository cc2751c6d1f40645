#!/usr/bin/env bash
# expect_warned.sh PROG RUNS WARNING...: RUNS schedules of PROG, which does
# what POSIX leaves undefined and glibc survives: no failure, no saved
# input, and each WARNING (a regex over what follows "==schedfuzz==
# warning: ", up to and including the site) printed exactly once, however
# many schedules reach it; no other warning.
. "$(dirname "$0")/lib.sh"
prog=$1 runs=$2
shift 2
"$SCHEDFUZZ" run -n "$runs" --seed 1 -o "$WORK/out" -- "$prog" >"$WORK/stdout" 2>"$WORK/stderr"
rc=$?
cat "$WORK/stderr"
[ "$rc" -eq 0 ] || fail "expected no failure in $runs schedules, exit $rc"
grep -q "no failure in $runs schedules" "$WORK/stderr" || fail "summary missing"
! ls "$WORK/out"/crash-* >/dev/null 2>&1 || fail "an input was saved"
for w in "$@"; do
	n=$(grep -Ec "^==schedfuzz== warning: $w" "$WORK/stderr")
	[ "$n" -eq 1 ] || fail "warning '$w' printed $n times, expected once"
done
total=$(grep -c '^==schedfuzz== warning: ' "$WORK/stderr")
[ "$total" -eq $# ] || fail "$total warnings printed, expected $#"
echo "$# warnings, each once, and no failure in $runs schedules"
