#!/usr/bin/env bash
# cli_paths.sh PROG FIXED: every path on the command line is checked for
# what it must be before anything runs (exit 2, one line): an input is a
# regular file, an output file is not a directory, an output directory is
# one. A directory given to replay as INPUT replays each regular file in
# it, as libFuzzer runs a directory's files: exit 1 when one fails.
. "$(dirname "$0")/lib.sh"
prog=$1 fixed=$2

refused() {
	local want=${*: -1}
	local cmd=("${@:1:$#-1}")
	"${cmd[@]}" >"$WORK/out" 2>"$WORK/err" </dev/null
	local st=$?
	[ $st -eq 2 ] || fail "'${cmd[*]}' exited $st, not 2: $(cat "$WORK/err")"
	[ "$(wc -l <"$WORK/err")" -eq 1 ] || fail "'${cmd[*]}' said more than one line: $(cat "$WORK/err")"
	grep -qF -- "$want" "$WORK/err" || fail "'${cmd[*]}' said '$(cat "$WORK/err")', not '$want'"
}

mkdir "$WORK/empty" "$WORK/inputs"
"$SCHEDFUZZ" run --seed 1 -o "$WORK/inputs" -- "$prog" >"$WORK/found" 2>/dev/null
[ $? -eq 1 ] || fail "no failure found in $prog"
crash=$(cat "$WORK/found")
"$SCHEDFUZZ" genome --strategy pct --seed 3 -o "$WORK/inputs/pct-3" 2>/dev/null || fail "genome -o"
mkdir "$WORK/inputs/sub" # not a file: passed over

refused "$SCHEDFUZZ" replay "$WORK/empty" -- "$prog" "no input files in $WORK/empty"
refused "$SCHEDFUZZ" replay --record "$WORK/r" "$WORK/inputs" -- "$prog" "--record, --html and --interactive take one input file"
refused "$SCHEDFUZZ" replay --record "$WORK/empty" "$crash" -- "$prog" "--record $WORK/empty is a directory"
refused "$SCHEDFUZZ" replay --html "$WORK/empty" "$crash" -- "$prog" "--html $WORK/empty is a directory"
refused "$SCHEDFUZZ" replay /dev/null -- "$prog" "/dev/null is not a regular file, not an input file"
refused "$SCHEDFUZZ" replay "$WORK/missing" -- "$prog" "cannot read $WORK/missing"
refused "$SCHEDFUZZ" min "$WORK/inputs" -- "$prog" "$WORK/inputs is a directory, not an input file"
refused "$SCHEDFUZZ" min -o "$WORK/empty" "$crash" -- "$prog" "-o $WORK/empty is a directory"
refused "$SCHEDFUZZ" show "$WORK/inputs" "$WORK/inputs is a directory, not an input file"
refused "$SCHEDFUZZ" genome --strategy pct -o "$WORK/empty" "-o $WORK/empty is a directory"
refused "$SCHEDFUZZ" run --data "$WORK/empty" -- "$prog" "$WORK/empty is a directory, not an input file"
refused "$SCHEDFUZZ" run --state "$WORK/empty" -- "$prog" "--state $WORK/empty is a directory"
refused "$SCHEDFUZZ" run --corpus "$crash" -- "$prog" "--corpus $crash is not a directory"
refused "$SCHEDFUZZ" run -o "$crash" -- "$prog" "-o $crash is not a directory"
[ -z "$(ls -A "$WORK/empty")" ] || fail "a refused command wrote in $WORK/empty"

# A directory of inputs: each replayed, in name order, and the verdict.
"$SCHEDFUZZ" replay "$WORK/inputs" -- "$prog" >/dev/null 2>"$WORK/dir.err"
st=$?
[ $st -eq 1 ] || fail "replay of a directory with a failing input exited $st, not 1"
grep -qx "schedfuzz: replaying the 2 input files in $WORK/inputs" "$WORK/dir.err" || fail "no count: $(grep ^schedfuzz "$WORK/dir.err")"
grep -qx "schedfuzz: $crash: failed" "$WORK/dir.err" || fail "the crash is not said to fail"
grep -qx "schedfuzz: $WORK/inputs/pct-3: passed" "$WORK/dir.err" || fail "pct-3 is not said to pass"
grep -qx "schedfuzz: 1 of 2 inputs failed" "$WORK/dir.err" || fail "no summary"
"$SCHEDFUZZ" replay "$WORK/inputs" -- "$fixed" >/dev/null 2>"$WORK/fixed.err"
st=$?
[ $st -eq 0 ] || fail "replay of the directory on the fixed program exited $st, not 0"
grep -qx "schedfuzz: 0 of 2 inputs failed" "$WORK/fixed.err" || fail "no summary for the fixed program"
echo "bad paths refused with exit 2 and one line; a directory replays each of its files"
