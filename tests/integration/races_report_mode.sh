#!/usr/bin/env bash
# races_report_mode.sh PROG: PROG races and never fails otherwise. The
# report mode (SCHEDFUZZ_RACES=report in the test's environment) saves one race-* input for the pair, replays it,
# goes on to the end of the runs and exits 1 with the count; --race-json
# writes the same race as one line of JSON; the race is a coverage feature
# (a "race" line in the coverage dump); --races=off reports nothing and
# exits 0.
. "$(dirname "$0")/lib.sh"
prog=$1
"$SCHEDFUZZ" run -n 300 --seed 1 --race-json "$WORK/races.jsonl" -o "$WORK/out" -- "$prog" \
	>"$WORK/stdout" 2>"$WORK/stderr"
rc=$?
cat "$WORK/stderr"
[ "$rc" -eq 1 ] || fail "expected exit 1 (a race reported), got $rc"
[ "$(ls "$WORK/out"/race-* 2>/dev/null | wc -l)" -eq 1 ] || fail "expected one race-* input"
grep -q "replay reproduced the race" "$WORK/stderr" || fail "the race was not replayed"
grep -q "^schedfuzz: 1 data race (pairs of sites) in [0-9]* of 300 schedules" "$WORK/stderr" ||
	fail "no summary of the races"
! grep -q "failed:" "$WORK/stderr" || fail "a race in report mode is no failure"
"$SCHEDFUZZ" replay "$WORK/out"/race-* -- "$prog" >/dev/null 2>"$WORK/replay"
grep -q "^WARNING: ThreadSanitizer: data race" "$WORK/replay" || fail "replay shows no race"
# One JSON line per report the run printed (the saved schedule's replay).
grep -o '^==schedfuzz== race key [0-9a-f]*' "$WORK/stderr" | awk '{print $4}' >"$WORK/keys"
python3 - "$WORK/races.jsonl" "$WORK/keys" <<'PY' || fail "the JSON form does not match the report"
import json, os, sys
races = [json.loads(l) for l in open(sys.argv[1])]
keys = open(sys.argv[2]).read().split()
assert [r["key"] for r in races] == keys, ([r["key"] for r in races], keys)
for r in races:
    assert r["type"] == "data_race", r
    assert os.path.basename(r["input"]).startswith("race-"), r["input"]
    assert r["location"]["kind"] == "global" and r["location"]["name"] == "counter", r["location"]
    for a in (r["access"], r["previous"]):
        assert a["kind"] in ("read", "write") and a["size"] > 0 and a["step"] > 0, a
        assert a["frames"][0]["file"].endswith("counter.c") and a["frames"][0]["function"] == "worker", a
PY
SCHEDFUZZ_COV_DUMP="$WORK/cov" "$SCHEDFUZZ" replay "$WORK/out"/race-* -- "$prog" >/dev/null 2>&1
grep -q "^race [0-9a-f]\{16\}$" "$WORK/cov" || fail "the race is no coverage feature"
"$SCHEDFUZZ" run -n 300 --seed 1 --races=off -o "$WORK/off" -- "$prog" >/dev/null 2>"$WORK/off.err"
rc=$?
[ "$rc" -eq 0 ] || { cat "$WORK/off.err"; fail "--races=off: exit $rc"; }
! grep -q "ThreadSanitizer" "$WORK/off.err" || fail "--races=off reported a race"
echo "report mode: $(grep -m1 'data race (pairs' "$WORK/stderr")"
