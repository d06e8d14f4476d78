#!/usr/bin/env bash
# demo.sh PNSOLVE - `make demo`: every game's start and perft, then Jungle
# Checkers endgame tables up to three pieces built, verified and probed, and
# the proof-number search on a GHI graph and on Jungle positions.
set -e
bin=${1:-build/pnsolve}
for game in jungle ostle othello:6x6; do
    echo "== $game"
    "$bin" show "$game"
    "$bin" perft "$game" 5
    echo
done
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo "== jungle endgame tables, up to 3 pieces"
"$bin" tb build jungle --pieces 3 --dir "$dir"
"$bin" tb verify jungle --dir "$dir" | tail -1
for p in "7/3R3/7/7/7/7/6r w" "7/7/7/7/7/3r3/R6 w" "7/7/2e4/7/3R3/7/1D5 w"; do
    echo "$p: $("$bin" tb probe jungle "$p" --dir "$dir")"
done
"$bin" tb stats jungle --dir "$dir" | grep -A1 "^RDe"
echo
echo "== proof-number search: the GHI example of the thesis (figure 3.2)"
"$bin" prove graph:positions/ghi/kishimoto-fig3-2.graph | head -3
echo "-- the same with a table that ignores the path (wrong):"
"$bin" prove graph:positions/ghi/kishimoto-fig3-2.graph --ghi naive | head -1
echo
echo "== a four-piece Jungle position proved with the three-piece tables, and its proof checked"
p="7/2e4/7/7/3R3/3E3/t6 w"
"$bin" prove jungle --position "$p" --tb-dir "$dir" | head -5
"$bin" prove jungle --position "7/3t3/7/7/7/3E3/7 w" --no-tb --question win --proof "$dir/proof.txt" | head -1
"$bin" verify-proof "$dir/proof.txt"
echo
echo "== Othello 4x5 weakly solved: exact score, principal line, both bounds proved and checked"
"$bin" prove othello:4x5 --score --proof "$dir/othello.txt" | head -4
"$bin" verify-proof "$dir/othello.txt"
