#!/usr/bin/env bash
# debug_every_bug.sh BENCH: the same step numbers everywhere, for every
# zoo bug: scripts/bench/debug.sh (one trial each) finds each bug, and
# `schedfuzz debug` of its input stops gdb at the report's failing step
# with `sf where` on the report's line for it.
. "$(dirname "$0")/lib.sh"
bench=$1
bash "$bench" --trials 1 >"$WORK/out" 2>&1 || { cat "$WORK/out"; fail "debug.sh failed"; }
line=$(grep '^debug_same_step:' "$WORK/out") || { cat "$WORK/out"; fail "no debug_same_step line"; }
read -r _ got <<<"$line"
[ "${got%/*}" = "${got#*/}" ] && [ "${got#*/}" -gt 40 ] ||
	{ cat "$WORK/out"; fail "gdb stood elsewhere than the report: $line"; }
echo "$line"
