#!/usr/bin/env bash
# cli_save_fails.sh PROG: when the input of a failure cannot be written
# where -o says (the directory was fine at the start; here the file's name
# is taken by a directory), it goes to $TMPDIR instead; when that fails
# too, the report is shown and the input printed in base64, which decodes
# to an input that replays the same failure. Nothing is lost.
. "$(dirname "$0")/lib.sh"
prog=$1
"$SCHEDFUZZ" run -o "$WORK/first" -- "$prog" >"$WORK/first.out" 2>/dev/null
[ $? -eq 1 ] || fail "no failure found"
name=$(basename "$(cat "$WORK/first.out")")
mkdir -p "$WORK/taken/$name" "$WORK/tmp"
TMPDIR=$WORK/tmp "$SCHEDFUZZ" run -o "$WORK/taken" -- "$prog" >"$WORK/fallback.out" 2>"$WORK/fallback.err"
[ $? -eq 1 ] || fail "the fallback run did not report the failure"
grep -q "saved it to $WORK/tmp/$name instead" "$WORK/fallback.err" || { cat "$WORK/fallback.err"; fail "no fallback path"; }
cmp -s "$WORK/tmp/$name" "$WORK/first/$name" || fail "the fallback file differs"
mkdir -p "$WORK/tmp2/$name"
TMPDIR=$WORK/tmp2 "$SCHEDFUZZ" run -o "$WORK/taken" -- "$prog" >"$WORK/b64.out" 2>"$WORK/b64.err"
[ $? -ne 0 ] || fail "a failure that could not be saved ended with status 0"
grep -q "^==schedfuzz== ERROR: assertion failure" "$WORK/b64.err" || fail "the report was lost"
sed -n '/^schedfuzz: the input, in base64/,$p' "$WORK/b64.err" | sed 1d | grep -E '^[A-Za-z0-9+/=]+$' |
	base64 -d >"$WORK/decoded" || fail "no base64 input"
cmp -s "$WORK/decoded" "$WORK/first/$name" || fail "the base64 input is not the input"
"$SCHEDFUZZ" replay "$WORK/decoded" -- "$prog" >/dev/null 2>&1
[ $? -eq 1 ] || fail "the decoded input does not fail"
echo "unsavable input: fallback file, else report and base64 input"
