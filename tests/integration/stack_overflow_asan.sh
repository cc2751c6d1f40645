#!/usr/bin/env bash
# stack_overflow_asan.sh PROG: in the ASan mode, a thread that recurses
# without bound is found and replayed as a stack overflow (expect_found.sh),
# and ASan's own stack-overflow report, which follows ours on the same
# alternate stack, is kept.
. "$(dirname "$0")/lib.sh"
prog=$1
"$(dirname "$0")/expect_found.sh" "$prog" "stack overflow" 10000 >"$WORK/out" 2>&1
rc=$?
cat "$WORK/out"
[ "$rc" -eq 0 ] || fail "expect_found.sh failed"
grep -q "ERROR: AddressSanitizer: stack-overflow on address" "$WORK/out" ||
	fail "ASan's stack-overflow report is missing"
grep -q "^SUMMARY: AddressSanitizer: stack-overflow" "$WORK/out" || fail "ASan's summary is missing"
