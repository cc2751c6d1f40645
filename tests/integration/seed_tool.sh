#!/usr/bin/env bash
# seed_tool.sh HARNESS: `schedfuzz seed` puts genomes of the portfolio in
# front of plain data seeds (deterministic names and bytes; the harness
# gets the data whole), and the harness itself warns, once, when a plain
# data seed or a portable reproducer is given to it as an input, and
# never for a seed made by the tool.
. "$(dirname "$0")/lib.sh"
harness=$1
mkdir -p "$WORK/data"
printf 'RCsession-0001 user=alice\n' >"$WORK/data/RCsession-0001"
printf '\x07\x07\x03' >"$WORK/data/binary"
"$SCHEDFUZZ" seed --data "$WORK/data" -o "$WORK/a" 2>"$WORK/seed.log" || { cat "$WORK/seed.log"; fail "schedfuzz seed failed"; }
grep -q "10 inputs written" "$WORK/seed.log" || fail "expected 10 inputs: $(cat "$WORK/seed.log")"
names=$(cd "$WORK/a" && ls | tr '\n' ' ')
expect="RCsession-0001.0-random RCsession-0001.1-pct-d2 RCsession-0001.2-pct-d3 RCsession-0001.3-rpro-d3 RCsession-0001.4-pctvb-d2 binary.0-random binary.1-pct-d2 binary.2-pct-d3 binary.3-rpro-d3 binary.4-pctvb-d2 "
[ "$names" = "$expect" ] || fail "names: $names"
"$SCHEDFUZZ" seed --data "$WORK/data" -o "$WORK/b" 2>/dev/null
diff -r "$WORK/a" "$WORK/b" >/dev/null || fail "two runs of schedfuzz seed differ"
"$SCHEDFUZZ" seed --data "$WORK/data" -o "$WORK/c" --genomes 2 --seed 7 2>/dev/null
[ "$(ls "$WORK/c" | wc -l)" -eq 4 ] || fail "--genomes 2 wrote $(ls "$WORK/c" | wc -l) files"
for f in "$WORK"/a/binary.*; do
	cmp -s <(tail -c +97 "$f") "$WORK/data/binary" || fail "$f does not end with the data"
	[ "$(head -c 1 "$f" | od -An -tx1 | tr -d ' ')" = 01 ] || fail "$f has no genome version byte"
done
"$SCHEDFUZZ" show "$WORK/a/binary.1-pct-d2" | grep -q "pct d=2.*(+3 bytes of harness data)" ||
	fail "show: $("$SCHEDFUZZ" show "$WORK/a/binary.1-pct-d2")"
"$SCHEDFUZZ" show "$WORK/a/binary.3-rpro-d3" | grep -q "rpro d=3" || fail "the rpro seed is not rpro"

# The harness's own runs: a plain data seed is named, with what to do.
"$harness" "$WORK/data/RCsession-0001" >"$WORK/plain.log" 2>&1
grep -q "looks like plain data.*printable text.*schedfuzz seed --data DIR -o DIR" "$WORK/plain.log" ||
	{ cat "$WORK/plain.log"; fail "no warning for a plain data seed"; }
[ "$(grep -c 'looks like plain data' "$WORK/plain.log")" -eq 1 ] || fail "the warning is not said once"
# Under libFuzzer's fuzzing, seeds read from a corpus directory are judged too.
cp -r "$WORK/data" "$WORK/corpus"
"$harness" -runs=0 "$WORK/corpus" >"$WORK/corpus.log" 2>&1
grep -q "looks like plain data" "$WORK/corpus.log" || { cat "$WORK/corpus.log"; fail "no warning for a corpus of data seeds"; }
# The tool's output, fuzzed and replayed: no warning.
cp -r "$WORK/a" "$WORK/corpus2"
"$harness" -runs=300 -seed=1 "$WORK/corpus2" >"$WORK/seeded.log" 2>&1
! grep -q "looks like plain data" "$WORK/seeded.log" || fail "a warning for the seed tool's output"
for f in "$WORK"/a/*; do
	"$harness" "$f" >"$WORK/one.log" 2>&1
	! grep -q "looks like plain data" "$WORK/one.log" || fail "a warning for $f"
done
echo "seed: 10 inputs, deterministic, data intact; one warning for plain data, none for seeds"
