#!/usr/bin/env bash
# tests/check_html.sh PNSOLVE - `make check-html`: a puzzle booklet looked at
# in a real browser (Debian's chromium, headless): six Jungle problems from
# the three-piece tables, every diagram drawn (the page's own count, read
# from the DOM after load), a screenshot to PNG, and printed to PDF on three
# A4 pages (two problems a page).
set -u
bin=$1
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { if [ "$1" = 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $2"; fi; }
if ! command -v chromium >/dev/null 2>&1; then
    echo "check-html: installing chromium"
    sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null ||
        { echo "check-html: chromium cannot be installed"; exit 1; }
fi
browser=(timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars)
"$bin" tb build jungle --pieces 3 --dir "$tmp/t" >/dev/null 2>&1
"$bin" puzzles jungle --mate-in 3 --tb-dir "$tmp/t" --count 6 --html "$tmp/book.html" >/dev/null 2>&1
ok $? "the booklet written"
"${browser[@]}" --virtual-time-budget=5000 --dump-dom "file://$tmp/book.html" 2>/dev/null >"$tmp/dom"
grep -q 'data-drawn="6 of 6"' "$tmp/dom"
ok $? "every diagram drawn ($(grep -o 'data-drawn="[^"]*"' "$tmp/dom" || echo 'no count: the script did not run'))"
"${browser[@]}" --window-size=1200,3000 --screenshot="$tmp/book.png" "file://$tmp/book.html" >/dev/null 2>&1
[ "$(stat -c %s "$tmp/book.png" 2>/dev/null || echo 0)" -gt 20000 ]
ok $? "a screenshot of the page"
"${browser[@]}" --no-pdf-header-footer --print-to-pdf="$tmp/book.pdf" "file://$tmp/book.html" >/dev/null 2>&1
pages=$(grep -a -o "/Count [0-9]*" "$tmp/book.pdf" 2>/dev/null | head -1 | cut -d' ' -f2)
[ "${pages:-0}" = 3 ]
ok $? "printed: two problems to an A4 page (${pages:-no} pages for six)"
[ -n "${KEEP_HTML:-}" ] && cp "$tmp/book.html" "$tmp/book.png" "$tmp/book.pdf" "$KEEP_HTML"/
echo "check-html: $pass passed, $fail failed"
[ $fail = 0 ]
