#!/usr/bin/env bash
# tests/same_behaviour.sh PNSOLVE OUT - what a restructuring must leave as
# it was: values, lines and node counts printed, proof files and table
# files byte for byte.  Runs the commands below with PNSOLVE and writes
# OUT/manifest (each command, what it printed less its timings, the BLAKE2b
# of each file it wrote); run it with the build before and the build after
# and `diff` the two manifests.  Not in make test: about 6 minutes on two
# cores (the Othello 4x5 strong build is most of it).
set -u
bin=$(realpath "$1")
out=$2
mkdir -p "$out"
out=$(realpath "$out")
src=$(cd "$(dirname "$0")/.." && pwd)
man="$out/manifest"
: >"$man"
cd "$out" || exit 2

# timings and memory differ run to run; everything else must not
# (and a threaded search's count of its table's contention)
quiet() {
    sed -E 's/ \([0-9.]+ nodes\/s\)//; s/ \([0-9.]+ s\)//; s/, [0-9.]+ s\)/)/' |
        grep -vE '^(time|peak memory|leaves per second|shared table):|[0-9.]+ s( |$|,)|seconds|MB|GB|wrote '
}
run() {  # NAME FILES... -- ARGS: the command's printout and its files' hashes
    local name=$1; shift
    local files=()
    while [ "$1" != "--" ]; do files+=("$1"); shift; done
    shift
    { echo "== $name: pnsolve $*"; "$bin" "$@" 2>&1 | quiet; echo "exit ${PIPESTATUS[0]}"
      for f in "${files[@]}"; do [ -e "$f" ] && b2sum -l 256 "$f" | cut -c1-64 | sed "s|$| $f|"; done; } >>"$man"
}

g="$src/positions/ghi/kishimoto-fig3-2.graph"
run "jungle win" p1 -- prove jungle --position "7/3t3/7/7/7/3E3/7 w" --no-tb --question win --proof p1
run "jungle advantage" p2 -- prove jungle --position "1r5/7/7/7/7/4E2/7 b" --no-tb --question advantage --proof p2
# two threads race: their counts, line and proof vary run to run, their value not
{ echo "== othello 4x4 two threads: the value"; "$bin" prove othello:4x4 --question win --threads 2 --proof p3 | grep '^value:'
  "$bin" verify-proof p3 | sed 's/ ([0-9]* nodes)//'; } >>"$man"
run "othello 4x5 score" p4 -- prove othello:4x5 --score --proof p4
run "othello 5x5 score" p5 -- prove othello:5x5 --score --memory 512 --proof p5
run "kishimoto graph" p6 p6.dot -- prove "graph:$g" --question win --proof p6 --dot p6.dot
run "ostle 3x3" p7 -- prove ostle:3x3 --question advantage --proof p7
run "ostle 3x4" p8 -- prove ostle:3x4 --question advantage --nodes 2000000 --proof p8
run "tic-tac-toe" p9 -- prove tictactoe --question advantage --proof p9
run "jungle mate" -- solve-puzzle jungle --position "7/7/3d3/e6/R6/3E3/4T2 w" --mate-in 9 --no-tb
run "show dot" s.dot -- show "graph:$g" --dot s.dot
run "jungle 4-piece tables" -- tb build jungle --pieces 4 --dir jt --threads 2
(cd jt && b2sum -l 256 -- * | sort -k2) | sed 's/^/jt: /' >>"$man"
run "ostle 3x4 tables" -- tb build ostle:3x4 --pieces 6 --dir ot --threads 2
(cd ot && b2sum -l 256 -- * | sort -k2) | sed 's/^/ot: /' >>"$man"
run "othello 4x5 strong" -- tb build othello:4x5 --dir xt --threads 2
(cd xt && b2sum -l 256 -- *.pnss | sort -k2) | sed 's/^/xt: /' >>"$man"
run "campaign" c/lower.proof c/upper.proof -- campaign run c othello:5x5 --question score --guess 12 --depth 2 --memory 64 --workers 1
echo "same_behaviour: $(grep -c '^== ' "$man") commands into $man"
