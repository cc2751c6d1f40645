#!/usr/bin/env bash
# replay100.sh PROG: a failing input replays to the same interleaving in 100
# fresh processes; the schedule recorded from it (an explicit decision
# list) replays to that interleaving too. Never skipped.
. "$(dirname "$0")/lib.sh"
prog=$1
"$SCHEDFUZZ" run -n 2000 --seed 7 -o "$WORK/out" -- "$prog" >"$WORK/stdout" 2>/dev/null
[ $? -eq 1 ] || fail "no failure found to replay"
input=$(tail -n 1 "$WORK/stdout")
"$SCHEDFUZZ" replay --record "$WORK/explicit" "$input" -- "$prog" 2>"$WORK/first" >/dev/null
[ $? -eq 1 ] || fail "first replay did not fail"
interleaving "$WORK/first" >"$WORK/expected"
[ -s "$WORK/expected" ] || fail "no interleaving printed"
for i in $(seq 1 100); do
	"$SCHEDFUZZ" replay "$input" -- "$prog" 2>"$WORK/again" >/dev/null
	[ $? -eq 1 ] || fail "replay $i did not fail"
	interleaving "$WORK/again" | cmp -s - "$WORK/expected" || {
		diff <(interleaving "$WORK/again") "$WORK/expected"
		fail "replay $i printed a different interleaving"
	}
done
"$SCHEDFUZZ" replay "$WORK/explicit" -- "$prog" 2>"$WORK/explicit.out" >/dev/null
[ $? -eq 1 ] || fail "the recorded explicit schedule did not fail"
grep -q '^==schedfuzz== schedule: explicit' "$WORK/explicit.out" || fail "not replayed as explicit"
diff <(interleaving "$WORK/explicit.out") "$WORK/expected" || fail "explicit replay differs"
echo "100 of 100 replays identical; explicit schedule identical"
