#!/usr/bin/env bash
# expect_fuzzed.sh PROG SEEDS KIND_REGEX RUNS: libFuzzer, from a copy of the
# SEEDS corpus with a fixed seed, finds a failure of that kind in PROG (a
# harness whose bug needs both data and a schedule) within RUNS inputs;
# the crash it saved replays in a fresh process with the same report.
# expect_fuzzed.sh --clean PROG SEEDS RUNS: RUNS inputs, no crash at all.
. "$(dirname "$0")/lib.sh"
clean=0
[ "$1" = "--clean" ] && { clean=1; shift; }
prog=$1 seeds=$2
if [ $clean -eq 1 ]; then kind="" runs=$3; else kind=$3 runs=$4; fi
cp -r "$seeds" "$WORK/corpus" # libFuzzer adds new inputs to its first corpus
(cd "$WORK" && "$prog" -seed=1 -runs="$runs" -timeout=20 corpus >"$WORK/log" 2>&1)
rc=$?
crash=$(ls "$WORK"/crash-* 2>/dev/null | head -1)
if [ $clean -eq 1 ]; then
	tail -n 3 "$WORK/log"
	[ "$rc" -eq 0 ] || { cat "$WORK/log"; fail "expected no failure in $runs inputs, exit $rc"; }
	[ -z "$crash" ] || fail "a crash was saved: $crash"
	grep -q "Done $runs runs" "$WORK/log" || fail "libFuzzer did not run all $runs inputs"
	exit 0
fi
grep '^==schedfuzz== ERROR' "$WORK/log"
[ -n "$crash" ] || { tail -n 20 "$WORK/log"; fail "no crash in $runs inputs"; }
grep -Eq "^==schedfuzz== ERROR: ($kind)" "$WORK/log" || fail "no '$kind' report"
"$SCHEDFUZZ" replay "$crash" -- "$prog" >/dev/null 2>"$WORK/replay"
rc=$?
[ "$rc" -eq 1 ] || fail "replay exit $rc, expected 1"
diff <(grep -m1 '^==schedfuzz== ERROR' "$WORK/log") <(grep -m1 '^==schedfuzz== ERROR' "$WORK/replay") ||
	fail "replay reported something else"
echo "found by libFuzzer and replayed: $(grep -m1 '^==schedfuzz== ERROR' "$WORK/log")"
