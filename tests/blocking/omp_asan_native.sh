#!/usr/bin/env bash
# omp_asan_native.sh SOURCE PROG: the correct OpenMP program SOURCE, built
# by plain clang with -fsanitize=address -fopenmp, exits 0 with no
# LeakSanitizer report; PROG, its schedfuzz-cc ASan build, run once
# without the explorer, does the same (libomp's destructor once waited
# there for workers only the schedule could run, until the timeout).
. "$(dirname "$0")/../integration/lib.sh"
src=$1 prog=$2
clang-14 -O1 -g -fsanitize=address -fopenmp -DFIXED "$src" -o "$WORK/native" || fail "native build"
for i in 1 2 3; do
	"$WORK/native" >"$WORK/out" 2>&1 || { cat "$WORK/out"; fail "native run $i failed"; }
	! grep -q LeakSanitizer "$WORK/out" || { cat "$WORK/out"; fail "native leak report"; }
done
SCHEDFUZZ_TIMEOUT=20 "$prog" >"$WORK/out" 2>&1
rc=$?
cat "$WORK/out"
[ "$rc" -eq 0 ] || fail "the schedfuzz build exited $rc"
! grep -q "LeakSanitizer\|==schedfuzz== ERROR" "$WORK/out" || fail "a report"
echo "native and schedfuzz ASan builds: exit 0, no leak report"
