#!/usr/bin/env bash
# bench/split-proof.sh - the disproof of a question split by the root's move:
# every child proved on its own (JOBS at a time here; one job per node on a
# cluster, each needing only the binary, the tables and its own position),
# joined into one file and checked whole.
#
#   bench/split-proof.sh PNSOLVE GAME POSITION QUESTION OUT JOBS [prove options...]
#
# Each child's search gets the cores JOBS leaves it (--threads cores/JOBS,
# at least 1) unless the options name --threads, so that JOBS x threads stays
# within the machine.  PNSOLVE_RUN (a command prefix, as in frontier-lib.sh:
# `srun -N1 -n1`) starts each search on another machine; OUT, the binary
# and the tables must be at the same paths there.
#
# QUESTION (win | advantage) is asked of the root's side to move; its
# disproof is, after every move, the other side's answer to the other
# question ('can Black force a win?' disproven = after each Black move,
# 'can White avoid losing?' proven).  Of children that are images of each
# other under the game's symmetries only the first is searched.  Children's
# proofs and logs go to OUT.d/; a child already proved there is not searched
# again (resume).
#
# SPLIT_DEEPER=N (default 0): a child whose search proved it but whose
# proof could not be written (the writer's --proof-memory) is split a move
# deeper by split-deeper.sh, from the best move its search named, down to N
# levels below this one (a child the search left open is not: it has no
# best move to start from; give it more --time or --memory).
#
# SPLIT_SEARCH=0: join only, searching nothing: every child's proof (or its
# best move and its own children's proofs, a level deeper) must be there
# already, as the committed parts of a proof too big for one file are
# (a child missing ends the run with its name).
set -euo pipefail
[ $# -ge 6 ] || { echo "usage: $0 PNSOLVE GAME POSITION QUESTION OUT JOBS [prove options...]" >&2; exit 2; }
bin=$1 game=$2 root=$3 question=$4 out=$5 jobs=$6
shift 6
case " $* " in
    *" --threads "*) ;;
    *) threads=$(( $(nproc) / jobs )); set -- "$@" --threads $(( threads > 0 ? threads : 1 )) ;;
esac
. "$(dirname "$0")/split-lib.sh"
child_q=$(split_child_question "$question") || exit 2
dir=$out.d
mkdir -p "$dir"
moves=$("$bin" show "$game" --position "$root" | sed -n 's/^moves ([0-9]*)://p')
[ -n "$moves" ] || { echo "$0: the root has no moves" >&2; exit 2; }
deeper=${SPLIT_DEEPER:-0}
[[ $deeper =~ ^[0-9]+$ ]] || { echo "$0: SPLIT_DEEPER must be a number of levels, not '$deeper'" >&2; exit 2; }
export SPLIT_SEARCH=${SPLIT_SEARCH:-1}
[[ $SPLIT_SEARCH =~ ^[01]$ ]] || { echo "$0: SPLIT_SEARCH must be 0 (join only) or 1, not '$SPLIT_SEARCH'" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
export bin game root question child_q dir deeper here
prove_child() {  # MOVE [prove options...]: proves the child after MOVE unless done
    local m=$1; shift
    [ -e "$dir/$m.proof" ] && return 0
    local pos
    pos=$("$bin" show "$game" --position "$root" "$m" | sed -n 's/^position: //p')
    if [ ! -s "$dir/$m.proof.best" ] && [ "$SPLIT_SEARCH" = 0 ]; then
        echo "$m: no proof and no best move here (SPLIT_SEARCH=0 searches nothing)"
        return 0
    fi
    if [ ! -s "$dir/$m.proof.best" ]; then
        ${PNSOLVE_RUN:-} "$bin" prove "$game" --position "$pos" --question "$child_q" --proof "$dir/$m.try" "$@" >"$dir/$m.log" 2>&1 || true
        if grep -q '^value: proven$' "$dir/$m.log" && [ -e "$dir/$m.try" ]; then
            mv "$dir/$m.try" "$dir/$m.proof"
            echo "$m: $(grep -E '^(nodes|time):' "$dir/$m.log" | tr '\n' ' ')"
            return 0
        fi
        # proven but not written: the best move lets a deeper split skip the search
        grep -q '^value: proven$' "$dir/$m.log" && sed -n 's/^best move: //p' "$dir/$m.log" >"$dir/$m.proof.best"
    fi
    if [ -s "$dir/$m.proof.best" ]; then
        local why
        why=$(grep -m1 -o 'the closed-set writer read [0-9]* positions' "$dir/$m.log" 2>/dev/null || echo "see $dir/$m.log")
        [ "$deeper" -gt 0 ] || { echo "$m: proven, its proof not written ($why; SPLIT_DEEPER splits it a move deeper)"; return 0; }
        echo "$m: proven, its proof not written ($why): a move deeper"
        SPLIT_DEEPER=$((deeper - 1)) "$here/split-deeper.sh" "$bin" "$game" "$root" "$question" "$m" "$dir/$m.proof" 1 "$@" \
            >"$dir/$m.deeper.log" 2>&1 && echo "$m: proved a move deeper" && return 0
        echo "$m: not proven a move deeper (see $dir/$m.deeper.log)"
        return 0
    fi
    # disproven (the file shows the other side's answer), open, or failed
    echo "$m: not proven ($(grep -E '^value:' "$dir/$m.log" || tail -1 "$dir/$m.log"))"
}
export -f prove_child
# one child per symmetry class (where the game has symmetries): join-proofs
# answers the others with 'sym' lines that verify-proof checks by the game's
# symmetric key
todo=() seen=" "
for m in $moves; do
    class=$("$bin" show "$game" --position "$root" "$m" | sed -n 's/^symmetry class: //p')
    [ -n "$class" ] && case $seen in *" $class "*) continue ;; esac
    seen+="$class "
    todo+=("$m")
done
echo "$(echo $moves | wc -w) moves, ${#todo[@]} to prove"
printf '%s\n' "${todo[@]}" | xargs -P "$jobs" -I{} bash -c 'prove_child "$@"' _ {} "$@"
proofs=()
for m in "${todo[@]}"; do
    [ -e "$dir/$m.proof" ] || { echo "$0: no proof after $m: the question is not disproven this way (see $dir/$m.log)" >&2; exit 1; }
    proofs+=("$dir/$m.proof")
done
"$bin" join-proofs "$game" --position "$root" --out "$out" "${proofs[@]}"
split_tb_option "$@"
"$bin" verify-proof "$out" "${tb[@]}"
