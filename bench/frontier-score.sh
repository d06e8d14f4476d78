#!/usr/bin/env bash
# bench/frontier-score.sh - an exact score proved through a frontier: every
# position DEPTH moves from the root (one per symmetry class among siblings,
# each transposition once) gets its score and both bounds' proofs on its
# own, JOBS at a time (on a cluster, one job per position: each needs only
# the binary and its position; PNSOLVE_RUN, in frontier-lib.sh, starts it there); then the proofs are joined level by level
# up to the root and the root's file is checked whole.  JOBS 0 only lists
# the frontier (OUT/todo), to size a run before it starts.
#
#   bench/frontier-score.sh PNSOLVE GAME DEPTH OUT JOBS [--position P] [prove options...]
#
# OUT/frontier.txt lists every frontier position with its proved score
# (score, df-pn nodes, solver nodes, seconds, position; tab-separated), small enough to commit,
# so that anyone can re-check a sample; the proofs go to OUT/p/ (frontier)
# and OUT/j/ (joined), named by a hash of the position.  A position already
# proved there is not searched again (resume); OUT/root.proof is the root's
# two bounds.  Each search gets the cores JOBS leaves it (--threads) unless
# the options name --threads.
set -euo pipefail
[ $# -ge 5 ] || { echo "usage: $0 PNSOLVE GAME DEPTH OUT JOBS [--position P] [prove options...]" >&2; exit 2; }
bin=$1 game=$2 depth=$3 out=$4 jobs=$5
shift 5
root=
if [ "${1:-}" = --position ]; then root=$2; shift 2; fi
. "$(dirname "$0")/frontier-lib.sh"
frontier_check "$depth" "$jobs"
case " $* " in
    *" --threads "*) ;;
    *) threads=$(( $(nproc) / (jobs > 0 ? jobs : 1) )); set -- "$@" --threads $(( threads > 0 ? threads : 1 )) ;;
esac
[ -n "$root" ] || root=$("$bin" show "$game" | sed -n 's/^position: //p')
mkdir -p "$out/p" "$out/j"
touch "$out/frontier.txt"
export bin game out

frontier_tree "$root" "$depth"
echo "frontier: $(wc -l <"$out/todo") positions at depth $depth (transpositions and mirror siblings once)"
[ "$jobs" != 0 ] || exit 0  # JOBS 0: list the frontier ($out/todo) only

prove_one() {  # POSITION [prove options...]: its score and proofs, unless done
    local pos=$1 key
    shift
    key=$(name "$pos")
    [ -e "$out/p/$key.proof" ] && return 0
    local log
    log=$(frontier_prove "$game" --position "$pos" --score --proof "$out/p/$key.try" "$@" 2>&1) || true
    local score nodes solver secs
    score=$(sed -n 's/^score: //p' <<<"$log")
    nodes=$(sed -n 's/^nodes: \([0-9]*\).*/\1/p' <<<"$log")
    solver=$(sed -n 's/^endgame solver nodes: \([0-9]*\).*/\1/p' <<<"$log")
    secs=$(sed -n 's/^time: \([0-9.]*\).*/\1/p' <<<"$log")
    if [ -n "$score" ] && [ -e "$out/p/$key.try" ]; then
        mv "$out/p/$key.try" "$out/p/$key.proof"
        printf '%s\t%s\t%s\t%s\t%s\n' "$score" "${nodes:-0}" "${solver:-0}" "${secs:-0}" "$pos" >>"$out/frontier.txt"
    else
        echo "$pos: not solved ($(grep -E '^status:' <<<"$log" || tail -1 <<<"$log"))" >&2
    fi
}
export -f name frontier_prove prove_one
xargs -d '\n' -P "$jobs" -I{} bash -c 'prove_one "$@"' _ {} "$@" <"$out/todo"

# The joins, from the frontier up: a position's file is its proof where it
# is on the frontier, else the join of its kept children's files.
join_up() {  # POSITION: its file into $file
    local pos=$1 key
    key=$(name "$pos")
    file=$out/p/$key.proof
    [ -e "$file" ] && return 0
    [ -n "${kids[$key]:-}" ] || { echo "$0: no proof of the frontier position $pos" >&2; exit 1; }
    local at=$out/j/$key.proof
    if [ ! -e "$at" ]; then
        local files=() c
        while IFS= read -r c; do
            join_up "$c"
            files+=("$file")
        done <<<"${kids[$key]}"
        "$bin" join-proofs "$game" --position "$pos" --out "$at" "${files[@]}" >/dev/null
    fi
    file=$at
}
join_up "$root"
cp "$file" "$out/root.proof"
sort -t $'\t' -k5 "$out/frontier.txt" -o "$out/frontier.txt"
"$bin" verify-proof "$out/root.proof"
