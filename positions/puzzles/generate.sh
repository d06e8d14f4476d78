#!/bin/sh
# Regenerates this directory's puzzle sets with pnsolve (README, "Puzzles").
# usage: positions/puzzles/generate.sh PNSOLVE TABLE_DIR
# TABLE_DIR holds the Jungle Checkers tables up to five pieces
# (pnsolve tb build jungle --pieces 5 --dir TABLE_DIR).  Ostle has no tables:
# its problems come from random games and the depth-bounded search.
set -e
bin=${1:?usage: generate.sh PNSOLVE TABLE_DIR}
tables=${2:?usage: generate.sh PNSOLVE TABLE_DIR}
here=$(dirname "$0")
rm -f "$here"/jungle.txt "$here"/jungle.jsonl "$here"/ostle.txt "$here"/ostle.jsonl
rm -rf "$here"/svg
for n in 3 5 7 9 11 13 15 17 19 21; do
    for fmt in text json; do
        opt=""; out=jungle.txt
        [ $fmt = json ] && { opt=--json; out=jungle.jsonl; }
        "$bin" puzzles jungle --mate-in $n --count 3 --seed $n --tb-dir "$tables" $opt >>"$here/$out"
    done
    "$bin" puzzles jungle --mate-in $n --count 1 --seed $n --tb-dir "$tables" --svg "$here/svg/jungle-$n" >/dev/null
done
for n in 3 5 7 9 11; do
    for fmt in text json; do
        opt=""; out=ostle.txt
        [ $fmt = json ] && { opt=--json; out=ostle.jsonl; }
        "$bin" puzzles ostle --mate-in $n --count 4 --seed $n $opt >>"$here/$out"
    done
    "$bin" puzzles ostle --mate-in $n --count 1 --seed $n --svg "$here/svg/ostle-$n" >/dev/null
done
