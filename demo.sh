#!/usr/bin/env bash
# demo.sh PNSOLVE - `make demo`: the tour a new user takes, each step said
# before it is shown: every game's start and perft; Jungle Checkers tables
# built, verified and probed; the thesis's GHI graph proved right and, by a
# table blind to the path, wrong; a Jungle position proved with the tables
# and that same proof checked; Othello 4x5 solved with both bounds' proofs
# checked.
set -e
bin=${1:-build/pnsolve}
step() { printf '\n== %s\n' "$1"; }
for game in jungle ostle othello:6x6; do
    step "$game: the start and the number of move sequences to depth 5 (perft)"
    "$bin" show "$game"
    "$bin" perft "$game" 5
done
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
step "Jungle endgame tables to 3 pieces: built, every value re-derived from its children, probed"
"$bin" tb build jungle --pieces 3 --dir "$dir" 2>&1 | tail -1
"$bin" tb verify jungle --dir "$dir" | tail -1
for p in "7/3R3/7/7/7/7/6r w" "7/7/7/7/7/3r3/R6 w" "7/7/2e4/7/3R3/7/1D5 w"; do
    echo "  $p: $("$bin" tb probe jungle "$p" --dir "$dir")"
done
step "the GHI example of the thesis (figure 3.2): A wins by C, though a repetition hides it"
echo "-- GHI-safe search (the default): the right answer"
"$bin" prove graph:positions/ghi/kishimoto-fig3-2.graph | grep -E "^(value|pv):"
echo "-- a table that ignores the path (--ghi naive): the wrong answer the thesis warns of"
"$bin" prove graph:positions/ghi/kishimoto-fig3-2.graph --ghi naive | grep -E "^value:"
p="7/2e4/7/7/3R3/3E3/t6 w"
step "a four-piece Jungle position ($p) solved with the three-piece tables"
"$bin" prove jungle --position "$p" --tb-dir "$dir" | grep -E "^(value|pv):"
echo "-- its 'White holds at least the draw' proved, and that proof checked against the rules and the tables"
"$bin" prove jungle --position "$p" --tb-dir "$dir" --question advantage --proof "$dir/jungle.proof" | grep -E "^value:"
"$bin" verify-proof "$dir/jungle.proof" --tb-dir "$dir" | cut -c1-150
step "Othello 4x5 weakly solved: the exact score and its line, both bounds' proofs checked"
"$bin" prove othello:4x5 --score --proof "$dir/othello.proof" | grep -E "^(score|pv):"
"$bin" verify-proof "$dir/othello.proof"
