#!/usr/bin/env bash
# asan_same_genome.sh DEFAULT ASAN SEEDS: one libFuzzer harness built in the
# default mode and in the ASan mode. The ASan build finds the harness's bug
# (an assertion, not a memory error) and the default build finds it too;
# each saved input replays in both builds with the same report and the same
# interleaving: the same genome means the same execution in either mode.
. "$(dirname "$0")/lib.sh"
default=$1 asan=$2 seeds=$3
# PCT's plans only: PCTVB's name their variables by address in the
# executable, which differs between the two builds (docs/asan-mode.md).
export SCHEDFUZZ_STRATEGY=pct:d=3
find_bug() { # find_bug BUILD TAG: prints the saved input
	mkdir -p "$WORK/$2"
	cp "$seeds"/* "$WORK/$2/"
	"$1" -runs=50000 -seed=1 -artifact_prefix="$WORK/$2-" "$WORK/$2" >"$WORK/$2.log" 2>&1
	grep -q "^==schedfuzz== ERROR: assertion failure" "$WORK/$2.log" ||
		{ tail -5 "$WORK/$2.log"; fail "$2: the harness's bug was not found"; }
	ls "$WORK/$2"-crash-* | head -n 1
}
for tag in asan default; do
	if [ $tag = asan ]; then input=$(find_bug "$asan" asan); else input=$(find_bug "$default" default); fi
	"$SCHEDFUZZ" replay "$input" -- "$default" >/dev/null 2>"$WORK/r-default"
	[ $? -eq 1 ] || fail "$tag's input: no failure in the default build"
	"$SCHEDFUZZ" replay "$input" -- "$asan" >/dev/null 2>"$WORK/r-asan"
	[ $? -eq 1 ] || fail "$tag's input: no failure in the ASan build"
	diff <(grep '^==schedfuzz== ERROR' "$WORK/r-default") <(grep '^==schedfuzz== ERROR' "$WORK/r-asan") ||
		fail "$tag's input: the two builds report different failures"
	diff <(interleaving "$WORK/r-default") <(interleaving "$WORK/r-asan") ||
		fail "$tag's input: the two builds executed different interleavings"
	echo "$tag's input: $(grep -m1 '^==schedfuzz== ERROR' "$WORK/r-asan") in both builds, same interleaving"
done
