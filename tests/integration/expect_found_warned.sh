#!/usr/bin/env bash
# expect_found_warned.sh PROG KIND_REGEX RUNS WARNING: PROG's undefined
# behaviour (WARNING, a regex as in expect_warned.sh) does not stop the
# search: the bug after it is found and replayed (expect_found.sh), and
# the report of the replay lists the warning of its execution.
. "$(dirname "$0")/lib.sh"
prog=$1 kind=$2 runs=$3 warning=$4
"$(dirname "$0")/expect_found.sh" "$prog" "$kind" "$runs" >"$WORK/found" 2>&1 ||
	{ cat "$WORK/found"; fail "not found and replayed"; }
cat "$WORK/found"
grep -Eq "^==schedfuzz== warning, earlier in this execution: $warning" "$WORK/found" ||
	fail "the report does not list the warning"
echo "found after the warning, and the report lists it"
