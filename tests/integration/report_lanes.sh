#!/usr/bin/env bash
# report_lanes.sh PROG: replay's thread lanes are as wide as their longest
# event needs, so no event is cut (here a 30-character variable name, cut
# at 29 characters before), and --width N sets a lane's width.
. "$(dirname "$0")/lib.sh"
prog=$1
"$SCHEDFUZZ" run -n 2000 --seed 1 -o "$WORK/out" -- "$prog" >"$WORK/run.log" 2>&1
[ $? -eq 1 ] || fail "no failure found"
crash=$(ls "$WORK/out"/crash-* | head -1)
"$SCHEDFUZZ" replay "$crash" -- "$prog" >"$WORK/lanes" 2>&1
grep -q "| read shared_ledger_balance_in_cents *|" "$WORK/lanes" || fail "an event is cut in the lanes"
"$SCHEDFUZZ" replay --width 12 "$crash" -- "$prog" >"$WORK/narrow" 2>&1
grep -q "| read shared *|" "$WORK/narrow" || fail "--width 12 did not set the lane's width"
echo "lanes fit their events; --width sets them"
