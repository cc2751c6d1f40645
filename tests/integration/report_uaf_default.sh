#!/usr/bin/env bash
# report_uaf_default.sh PROG: a use-after-free in the default mode (no
# ASan, nothing traps): the report shows the evicting thread's free in the
# interleaving, and the reader's access as a read of a block that thread
# freed, with the step and the site of the free; the replay says the same.
. "$(dirname "$0")/lib.sh"
prog=$1
"$SCHEDFUZZ" run -n 2000 --seed 1 -o "$WORK/out" -- "$prog" >"$WORK/out.txt" 2>"$WORK/run.log"
[ $? -eq 1 ] || { cat "$WORK/run.log"; fail "no failure found"; }
interleaving "$WORK/run.log" >"$WORK/events"
grep -Eq "^ +T2 +free of a [0-9]+-byte block +uaf_default.c:41$" "$WORK/events" ||
	{ cat "$WORK/events"; fail "no free in the interleaving"; }
grep -Eq "T1 +read 8 bytes of a block freed after step [0-9]+ by T2 at uaf_default.c:41" "$WORK/events" ||
	fail "the read does not say it was of a freed block"
"$SCHEDFUZZ" replay "$(cat "$WORK/out.txt")" -- "$prog" >/dev/null 2>"$WORK/replay.log"
diff <(interleaving "$WORK/run.log") <(interleaving "$WORK/replay.log") || fail "the replay says otherwise"
echo "use-after-free: the free and the freed block named"
