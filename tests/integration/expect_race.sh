#!/usr/bin/env bash
# expect_race.sh PROG SITES RUNS [PATTERN]: exploring PROG with races as
# failures (--races=fail) finds a data race within RUNS schedules whose two
# accesses are at the sites in SITES ("file.c:L1 file.c:L2", in either
# order), saves an input, and `schedfuzz replay --races=fail` of it in a
# fresh process reports the same race (key and steps). PATTERN, if given,
# must be in the report (an allocation stack, a variable's name).
. "$(dirname "$0")/lib.sh"
prog=$1 sites=$2 runs=$3 pattern=${4:-}
"$SCHEDFUZZ" run -n "$runs" --seed 1 --races=fail -o "$WORK/out" -- "$prog" \
	>"$WORK/stdout" 2>"$WORK/stderr"
rc=$?
cat "$WORK/stderr"
[ "$rc" -eq 1 ] || fail "expected exit 1 (race found), got $rc"
grep -q "^==schedfuzz== ERROR: data race" "$WORK/stderr" || fail "no data race report"
grep -q "replay reproduced the failure" "$WORK/stderr" || fail "the explorer's replay differed"
# The two accesses' top frames: "#0 FUNCTION FILE:LINE" after each header.
tops() {
	awk '/^  (Write|Read|Previous write|Previous read) of size/ { getline; print $3 }' "$1" |
		head -n 2 | tr '\n' ' '
}
# A site matches an expected one, or is in its file at line 0: code the
# optimiser merged from several lines has none.
match() { [ "$1" = "$2" ] || { [ "${1%:0}" != "$1" ] && [ "${1%%:*}" = "${2%%:*}" ]; }; }
same_sites() {
	local got=($(tops "$1")) want=($sites)
	[ ${#got[@]} -eq 2 ] || return 1
	{ match "${got[0]}" "${want[0]}" && match "${got[1]}" "${want[1]}"; } ||
		{ match "${got[0]}" "${want[1]}" && match "${got[1]}" "${want[0]}"; }
}
same_sites "$WORK/stderr" || fail "race between $(tops "$WORK/stderr"), expected $sites"
[ -z "$pattern" ] || grep -Eq "$pattern" "$WORK/stderr" || fail "report lacks '$pattern'"
input=$(tail -n 1 "$WORK/stdout")
[ -f "$input" ] || fail "saved input '$input' missing"
"$SCHEDFUZZ" replay --races=fail "$input" -- "$prog" >/dev/null 2>"$WORK/replay"
rc=$?
[ "$rc" -eq 1 ] || fail "replay exit $rc, expected 1"
key() { grep -m1 '^==schedfuzz== race key' "$1"; }
[ -n "$(key "$WORK/stderr")" ] && [ "$(key "$WORK/stderr")" = "$(key "$WORK/replay")" ] ||
	fail "replay raced otherwise: $(key "$WORK/replay")"
[ "$(tops "$WORK/replay")" = "$(tops "$WORK/stderr")" ] || fail "replay's sites differ"
echo "found and replayed: $(key "$WORK/stderr")"
