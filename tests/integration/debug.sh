#!/usr/bin/env bash
# debug.sh PROG: `schedfuzz debug` runs the real gdb, in batch mode, on the
# replay of a failing input the explorer found in PROG, and stops where it
# is asked. Without --step: at the failing step (the report's last), with
# $sf_step that step, `sf where` the report's own line of that step, gdb's
# selected frame at that step's site, and `sf threads` the report's thread
# lines (but the failing thread's, which has not yet done its last
# step: running at that step's site). With --step 3: $sf_step 3 and the
# report's line of step 3. `sf goto` forward and back and `sf step` land on
# the same states as a fresh start at those steps. Steps past the end, an
# input that does not fail without --step, a missing gdb and a program
# without the runtime are refused in one line, with exit status 2.
. "$(dirname "$0")/lib.sh"
prog=$1
command -v gdb >/dev/null || fail "gdb is not installed (scripts/setup.sh installs it)"
"$SCHEDFUZZ" run -n 10000 --seed 1 -o "$WORK/out" -- "$prog" >"$WORK/run.out" 2>"$WORK/run.err"
[ $? -eq 1 ] || { cat "$WORK/run.err"; fail "the explorer found no failure"; }
crash=$(tail -n 1 "$WORK/run.out")
"$SCHEDFUZZ" replay "$crash" -- "$prog" >/dev/null 2>"$WORK/report"
last=$(sed -n 's/^==schedfuzz== schedule: .*(\([0-9]*\) steps,.*/\1/p' "$WORK/report")
[ -n "$last" ] || fail "no step count in the report"
# The trace (replay's lanes) counts the steps the report does, those of
# exit handlers included.
traced=$(sed -n 's/^==schedfuzz== \([0-9]*\) steps, .*/\1/p' "$WORK/report")
[ "$traced" = "$last" ] || fail "the trace has ${traced:-no} steps, the report $last"

# The report's line of step N (its interleaving: "  > NNNNNN  T1   ...").
report_line() {
	awk -v n="$1" 'substr($0, 1, 2) == "  " && substr($0, 11, 3) == "  T" &&
		substr($0, 5, 6) + 0 == n && substr($0, 3, 1) ~ /[ >-]/' "$WORK/report" | head -1
}
report_threads() {
	sed -n '/^==schedfuzz== threads:/,/^==schedfuzz== /{/^  T/p}' "$WORK/report"
}
# gdb run through schedfuzz debug; the output of each probe (after "@@")
# without what depends on gdb's numbering of threads and values.
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
block() {
	awk -v k="$2" '/^@@$/ { on = ++n == k; next } /^@@end$/ { on = 0 } on' "$1" |
		grep -v '^gdb' | sed 's/^\$[0-9]* = /$ = /'
}

