#!/usr/bin/env bash
# bench/split-deeper.sh - one child of a split disproof (bench/split-proof.sh)
# split one level further, for a child whose search is too big for its proof
# writer: the child's side moves as the claim's side, so its proof needs one
# move, the one its search names best (a search without a proof finds it);
# the position after that move is split by split-proof.sh (every move of the
# other side a search of its own), joined into the child's proof, checked.
#
#   bench/split-deeper.sh PNSOLVE GAME POSITION QUESTION MOVE OUT JOBS [prove options...]
#
# POSITION, QUESTION and the prove options are split-proof.sh's; MOVE is the
# root's move to the child; OUT receives the child's proof, which
# split-proof.sh then takes as OUT.d/MOVE.proof if OUT is named so (resume:
# a best move already found is kept in OUT.best, the grandchildren in
# OUT.MOVE2.d/ as split-proof.sh keeps them; SPLIT_SEARCH=0 joins only, as
# there).
set -euo pipefail
[ $# -ge 7 ] || { echo "usage: $0 PNSOLVE GAME POSITION QUESTION MOVE OUT JOBS [prove options...]" >&2; exit 2; }
bin=$1 game=$2 root=$3 question=$4 move=$5 out=$6 jobs=$7
shift 7
. "$(dirname "$0")/split-lib.sh"
child_q=$(split_child_question "$question") || exit 2
mkdir -p "$(dirname "$out")"
child=$("$bin" show "$game" --position "$root" "$move" | sed -n 's/^position: //p')
[ -n "$child" ] || { echo "$0: '$move' is not a move of the root" >&2; exit 2; }
if [ ! -s "$out.best" ]; then
    [ "${SPLIT_SEARCH:-1}" != 0 ] || { echo "$0: no best move in $out.best (SPLIT_SEARCH=0 searches nothing)" >&2; exit 1; }
    ${PNSOLVE_RUN:-} "$bin" prove "$game" --position "$child" --question "$child_q" "$@" >"$out.best.log" 2>&1 || true
    grep -q '^value: proven$' "$out.best.log" ||
        { echo "$0: the child after $move is not proven ($(grep -E '^value:' "$out.best.log" || tail -1 "$out.best.log"))" >&2; exit 1; }
    tr '\r' '\n' <"$out.best.log" | sed -n 's/^best move: //p' >"$out.best"
fi
best=$(cat "$out.best")
grand=$("$bin" show "$game" --position "$child" "$best" | sed -n 's/^position: //p')
echo "$move: the child's best move $best; its position after it: $grand"
# the grandchild's side to move is the root's: the same question, disproven
"$(dirname "$0")/split-proof.sh" "$bin" "$game" "$grand" "$question" "$out.$best" "$jobs" "$@"
"$bin" join-proofs "$game" --position "$child" --out "$out" "$out.$best"
split_tb_option "$@"
"$bin" verify-proof "$out" "${tb[@]}"
