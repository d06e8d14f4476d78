#!/usr/bin/env bash
# tests/threads.sh PNSOLVE - short searches of every game on several threads
# (three: more than this machine's cores, so that members are preempted
# while they hold a lock or wait at a checkpoint): each gives the value of
# one thread, and a proof written after a threaded search verifies.  Run by
# `make check-tsan` under ThreadSanitizer.
set -u
bin=$1
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

answer() {  # the lines that must not depend on the threads
    "$bin" prove "$@" 2>"$tmp/err" | grep -E '^(value|score|status):'
}

same() {  # same NAME PROVE-ARGS...: --threads 3 answers as --threads 1
    local name=$1; shift
    local one many
    one=$(answer "$@" --threads 1) && many=$(answer "$@" --threads 3)
    if [ $? = 0 ] && [ -n "$one" ] && [ "$one" = "$many" ]; then pass=$((pass + 1)); else
        fail=$((fail + 1)); echo "FAIL: $name: one thread '$one', three '$many'"; head -3 "$tmp/err"; fi
}

proof() {  # proof NAME PROVE-ARGS...: a proof written after a threaded search verifies
    local name=$1; shift
    if "$bin" prove "$@" --threads 3 --proof "$tmp/p" >/dev/null 2>"$tmp/err" &&
        "$bin" verify-proof "$tmp/p" ${TB:+--tb-dir "$TB"} >/dev/null 2>>"$tmp/err"; then pass=$((pass + 1)); else
        fail=$((fail + 1)); echo "FAIL: $name"; head -3 "$tmp/err"; fi
}

for f in positions/ghi/*.graph; do same "$f" "graph:$f"; done
same "tictactoe" tictactoe
same "jungle win" jungle --position "7/3t3/7/7/7/3E3/7 w" --no-tb --question win
same "jungle advantage" jungle --position "7/3t3/7/7/7/3E3/7 w" --no-tb --question advantage
proof "jungle proof" jungle --position "7/3t3/7/7/7/3E3/7 w" --no-tb --question advantage
# a 1 MB table evicts solved entries at once: the keep that holds them is
# read by every thread of the proof's search while others put into it
# (1,495 kept here)
proof "jungle proof through a small table" jungle --position "7/2t4/7/3d3/3R3/2D4/7 w" --no-tb --question win --memory 1
"$bin" tb build jungle --pieces 3 --dir "$tmp/jt" >/dev/null 2>&1
same "jungle with tables" jungle --position "7/3t3/7/2r4/7/3E3/7 w" --tb-dir "$tmp/jt" --question advantage
"$bin" tb build ostle:3x3 --pieces 5 --dir "$tmp/ot" >/dev/null 2>&1
same "ostle 3x3 with tables" ostle:3x3 --position "WWW/1H1/B1B w -" --tb-dir "$tmp/ot" --question win
TB=$tmp/ot proof "ostle 3x3 proof with tables" ostle:3x3 --position "WWW/1H1/B1B w -" --tb-dir "$tmp/ot" --question advantage
same "ostle 3x4" ostle:3x4 --no-tb --question advantage --nodes 3000000
same "othello 4x4 score" othello:4x4 --score
same "othello 5x5 score" othello:5x5 --score --exact-empties 10
proof "othello 4x4 score proof" othello:4x4 --score
# its exact leaves checked by verify-proof's threads (every core)
proof "othello 4x5 score proof with exact leaves" othello:4x5 --score --proof-exact 12
# a checkpoint written while the others wait, then resumed on threads
"$bin" prove jungle --no-tb --question win --nodes 20000 --memory 8 --threads 3 --checkpoint "$tmp/ck" \
    --checkpoint-every 0.01 >/dev/null 2>&1
if "$bin" prove jungle --no-tb --question win --nodes 40000 --memory 8 --threads 3 --resume "$tmp/ck" 2>/dev/null |
    grep -q "stopped by nodes"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: checkpoint and resume on threads"; fi
echo "threads: $pass passed, $fail failed"
[ $fail = 0 ]
