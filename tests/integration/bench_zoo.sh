#!/usr/bin/env bash
# bench_zoo.sh TOP: the zoo benchmark end to end on a small budget. One
# program under every engine (native, schedfuzz run, afl-fuzz, libFuzzer,
# coverage on and off), one data harness under the fuzzers, and one
# scalable family at every size: the CSV rows, the report, the plots and
# the summary lines must all be there, the bugs found, no false alarm.
. "$(dirname "$0")/lib.sh"
top=$1
bench() {
	"$top/scripts/bench/zoo.sh" --trials 1 --budget 3000 --fixed-budget 300 --native-runs 20 \
		--seconds 60 "$@" 2>&1
}
bench --program lost_update --strategy "portfolio random" --family-budget 0 --out "$WORK/a" >"$WORK/a.out"
cat "$WORK/a.out"
grep -qx "zoo_found: 1/1" "$WORK/a.out" || fail "lost_update not found by the best configuration"
grep -qx "zoo_fixed_false_alarms: 0" "$WORK/a.out" || fail "false alarms on the fixed twin"
for e in "run,portfolio,-" "afl,portfolio,on" "afl,random,off" "libfuzzer,portfolio,on" "libfuzzer,random,off"; do
	grep -q "^lost_update,bug,$e,1,1," "$WORK/a/trials.csv" || fail "no found trial for $e"
	e2=${e/random/portfolio}
	grep -q "^lost_update,fixed,$e2,1,0," "$WORK/a/trials.csv" || fail "no clean fixed-twin row for $e2"
done
grep -q "^lost_update,20,[0-9]*,[0-9]*," "$WORK/a/native.csv" || fail "no native stress row"
grep -q "^| lost_update | lost update |" "$WORK/a/report.md" || fail "report lacks the program's row"
[ -s "$WORK/a/found_within.png" ] || fail "no plot"

bench --program histogram_harness --engine "libfuzzer afl" --strategy portfolio --coverage on \
	--budget 30000 --family-budget 0 --out "$WORK/b" >"$WORK/b.out"
cat "$WORK/b.out"
grep -qx "zoo_found: 1/1" "$WORK/b.out" || fail "the data harness was not found"

bench --program reorder_n --engine run --strategy portfolio --family-budget 1000 --out "$WORK/c" >"$WORK/c.out"
cat "$WORK/c.out"
# Every size is measured; the small ones must be found on this budget.
for n in 2 5 10 20 50 100; do
	grep -q "^reorder_n,$n,portfolio,1,[01]," "$WORK/c/families.csv" || fail "no row for reorder_n with $n threads"
done
for n in 2 5; do
	grep -q "^reorder_n,$n,portfolio,1,1," "$WORK/c/families.csv" || fail "reorder_n with $n threads not found"
done
[ -s "$WORK/c/families.png" ] || fail "no families plot"
grep -q "^| reorder_n | portfolio | 100 |" "$WORK/c/report.md" || fail "report lacks the family table"
echo "zoo benchmark: every engine ran, found the bugs, plotted"
