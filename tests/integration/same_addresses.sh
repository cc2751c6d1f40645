#!/usr/bin/env bash
# same_addresses.sh ADDRESSES: the program's memory lies at the same
# addresses in every run and replay under schedfuzz (address-space
# randomisation off, fuzz/program.c), so that what depends on addresses
# is the same for the same schedule; run outside schedfuzz, it moves.
. "$(dirname "$0")/lib.sh"
prog=$1
"$SCHEDFUZZ" genome --strategy pct:d=2 --seed 1 -o "$WORK/g" >/dev/null || fail "genome"
for r in 1 2; do
	"$SCHEDFUZZ" replay --events 0 "$WORK/g" -- "$prog" >"$WORK/replay$r" 2>/dev/null ||
		fail "replay $r failed"
	"$SCHEDFUZZ" run -n 3 --seed 1 --verbose -o "$WORK/out" -- "$prog" >"$WORK/run$r" 2>&1 ||
		fail "run $r failed: $(cat "$WORK/run$r")"
done
grep -q '^heap 0x' "$WORK/replay1" || fail "no addresses printed: $(cat "$WORK/replay1")"
diff "$WORK/replay1" "$WORK/replay2" >/dev/null ||
	fail "two replays, other addresses: $(cat "$WORK/replay1" "$WORK/replay2")"
diff <(grep '^heap' "$WORK/run1") <(grep '^heap' "$WORK/run2") >/dev/null ||
	fail "two runs, other addresses: $(grep '^heap' "$WORK/run1" "$WORK/run2")"
# Without schedfuzz the kernel randomises them (the test's own premise).
SCHEDFUZZ_INPUT="$WORK/g" "$prog" >"$WORK/direct1" 2>/dev/null
SCHEDFUZZ_INPUT="$WORK/g" "$prog" >"$WORK/direct2" 2>/dev/null
if diff "$WORK/direct1" "$WORK/direct2" >/dev/null; then
	echo "note: this machine does not randomise addresses; the check above is vacuous here"
fi
echo "same addresses: $(cat "$WORK/replay1")"
