#!/usr/bin/env bash
# report_inlined.sh PROG: accesses inside an inlined function are credited
# to it, in the explorer's report and in replay's lanes.
. "$(dirname "$0")/lib.sh"
prog=$1
"$SCHEDFUZZ" run -n 2000 --seed 1 -o "$WORK/out" -- "$prog" >"$WORK/run.log" 2>&1
[ $? -eq 1 ] || fail "no failure found"
interleaving "$WORK/run.log" >"$WORK/events"
grep -q "read 4 bytes of shared_ledger_balance_in_cents .*inlined_site.c:12" "$WORK/events" ||
	fail "the read is not at inlined_site.c:12: $(grep balance "$WORK/events" | head -3)"
crash=$(ls "$WORK/out"/crash-* | head -1)
"$SCHEDFUZZ" replay "$crash" -- "$prog" >"$WORK/replay.log" 2>&1
grep -q "inlined_site.c:12 (account_add)" "$WORK/replay.log" ||
	fail "replay's lanes credit the read to $(grep -o 'inlined_site.c:12 ([a-z_]*)' "$WORK/replay.log" | head -1)"
! grep -q "inlined_site.c:1[23] (deposit)" "$WORK/replay.log" || fail "a site is credited to the caller"
echo "inlined sites credited to account_add"
