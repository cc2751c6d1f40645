#!/usr/bin/env bash
# build.sh - builds schedfuzz's bundled harnesses the way OSS-Fuzz and
# ClusterFuzzLite build fuzzers: from $SRC into $OUT, with the compilers,
# flags and engine their builders set ($CC $CXX $CFLAGS $CXXFLAGS
# $LIB_FUZZING_ENGINE $FUZZING_ENGINE $SANITIZER $OUT $SRC $WORK), through
# schedfuzz.sh beside it, which a project's own build.sh sources the same
# way (docs/clusterfuzzlite/).
#
# For each harness in tests/harnesses/ it writes $OUT/<name> (built with
# schedfuzz-cc for the engine: libfuzzer, or afl in persistent mode),
# <name>_seed_corpus.zip (seeds/harnesses/<name>/), <name>.dict (genome
# tokens, which both engines pick up by that name) and <name>.options, and
# $OUT/schedfuzz for replaying crashes.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/oss-fuzz/schedfuzz.sh"

for src in "$top"/tests/harnesses/*.c; do
	name=$(basename "$src" .c)
	# shellcheck disable=SC2086  # the flags are words
	$CC $CFLAGS -c "$src" -o "$WORK/$name.o"
	# shellcheck disable=SC2086
	$CC $CFLAGS "$WORK/$name.o" $LIB_FUZZING_ENGINE -o "$OUT/$name"
	seeds=$top/seeds/harnesses/$name
	rm -f "$OUT/${name}_seed_corpus.zip"
	if [ -d "$seeds" ]; then
		(cd "$seeds" && cmake -E tar cf "$OUT/${name}_seed_corpus.zip" --format=zip -- *)
	fi
	cp "$top/seeds/schedfuzz.dict" "$OUT/$name.dict"
	cat >"$OUT/$name.options" <<OPTIONS
[libfuzzer]
# A schedule is a genome of 96 bytes, then the harness's data.
max_len = 4096
# schedfuzz reports a hang itself at 3/4 of this, with its interleaving.
timeout = 25

[asan]
# ASan keeps freed blocks poisoned in a quarantine of 256 MB by default,
# which is where a campaign's RSS grows. A use-after-free that an
# interleaving causes frees and uses the block within one execution, so a
# smaller quarantine still catches it, and the runtime empties it every
# 1,000 inputs (docs/cost.md, "Kernel threads kept across inputs").
quarantine_size_mb = 32
OPTIONS
	echo "build.sh: $OUT/$name ($SCHEDFUZZ_ENGINE)"
done
