#!/usr/bin/env bash
# replay_html.sh PROG SHOT: the HTML timeline of a real zoo crash. The page
# has one event per traced record, with a stack on hover, and headless
# Chromium draws it: the screenshot (kept at SHOT) shows memory-access and
# synchronisation events and a highlighted preemption.
. "$(dirname "$0")/lib.sh"
prog=$1 shot=$2
here=$(cd "$(dirname "$0")" && pwd)
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || fail "chromium not found (scripts/setup.sh installs it)"
"$SCHEDFUZZ" run -n 5000 --seed 3 -o "$WORK/out" -- "$prog" >/dev/null 2>&1
crash=$(ls "$WORK/out"/crash-* | head -1)
[ -n "$crash" ] || fail "the explorer found no failure"
"$SCHEDFUZZ" replay --html "$WORK/timeline.html" "$crash" -- "$prog" >"$WORK/replay.log" 2>&1
[ $? -eq 1 ] || fail "the crash did not fail on replay"
grep -q "timeline written to $WORK/timeline.html" "$WORK/replay.log" || fail "no timeline written"
html=$WORK/timeline.html
events=$(grep -o 'class="ev ' "$html" | wc -l)
steps=$(sed -n 's/.*&middot; \([0-9]*\) steps.*/\1/p' "$html")
echo "timeline: $events drawn records for $steps steps; $(grep -c '<tr class="pre">' "$html") preemptions"
[ "$events" -ge "$steps" ] || fail "fewer drawn records than steps"
grep -q 'title="[^"]*&#10;at [a-z_]*\.c:[0-9]' "$html" || fail "no stack with file:line to hover"
grep -q '<h1 class="fail">' "$html" || fail "the failure is not the heading"
# Draw it (a tall window: the whole interleaving), then count colours.
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
	--user-data-dir="$WORK/profile" --window-size=1400,2400 --screenshot="$WORK/shot.png" \
	"file://$html" >"$WORK/chromium.log" 2>&1
[ -s "$WORK/shot.png" ] || { tail -5 "$WORK/chromium.log"; fail "chromium wrote no screenshot"; }
read -r mem sync pre < <(python3 "$here/png_colors.py" "$WORK/shot.png" 156,195,245 166,219,160 255,207,143 | tr '\n' ' ')
echo "screenshot pixels: memory events $mem, sync events $sync, preemption rows $pre"
[ "$mem" -ge 500 ] && [ "$sync" -ge 200 ] && [ "$pre" -ge 1000 ] || fail "the events are not drawn"
mkdir -p "$(dirname "$shot")"
cp "$WORK/shot.png" "$shot"
cp "$html" "${shot%.png}.html"
echo "screenshot: $shot"
