#!/usr/bin/env bash
# demo.sh - the main job on a bundled example: build a program with a lost
# update, explore its schedules until the bug shows, then replay the saved
# input in a fresh process and show the report.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/build.sh" >/dev/null
bin=$top/build/bin
work=$(mktemp -d "${TMPDIR:-/tmp}/schedfuzz-demo.XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "== building tests/bugs/lost_update.c with schedfuzz-cc"
"$bin/schedfuzz-cc" -O1 "$top/tests/bugs/lost_update.c" -o "$work/lost_update"
echo "== exploring up to 10000 schedules"
set +e
input=$("$bin/schedfuzz" run -n 10000 -o "$work/found" -- "$work/lost_update")
status=$?
set -e
[ "$status" -eq 1 ] || { echo "demo: no failure found (status $status)" >&2; exit 1; }
echo
echo "== replaying $input in a fresh process"
set +e
"$bin/schedfuzz" replay "$input" -- "$work/lost_update"
status=$?
set -e
[ "$status" -eq 1 ] || { echo "demo: the replay did not fail (status $status)" >&2; exit 1; }
echo
echo "demo: the bug was found, saved and replayed (schedfuzz replay exit status 1)"
