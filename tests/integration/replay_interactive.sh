#!/usr/bin/env bash
# replay_interactive.sh PROG: `schedfuzz replay --interactive=json` asks at
# every decision among threads, one JSON object a line on stdout, and
# takes one answer line from stdin. Checked with a driver that reads each
# question before it answers (python3): empty answers replay the input
# itself (its report's interleaving, exit 1); an answer that names no
# candidate is asked again with an error; a candidate other than the
# default runs the next step, the default rule takes over, and --record
# saves an input that replays that execution in a fresh process. The
# end of stdin takes the default for the rest; the terminal form prompts
# on stderr.
. "$(dirname "$0")/lib.sh"
prog=$1
command -v python3 >/dev/null || fail "python3 is not installed (scripts/setup.sh installs it)"
"$SCHEDFUZZ" run -n 10000 --seed 1 -o "$WORK/out" -- "$prog" >"$WORK/run.out" 2>"$WORK/run.err"
[ $? -eq 1 ] || { cat "$WORK/run.err"; fail "the explorer found no failure"; }
crash=$(tail -n 1 "$WORK/run.out")
"$SCHEDFUZZ" replay "$crash" -- "$prog" >/dev/null 2>"$WORK/report"
interleaving "$WORK/report" >"$WORK/report.il"

cat >"$WORK/drive.py" <<'PY'
# drive.py MODE OUT: run schedfuzz replay --interactive=json (argv after
# OUT), answer each question by MODE, write the questions to OUT.
import json, subprocess, sys
mode, out, cmd = sys.argv[1], sys.argv[2], sys.argv[3:]
p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=open(out + ".err", "w"), text=True)
asked, steered, bad_sent = [], None, False
for line in p.stdout:
    q = json.loads(line)
    for key in ("decision", "step", "last", "threads", "candidates", "default"):
        assert key in q, "no %s in %s" % (key, line)
    for t in q["threads"]:
        assert set(t) >= {"id", "state", "text", "can_run"}, line
        assert t["can_run"] == (t["id"] in q["candidates"]), line
    assert q["default"] in q["candidates"] and len(q["candidates"]) >= 2, line
    asked.append(q)
    answer = ""
    if mode == "steer" and steered is None:
        if not bad_sent:
            answer, bad_sent = "T99", True
        else:
            assert q.get("error", "").startswith("T99 cannot run"), line
            other = [c for c in q["candidates"] if c != q["default"]]
            if other:
                steered = (q["step"], other[0])
                answer = '"T%d"' % other[0]
    p.stdin.write(answer + "\n")
    p.stdin.flush()
p.stdin.close()
rc = p.wait()
with open(out, "w") as f:
    json.dump({"rc": rc, "asked": asked, "steered": steered}, f)
PY

# Empty answers: the input's own execution.
python3 "$WORK/drive.py" default "$WORK/dflt" "$SCHEDFUZZ" replay --interactive=json "$crash" -- "$prog" ||
	fail "the JSON stream of the default replay"
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["rc"] == 1, r["rc"]; print(len(r["asked"]), "decisions asked")' "$WORK/dflt" ||
	{ cat "$WORK/dflt.err"; fail "empty answers did not fail as the input does"; }
interleaving "$WORK/dflt.err" | diff "$WORK/report.il" - || fail "empty answers did not replay the input's interleaving"

# A wrong answer, then another thread than the default, recorded.
python3 "$WORK/drive.py" steer "$WORK/steer" "$SCHEDFUZZ" replay --record "$WORK/steered" --events 0 \
	--interactive=json "$crash" -- "$prog" || fail "the JSON stream of the steered replay"
read -r step thread < <(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); s=r["steered"]; print(s[0], s[1]) if s else None' "$WORK/steer")
[ -n "$thread" ] || fail "no decision offered a thread other than the default"
# The lanes of replay --events 0 number every step: step+1 is the thread's.
"$SCHEDFUZZ" replay --events 0 "$WORK/steered" -- "$prog" >/dev/null 2>"$WORK/steered.report"
interleaving "$WORK/steer.err" >"$WORK/steer.il"
interleaving "$WORK/steered.report" | diff "$WORK/steer.il" - || fail "the recorded input does not replay the steered execution"
next=$(awk -v n=$((step + 1)) 'substr($0, 1, 2) == "  " && substr($0, 11, 3) == "  T" &&
	substr($0, 5, 6) + 0 == n { print $3 }' "$WORK/steer.err" | head -1)
if [ -n "$next" ]; then
	[ "$next" = "T$thread" ] || fail "step $((step + 1)) is $next's, T$thread was answered"
fi
# After a departure nothing is asked that the default would not answer
# the same: the recorded input has the departures only.
"$SCHEDFUZZ" show "$WORK/steered" | grep -q ': explicit decisions=' || fail "--record did not write an explicit input"
echo "answered T$thread after step $step; --record replays it"

# The end of stdin: the default from then on, one question only.
"$SCHEDFUZZ" replay --interactive=json "$crash" -- "$prog" </dev/null >"$WORK/eof.out" 2>"$WORK/eof.err"
[ $? -eq 1 ] || { cat "$WORK/eof.err"; fail "the end of stdin did not replay the input"; }
[ "$(wc -l <"$WORK/eof.out")" -eq 1 ] || { cat "$WORK/eof.out"; fail "questions after the end of stdin"; }

# The terminal form: prompts on stderr, the program's stdout unchanged.
n=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["asked"]))' "$WORK/dflt")
yes '' | head -n "$n" | "$SCHEDFUZZ" replay --interactive "$crash" -- "$prog" >"$WORK/text.out" 2>"$WORK/text.err"
[ $? -eq 1 ] || { cat "$WORK/text.err"; fail "the terminal form with Enter at every prompt did not fail"; }
[ "$(grep -c 'next thread (\* can run; Enter: T[0-9]*): ' "$WORK/text.err")" -eq "$n" ] ||
	{ cat "$WORK/text.err"; fail "the terminal form did not prompt $n times"; }
echo "end of stdin, terminal form: the input's execution"
