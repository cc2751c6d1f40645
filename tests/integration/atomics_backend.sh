#!/usr/bin/env bash
# atomics_backend.sh ASM_PROG BUILTINS_PROG SOURCE: a lock written in inline
# assembly spins where the runtime cannot see it; the explorer says so
# once, naming the site in SOURCE, since those schedules needed an
# asynchronous preemption. Built from compiler builtins (the recipe for a
# library with an atomics back end), the same lock needs none: no note.
. "$(dirname "$0")/lib.sh"
asm=$1 builtins=$2 source=$3
"$SCHEDFUZZ" run -n 50 --seed 1 -o "$WORK/out" -- "$asm" >/dev/null 2>"$WORK/asm" ||
	{ cat "$WORK/asm"; fail "the assembly lock failed"; }
grep -q "^schedfuzz: note: in [0-9]* of 50 schedules, a thread reached no scheduling point .* at $source:[0-9]*" "$WORK/asm" ||
	{ cat "$WORK/asm"; fail "no note naming the spin in $source"; }
"$SCHEDFUZZ" run -n 300 --seed 1 -o "$WORK/out" -- "$builtins" >/dev/null 2>"$WORK/builtins" ||
	{ cat "$WORK/builtins"; fail "the builtins lock failed"; }
grep -q "note:" "$WORK/builtins" && { cat "$WORK/builtins"; fail "the builtins lock needed a preemption"; }
echo "asm: $(grep -o 'in [0-9]* of 50 schedules' "$WORK/asm") preempted; builtins: none of 300"
