#!/usr/bin/env bash
# errno_native.sh CLANG SOURCE: the program (errno_calls.c) built natively
# with CLANG -pthread and with schedfuzz-cc prints the same lines (errno
# after each call) natively, run directly, and replayed under several
# schedules; and it checks errno itself, so 2,000 schedules pass.
. "$(dirname "$0")/../integration/lib.sh"
clang=$1 src=$2
"$clang" -O1 -pthread "$src" -o "$WORK/native" || fail "$clang cannot build $src"
"$SF_BIN/schedfuzz-cc" -O1 "$src" -o "$WORK/sf" || fail "schedfuzz-cc cannot build $src"
"$WORK/native" >"$WORK/native.out" || fail "the native build failed on its own"
grep -q "^read(closed, buf, 1): errno EBADF$" "$WORK/native.out" || fail "native output lacks EBADF"
"$WORK/sf" >"$WORK/direct.out" 2>"$WORK/direct.err" || { cat "$WORK/direct.err"; fail "the schedfuzz build failed run directly"; }
diff "$WORK/native.out" "$WORK/direct.out" || fail "run directly, the output differs from native"
for s in "pct --seed 1" "pct --seed 2" "rpro --seed 3" "random --seed 4"; do
	"$SCHEDFUZZ" genome --strategy $s -o "$WORK/g" 2>/dev/null || fail "genome $s"
	"$SCHEDFUZZ" replay "$WORK/g" -- "$WORK/sf" >"$WORK/replay.out" 2>"$WORK/replay.err" ||
		{ grep '^==schedfuzz== ERROR' "$WORK/replay.err"; fail "schedule $s failed"; }
	diff "$WORK/native.out" "$WORK/replay.out" || fail "under schedule $s, the output differs from native"
done
"$SCHEDFUZZ" run -n 2000 --seed 1 -o "$WORK/out" -- "$WORK/sf" >/dev/null 2>"$WORK/run.err"
st=$?
[ $st -eq 0 ] || { grep -m3 'errno after\|^==schedfuzz== ERROR' "$WORK/run.err"; fail "schedfuzz run exited $st"; }
grep -q "no failure in 2000 schedules" "$WORK/run.err" || fail "no summary"
echo "errno as natively after $(grep -c errno "$WORK/native.out") calls, in 2000 schedules and 4 replays"
