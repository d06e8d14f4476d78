#!/usr/bin/env bash
# demo.sh PNSOLVE - `make demo`: every game's start, its legal moves, and perft.
set -e
bin=${1:-build/pnsolve}
for game in jungle ostle othello:6x6; do
    echo "== $game"
    "$bin" show "$game"
    "$bin" perft "$game" 5
    echo
done
