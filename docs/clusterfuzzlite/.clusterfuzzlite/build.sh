#!/bin/bash -eu
# build.sh - tally's fuzzer, built with schedfuzz the way ClusterFuzzLite's
# and OSS-Fuzz's builders run it: $CC $CXX $CFLAGS $LIB_FUZZING_ENGINE
# $FUZZING_ENGINE $SANITIZER $SRC $OUT $WORK as they set them, for the
# libFuzzer build and the AFL++ one.

# Builds schedfuzz in $WORK (once), copies $OUT/schedfuzz (for replaying
# crashes), and makes $CC and $CXX its wrappers around the builder's
# compiler, for the builder's engine.
. "$SRC/schedfuzz/scripts/oss-fuzz/schedfuzz.sh"

make -C "$SRC/tally" clean
make -C "$SRC/tally" CC="$CC" CFLAGS="$CFLAGS" libtally.a
# shellcheck disable=SC2086  # the flags are words
$CC $CFLAGS -c "$SRC/tally/fuzz_tally.c" -o "$WORK/fuzz_tally.o"
# shellcheck disable=SC2086
$CC $CFLAGS "$WORK/fuzz_tally.o" "$SRC/tally/libtally.a" $LIB_FUZZING_ENGINE -o "$OUT/fuzz_tally"

# Seeds: schedules of PCT and RPRO (the input is a schedule, then the
# harness's bytes); the dictionary holds the schedules' tokens. Both
# engines pick them up by these names.
rm -rf "$WORK/seeds" && mkdir -p "$WORK/seeds"
cp "$SCHEDFUZZ_SRC"/seeds/pct/* "$SCHEDFUZZ_SRC"/seeds/rpro/* "$WORK/seeds/"
rm -f "$OUT/fuzz_tally_seed_corpus.zip"
(cd "$WORK/seeds" && cmake -E tar cf "$OUT/fuzz_tally_seed_corpus.zip" --format=zip -- *)
cp "$SCHEDFUZZ_SRC/seeds/schedfuzz.dict" "$OUT/fuzz_tally.dict"
