#!/usr/bin/env bash
# docs_test.sh SRC BUILD: every command the README and docs/ show, run in a
# copy of the checkout whose build/ is this build (run_docs.py says how the
# commands are found and checked).
set -euo pipefail
src=$1 build=$2
# Not under /tmp: afl-cmin refuses to run there.
work=$(mktemp -d "$build/docs-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
# The copy is named schedfuzz, as OSS-Fuzz's $SRC/schedfuzz would be.
mkdir "$work/schedfuzz"
(cd "$src" && git ls-files -co --exclude-standard -z 2>/dev/null | xargs -0 cp --parents -t "$work/schedfuzz" 2>/dev/null) ||
	(cd "$src" && tar --exclude=./build --exclude=./.git -cf - . | tar -xf - -C "$work/schedfuzz")
ln -s "$build" "$work/schedfuzz/build"
# The pages run scripts/oss-fuzz/build.sh twice (the README's ASan build,
# then docs/engines.md's). OSS-Fuzz sets $WORK, and builds of one project
# share it: the first builds schedfuzz there, the second finds it built.
export WORK="$work/oss-fuzz-work"
mkdir "$WORK"
cd "$work/schedfuzz"
# Every page of docs/ and docs/design/ is reachable from the README's map.
for page in docs/*.md docs/design/*.md; do
	grep -qF "]($page)" README.md || { echo "FAIL: $page is not linked from the README"; exit 1; }
done
[ "$(wc -l <README.md)" -le 250 ] || { echo "FAIL: the README has grown past 250 lines"; exit 1; }
exec python3 "$src/tests/docs/run_docs.py" "$work/schedfuzz" README.md docs/*.md docs/design/*.md \
	scripts/bench/README.md
