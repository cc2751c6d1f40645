#!/usr/bin/env bash
# debug_steer.sh PROG: the user plays the scheduler under the real gdb.
# At a step N where a thread T other than the step's own could run,
# `sf next-thread T` stops at step N+1 performed by T; `sf save` then
# writes an input whose replay in a fresh process (schedfuzz debug
# --step N+1 of it) stands at step N+1 with the same thread, operation
# and thread states. After the override `sf goto` back and forth replays
# the steered execution, not the input's. A thread that cannot run is
# refused in one line and changes nothing; `sf save` without an override
# replays the input's own first N steps.
. "$(dirname "$0")/lib.sh"
prog=$1
command -v gdb >/dev/null || fail "gdb is not installed (scripts/setup.sh installs it)"
"$SCHEDFUZZ" run -n 10000 --seed 1 -o "$WORK/out" -- "$prog" >"$WORK/run.out" 2>"$WORK/run.err"
[ $? -eq 1 ] || { cat "$WORK/run.err"; fail "the explorer found no failure"; }
crash=$(tail -n 1 "$WORK/run.out")
"$SCHEDFUZZ" replay "$crash" -- "$prog" >/dev/null 2>"$WORK/report"
last=$(sed -n 's/^==schedfuzz== schedule: .*(\([0-9]*\) steps,.*/\1/p' "$WORK/report")
[ -n "$last" ] || fail "no step count in the report"

probe=(-ex 'echo @@\n' -ex 'print $sf_step' -ex 'sf where' -ex 'sf threads' -ex 'echo @@end\n')
debug() {
	local out=$1
	shift
	"$SCHEDFUZZ" debug "$@" -- "$prog" >"$out" 2>"$out.err"
	local rc=$?
	if [ $rc -ne 0 ] || grep -Eq '^(sf|Python Exception|Error)' "$out.err"; then
		cat "$out" "$out.err"
		fail "schedfuzz debug $* exited $rc"
	fi
}
# The k-th probe's output, without gdb's own numbers (its thread numbers
# and value history differ between sessions) and the count of steps,
# which a steered session does not know.
block() {
	awk -v k="$2" '/^@@$/ { on = ++n == k; next } /^@@end$/ { on = 0 } on' "$1" |
		grep -v '^gdb' | sed 's/^\$[0-9]* = /$ = /; s/^step \([0-9]*\) of [^:]*:$/step \1:/'
}
# The thread of a step's line ("  >     12  T2   write ...").
step_thread() {
	awk '$0 ~ /^  [ >-] *[0-9]+  T[0-9]+ / { for (i = 1; i <= NF; i++) if ($i ~ /^T[0-9]+$/) { print $i; exit } }'
}

# Each step's state, as a fresh start there shows it.
for s in $(seq 2 "$last"); do
	debug "$WORK/look$s" --step "$s" "$crash" -batch "${probe[@]}"
	block "$WORK/look$s" 1 >"$WORK/look$s.1"
