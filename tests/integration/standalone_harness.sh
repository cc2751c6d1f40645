#!/usr/bin/env bash
# standalone_harness.sh PROG SEEDS: a libFuzzer-style harness built with
# SCHEDFUZZ_ENGINE=standalone has a main() that runs it over files and
# directories, and the explorer runs schedules of it like any program.
. "$(dirname "$0")/lib.sh"
prog=$1 seeds=$2
"$prog" "$seeds" >"$WORK/dir.log" 2>&1 || { tail "$WORK/dir.log"; fail "running the seed directory failed"; }
ran=$(grep -c '^schedfuzz: running' "$WORK/dir.log")
[ "$ran" -eq "$(ls "$seeds" | wc -l)" ] || fail "ran $ran inputs"
echo "seed directory: $ran inputs ran"
"$prog" "$WORK/missing" >"$WORK/missing.log" 2>&1
[ $? -eq 2 ] && grep -q "cannot read" "$WORK/missing.log" || fail "a missing input is not a one-line error"
"$SCHEDFUZZ" run -n 200 -o "$WORK/out" -- "$prog" >"$WORK/run.log" 2>&1 || { tail "$WORK/run.log"; fail "schedfuzz run failed"; }
echo "schedfuzz run: $(tail -1 "$WORK/run.log")"