# At the failing step, by default.
debug "$WORK/fail" "$crash" -batch "${probe[@]}"
line=$(report_line "$last")
[ -n "$line" ] || fail "the report has no line for step $last"
block "$WORK/fail" 1 >"$WORK/fail.1"
grep -qx "\$ = $last" "$WORK/fail.1" || { cat "$WORK/fail"; fail "\$sf_step is not $last"; }
grep -qxF -- "$line" "$WORK/fail.1" || { cat "$WORK/fail"; echo "report: $line"; fail "sf where is not the report's step $last"; }
site=${line##* }
tid=$(sed 's/^.\{12\}\(T[0-9]*\) .*/\1/' <<<"$line")
frame=$(awk '/^@@$/ { on = 1 } /^@@end$/ { on = 0 } on && /^gdb: thread/ { print $NF }' "$WORK/fail")
[ "$frame" = "$site" ] || { cat "$WORK/fail"; fail "gdb's frame is at '$frame', step $last's site is $site"; }
while IFS= read -r t; do
	name=$(awk '{ print $1 }' <<<"$t")
	if [ "$name" = "$tid" ]; then
		want=$(printf '  %-4s running at %s' "$tid" "$site")
		grep -q "^$want\( \|;\|\$\)" "$WORK/fail.1" || { cat "$WORK/fail"; fail "sf threads: $tid is not running at $site"; }
	else
		grep -qxF -- "$t" "$WORK/fail.1" || { cat "$WORK/fail"; fail "sf threads lacks the report's '$t'"; }
	fi
done < <(report_threads)
echo "failing step $last: $line"

# At step 3, and the same states through sf goto and sf step.
for n in 2 3 4 "$last"; do
	debug "$WORK/at$n" --step "$n" "$crash" -batch "${probe[@]}"
	block "$WORK/at$n" 1 >"$WORK/at$n.1"
	grep -qx "\$ = $n" "$WORK/at$n.1" || { cat "$WORK/at$n"; fail "--step $n: \$sf_step is not $n"; }
	l=$(report_line "$n")
	[ -z "$l" ] || grep -qxF -- "$l" "$WORK/at$n.1" || { cat "$WORK/at$n"; fail "--step $n: sf where is not the report's '$l'"; }
done
cmp -s "$WORK/at$last.1" "$WORK/fail.1" || fail "--step $last differs from the default stop"
debug "$WORK/moves" --step 3 "$crash" -batch "${probe[@]}" -ex "sf goto $last" "${probe[@]}" \
	-ex 'sf goto 2' "${probe[@]}" -ex 'sf step 2' "${probe[@]}" -ex 'sf goto 3' "${probe[@]}"
k=0
for n in 3 "$last" 2 4 3; do
	k=$((k + 1))
	block "$WORK/moves" "$k" >"$WORK/moves.$k"
	diff "$WORK/at$n.1" "$WORK/moves.$k" || { cat "$WORK/moves"; fail "move $k: the state at step $n differs from a fresh start there"; }
done
echo "--step 3, sf goto $last, sf goto 2, sf step 2, sf goto 3: the states of fresh starts"

# Refused: no step 0, none past the end; an input that does not fail
# needs --step.
"$SCHEDFUZZ" debug --step 0 "$crash" -batch -- "$prog" >/dev/null 2>"$WORK/err0"
[ $? -eq 2 ] || fail "--step 0 was not refused"
"$SCHEDFUZZ" debug --step $((last + 1)) "$crash" -batch -- "$prog" >/dev/null 2>"$WORK/err1"
[ $? -eq 2 ] && grep -q "has $last steps" "$WORK/err1" || { cat "$WORK/err1"; fail "a step past the end was not refused"; }
for seed in $(seq 1 30); do
	"$SCHEDFUZZ" genome --strategy random --seed "$seed" -o "$WORK/pass" 2>/dev/null
	"$SCHEDFUZZ" replay "$WORK/pass" -- "$prog" >/dev/null 2>&1 && break
	rm -f "$WORK/pass"
done
if [ -f "$WORK/pass" ]; then
	"$SCHEDFUZZ" debug "$WORK/pass" -batch -- "$prog" >/dev/null 2>"$WORK/err2"
	[ $? -eq 2 ] && grep -q "does not fail" "$WORK/err2" || { cat "$WORK/err2"; fail "an input that does not fail was debugged without --step"; }
	debug "$WORK/pass.at" --step 2 "$WORK/pass" -batch "${probe[@]}"
	grep -qx '\$ = 2' <(block "$WORK/pass.at" 1) || fail "--step 2 of a passing input"
fi
echo "refused: step 0, step $((last + 1)), a passing input without --step"
SCHEDFUZZ_GDB=/nonexistent/gdb "$SCHEDFUZZ" debug "$crash" -batch -- "$prog" >/dev/null 2>"$WORK/err3"
[ $? -eq 2 ] && [ "$(wc -l <"$WORK/err3")" -eq 1 ] && grep -q "gdb not found" "$WORK/err3" ||
	{ cat "$WORK/err3"; fail "a missing gdb was not one line and exit 2"; }
"$SCHEDFUZZ" debug "$crash" -batch -- /bin/true >/dev/null 2>"$WORK/err4"
[ $? -eq 2 ] && grep -q "not built with schedfuzz-cc" "$WORK/err4" || { cat "$WORK/err4"; fail "a program without the runtime was not refused"; }
echo "refused: a missing gdb, a program without the runtime"
