#!/usr/bin/env bash
# cli_replay_line.sh: the replay command a report prints is the whole
# command line, arguments quoted for the shell, and run as printed it
# fails again the same way; run's stdout holds only the saved input's path,
# though the program prints there, in its replay too.
. "$(dirname "$0")/lib.sh"
cat >"$WORK/prog.c" <<'C'
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
static int x;
static void *add(void *a) { int t = x; x = t + 1; return a; }
int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		printf("argument %d: %s\n", i, argv[i]);
	if (argc != 4 || strcmp(argv[3], "it's"))
		return 2; /* not the command line it was found with */
	pthread_t a, b;
	pthread_create(&a, NULL, add, NULL);
	pthread_create(&b, NULL, add, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	assert(x == 2);
	return 0;
}
C
"$SF_BIN/schedfuzz-cc" -O1 -g "$WORK/prog.c" -o "$WORK/prog" || fail "cannot build the program"
"$SCHEDFUZZ" run -n 2000 --seed 1 -o "$WORK/out" -- "$WORK/prog" one 'two words' "it's" \
	>"$WORK/stdout" 2>"$WORK/stderr"
rc=$?
cat "$WORK/stderr"
[ "$rc" -eq 1 ] || fail "expected exit 1 (failure found), got $rc"
input=$(cat "$WORK/stdout")
[ -f "$input" ] || fail "stdout is '$input', not the saved input's path alone"
line=$(sed -n 's/^==schedfuzz== replay: //p' "$WORK/stderr" | tail -n 1)
want="schedfuzz replay $input -- $WORK/prog one 'two words' 'it'\\''s'"
[ "$line" = "$want" ] || fail "replay line '$line', expected '$want'"
(PATH=$SF_BIN:$PATH && eval "$line") >/dev/null 2>"$WORK/replay"
[ $? -eq 1 ] || fail "the printed replay command did not fail"
diff <(interleaving "$WORK/stderr") <(interleaving "$WORK/replay") ||
	fail "the printed replay command ran another interleaving"
echo "replay line: $line"