done
# A step N where a thread T runs, other than the input's at N and N+1;
# a step B where a thread waits in a join at B and B+1.
n= t= b= blocked=
for s in $(seq 2 $((last - 1))); do
	own=$(step_thread <"$WORK/look$s.1")
	next=$(step_thread <"$WORK/look$((s + 1)).1")
	other=$(awk -v a="$own" -v b="$next" '$1 ~ /^T[0-9]+$/ && $1 != a && $1 != b &&
		$2 == "runnable" { print $1; exit }' "$WORK/look$s.1")
	[ -n "$n" ] || [ -z "$other" ] || { n=$s t=$other; }
	waits=$(awk '$1 ~ /^T[0-9]+$/ && $2 == "blocked:" && /join/ { print $1; exit }' "$WORK/look$s.1")
	[ -n "$b" ] || [ -z "$waits" ] || ! grep -Eq "^  $waits +blocked: .*join" "$WORK/look$((s + 1)).1" ||
		{ b=$s blocked=$waits; }
done
[ -n "$n" ] || fail "no step of the failing input has a third thread that could run"
echo "step $n: $(step_thread <"$WORK/look$n.1") performs it, $(step_thread <"$WORK/look$((n + 1)).1") step $((n + 1)); $t is runnable"

# next-thread T, save; then a fresh process replays the saved input.
debug "$WORK/steer" --step "$n" "$crash" -batch -ex "sf next-thread $t" "${probe[@]}" \
	-ex "sf save $WORK/steered" -ex "sf step 2" "${probe[@]}" -ex "sf goto $n" "${probe[@]}" \
	-ex "sf goto $((n + 1))" "${probe[@]}"
block "$WORK/steer" 1 >"$WORK/steer.1"
grep -qx "\$ = $((n + 1))" "$WORK/steer.1" || { cat "$WORK/steer"; fail "sf next-thread did not stop at step $((n + 1))"; }
[ "$(step_thread <"$WORK/steer.1")" = "$t" ] || { cat "$WORK/steer"; fail "step $((n + 1)) is not $t's"; }
grep -q "^sf save: $WORK/steered: the schedule up to step $((n + 1))" "$WORK/steer" ||
	{ cat "$WORK/steer"; fail "sf save did not say what it wrote"; }
"$SCHEDFUZZ" show "$WORK/steered" >"$WORK/show" 2>&1 || { cat "$WORK/show"; fail "schedfuzz show cannot read the saved input"; }
grep -q ': explicit decisions=' "$WORK/show" || { cat "$WORK/show"; fail "the saved input is not an explicit schedule"; }
block "$WORK/steer" 2 >"$WORK/steer.2"
grep -qx "\$ = $((n + 3))" "$WORK/steer.2" || { cat "$WORK/steer"; fail "sf step 2 after the override"; }

debug "$WORK/fresh" --step "$((n + 1))" "$WORK/steered" -batch "${probe[@]}" -ex 'sf step 2' "${probe[@]}"
for k in 1 2; do
	diff "$WORK/steer.$k" <(block "$WORK/fresh" "$k") ||
		{ cat "$WORK/steer" "$WORK/fresh"; fail "the saved input's replay differs from the steered execution (probe $k)"; }
done
echo "next-thread $t at step $n, save: a fresh replay stands at step $((n + 1)) with $t, and at $((n + 3)) as the steered one"
"$SCHEDFUZZ" replay "$WORK/steered" -- "$prog" >/dev/null 2>"$WORK/steered.report"
[ $? -le 1 ] || { cat "$WORK/steered.report"; fail "schedfuzz replay of the saved input did not run"; }

# Back and forth after the override: the steered execution again.
diff "$WORK/look$n.1" <(block "$WORK/steer" 3) || { cat "$WORK/steer"; fail "sf goto $n after the override differs from step $n"; }
diff "$WORK/steer.1" <(block "$WORK/steer" 4) || { cat "$WORK/steer"; fail "sf goto $((n + 1)) after going back is not the steered step"; }
echo "sf goto $n and $((n + 1)) after the override: the steered execution"

# Without an override, sf save keeps the input's decisions so far.
debug "$WORK/plain" --step "$n" "$crash" -batch -ex "sf save $WORK/plain.in" "${probe[@]}"
debug "$WORK/plain.again" --step "$n" "$WORK/plain.in" -batch "${probe[@]}"
diff <(block "$WORK/plain" 1) <(block "$WORK/plain.again" 1) || fail "sf save without an override does not replay step $n"

# A thread that is not live, and one blocked for good: refused, one line,
# and the execution goes on as the input says.
"$SCHEDFUZZ" debug --step "$n" "$crash" -batch -ex 'sf next-thread T99' -- "$prog" >/dev/null 2>"$WORK/err1"
grep -q '^sf next-thread: T99 is not a live thread' "$WORK/err1" || { cat "$WORK/err1"; fail "next-thread of no thread"; }
[ -n "$b" ] || fail "no step of the failing input has a thread waiting in a join"
"$SCHEDFUZZ" debug --step "$b" "$crash" -batch -ex "sf next-thread $blocked" "${probe[@]}" -- "$prog" \
	>"$WORK/blk" 2>"$WORK/blk.err"
grep -q "^sf next-thread: $blocked could not run before step $((b + 1))" "$WORK/blk.err" ||
	{ cat "$WORK/blk" "$WORK/blk.err"; fail "next-thread of a thread waiting in a join was not refused"; }
diff "$WORK/look$((b + 1)).1" <(block "$WORK/blk" 1) || { cat "$WORK/blk"; fail "a refused next-thread changed step $((b + 1))"; }
echo "refused: T99, $blocked waiting in a join at step $b"
