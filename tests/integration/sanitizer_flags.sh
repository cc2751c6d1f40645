#!/usr/bin/env bash
# sanitizer_flags.sh SOURCE: how the wrappers take sanitizers.
# SCHEDFUZZ_SANITIZER=address builds the ASan mode without touching the
# flags; -fsanitize=memory, either way, is refused with one line.
. "$(dirname "$0")/lib.sh"
src=$1
SCHEDFUZZ_SANITIZER=address "$SF_BIN/schedfuzz-cc" -O1 -c "$src" -o "$WORK/asan.o" || fail "ASan compile failed"
SCHEDFUZZ_SANITIZER=address "$SF_BIN/schedfuzz-cc" "$WORK/asan.o" -o "$WORK/asan" || fail "ASan link failed"
# What the program's code calls: ASan's checks and the load/store callbacks,
# not the TSan ABI's access hooks; the binary holds ASan's runtime.
nm "$WORK/asan.o" | grep -q " U __asan_init" || fail "SCHEDFUZZ_SANITIZER=address: no ASan instrumentation"
nm "$WORK/asan.o" | grep -q " U __sanitizer_cov_load4" || fail "no load callbacks in the ASan mode"
nm "$WORK/asan.o" | grep -q " U __tsan_read4" && fail "the ASan mode still calls the TSan ABI's access hooks"
nm "$WORK/asan" | grep -q " __asan_init" || fail "no ASan runtime in the binary"
for how in flag env; do
	if [ $how = flag ]; then
		"$SF_BIN/schedfuzz-cc" -O1 -fsanitize=memory "$src" -o "$WORK/msan" 2>"$WORK/err"
	else
		SCHEDFUZZ_SANITIZER=memory "$SF_BIN/schedfuzz-cc" -O1 "$src" -o "$WORK/msan" 2>"$WORK/err"
	fi
	rc=$?
	[ $rc -eq 1 ] || fail "-fsanitize=memory ($how): exit $rc, expected 1"
	[ "$(wc -l <"$WORK/err")" -eq 1 ] || { cat "$WORK/err"; fail "msan ($how): not one line"; }
	grep -q "^schedfuzz-cc: -fsanitize=memory is not supported" "$WORK/err" || fail "msan ($how): no reason"
	[ ! -e "$WORK/msan" ] || fail "msan ($how): a binary was written"
done
echo "SCHEDFUZZ_SANITIZER=address builds ASan; msan refused: $(cat "$WORK/err")"
