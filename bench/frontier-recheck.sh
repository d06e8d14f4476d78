#!/usr/bin/env bash
# bench/frontier-recheck.sh - re-checks a sample of a frontier's kept
# answers (OUT/bounds.txt of frontier-bound.sh, or a committed copy such as
# results/othello-6x7-bounds.txt) without trusting the run that made them:
# each sampled "at least K?" is asked again with its proof written, the
# proof is checked by `verify-proof` (its own alpha-beta over the rules at
# the exact leaves), and the checked answer must be the kept one.
#
#   bench/frontier-recheck.sh PNSOLVE GAME FILE N [SEED] [prove options...]
#
# N answers drawn at random (the same SEED draws the same ones; default 1;
# N 0 takes them all), one line each: ok or MISMATCH, the kept and the
# checked answer, the seconds.  Lines starting with # are comments.  Exit 0
# when every sampled answer is confirmed, 1 when one is not.
set -euo pipefail
usage() { echo "usage: $0 PNSOLVE GAME FILE N [SEED] [prove options...]" >&2; exit 2; }
[ $# -ge 4 ] || usage
bin=$1 game=$2 file=$3 n=$4
shift 4
seed=1
case ${1:-} in '' | -*) ;; *) seed=$1; shift ;; esac
case $n in '' | *[!0-9]*) echo "$0: N must be a number of answers, not '$n'" >&2; exit 2 ;; esac
case $seed in *[!0-9]*) echo "$0: SEED must be a number, not '$seed'" >&2; exit 2 ;; esac
[ -r "$file" ] || { echo "$0: cannot read '$file'" >&2; exit 2; }
. "$(dirname "$0")/frontier-lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Well-formed lines only: a damaged file is refused, not sampled around.
awk -F'\t' '!/^#/ && NF {
    if (NF != 6 || $1 !~ /^-?[0-9]+$/ || ($2 != "proven" && $2 != "disproven")) {
        printf "%s: line %d is not K<TAB>proven|disproven<TAB>...<TAB>POSITION\n", FILENAME, FNR > "/dev/stderr"; exit 1 }
    print }' "$file" >"$tmp/answers" || exit 2
total=$(wc -l <"$tmp/answers")
[ "$total" -gt 0 ] || { echo "$0: no answers in '$file'" >&2; exit 2; }
[ "$n" != 0 ] && [ "$n" -lt "$total" ] || n=$total
shuf -n "$n" --random-source=<(yes "$seed") "$tmp/answers" >"$tmp/sample"

bad=0 i=0
while IFS=$'\t' read -r k kept _ _ _ pos; do
    i=$((i + 1))
    start=$(date +%s.%N)
    checked=unknown
    if frontier_prove "$game" --position "$pos" --question "score:$k" --proof "$tmp/p" "$@" >"$tmp/log" 2>&1 &&
        "$bin" verify-proof "$tmp/p" >"$tmp/check" 2>&1; then
        checked=$(sed -n 's/^value: //p' "$tmp/log")
        # the checker's own words must carry the same answer
        grep -q "^sound: .* $checked" "$tmp/check" || checked="unsound"
    fi
    secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    verdict=ok
    [ "$checked" = "$kept" ] || { verdict=MISMATCH; bad=$((bad + 1)); }
    printf '%s %d/%d: at least %s? kept %s, checked %s (%s s) %s\n' "$verdict" "$i" "$n" "$k" "$kept" "$checked" "$secs" "$pos"
    rm -f "$tmp/p"
done <"$tmp/sample"
echo "$((n - bad)) of $n sampled answers confirmed"
[ "$bad" = 0 ]
