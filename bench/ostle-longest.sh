#!/usr/bin/env bash
# bench/ostle-longest.sh PNSOLVE GAME DIR MATERIAL - the longest win of the
# table of MATERIAL in DIR, in the form of positions/ostle/longest-win.txt
# (it holds 3x3's, ostle:3x3 DIR 3+3, until the 5x5 ten-piece table is built
# and it is made with ostle DIR 5+5): every state the
# table names at the longest distance, then the line the tables play from
# the first of them to the game's end, one row per state with its value and
# the move played from it.  tests/cli.sh checks the rows against each other
# (each the one before after its move) and re-proves the short end of the
# line by search without tables.  STATS=FILE reads a saved `tb stats GAME
# --dir DIR --json` instead of running it (a scan of every table: minutes on 5x5).
set -euo pipefail
[ $# -eq 4 ] || { echo "usage: $0 PNSOLVE GAME DIR MATERIAL" >&2; exit 2; }
bin=$1 game=$2 dir=$3 mat=$4
stats=$(if [ -n "${STATS:-}" ]; then cat "$STATS"; else "$bin" tb stats "$game" --dir "$dir" --json; fi |
    grep "\"material\": \"$mat\"")
longest=$(sed -n 's/.*"longest": \([0-9]*\).*/\1/p' <<<"$stats")
mapfile -t states < <(sed -n 's/.*"longest_win_states": \[\(.*\)\].*/\1/p' <<<"$stats" | tr ',' '\n' | sed 's/^ *"//; s/"$//')
[ "${#states[@]}" -gt 0 ] || { echo "$0: no longest win in the $mat table of $dir" >&2; exit 1; }
echo "# The longest wins of $game by the tables (material $mat, $longest plies"
echo "# to the end of the game for the side to move; the Ostle paper counts one"
echo "# fewer, to the state with a winning push-off).  Made by"
echo "# bench/ostle-longest.sh $game DIR $mat from tables built by tb build."
echo "# Columns (tab-separated): game, state, value, the move the tables play, note."
echo "# The states the table names at that distance (twins aside):"
for s in "${states[@]}"; do
    printf '%s\t%s\twin %s\t-\tlongest\n' "$game" "$s" "$longest"
done
echo "# The line from the first: the winner's fastest and the loser's slowest moves."
line=$("$bin" prove "$game" --position "${states[0]}" --tb-dir "$dir" | sed -n 's/^pv: //p')
read -r -a moves <<<"$line"
pos=${states[0]} texts=()
for ((i = 0; i <= ${#moves[@]}; i++)); do
    texts+=("$pos")
    [ $i -lt ${#moves[@]} ] || break
    pos=$("$bin" show "$game" --position "$pos" "${moves[$i]}" | sed -n 's/^position: //p')
done
mapfile -t values < <(printf '%s\n' "${texts[@]}" | "$bin" tb probe "$game" - --dir "$dir")
for ((i = 0; i < ${#texts[@]}; i++)); do
    mv=${moves[$i]:--}
    printf '%s\t%s\t%s\t%s\tline ply %d\n' "$game" "${texts[$i]}" "${values[$i]}" "$mv" "$i"
done
