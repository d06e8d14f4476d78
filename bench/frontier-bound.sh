#!/usr/bin/env bash
# bench/frontier-bound.sh - a score proved through a frontier with one-sided
# questions only, as a proof-tree manager does (Schaeffer's checkers proof;
# Takizawa's Othello 8x8): the root's score is SCORE when "at least SCORE?"
# is proven and "at least the next possible score?" disproven.  Each bound
# is an AND/OR tree above the frontier: where the bound's side moves, one
# child must hold (tried best first by the solver's estimate where the game
# has one, then by the fewest replies left to the other side, the usual
# Othello guess); where the other side moves, every child.
# Whenever a search ends, the tree is walked again and the open frontier
# questions the current choice needs ("can the side to move finish at
# least K ahead?", `prove --question score:K --proof`) start, JOBS at a
# time (on a cluster, one job per position: PNSOLVE_RUN, in
# frontier-lib.sh); a failed child moves the choice to the next one.  Then the proofs are
# joined up to the root and checked.
#
#   bench/frontier-bound.sh PNSOLVE GAME DEPTH OUT JOBS SCORE [--position P] [prove options...]
#
# OUT/bounds.txt keeps every answer (K, proven or disproven, df-pn nodes,
# solver nodes, seconds, position; tab-separated): a later run (another
# SCORE, another session) reuses them, and an answer for one K answers
# every K it implies.  A question stopped by its limits (--time, --nodes)
# puts its position in OUT/deeper.txt: its children are asked instead.
# Proofs: OUT/p/ (frontier), OUT/j/ (joined);
# OUT/lower.proof and OUT/upper.proof are the root's two bounds; then the
# principal line down to the frontier ("pv:", "pv ends at:").  Exit 0
# when both hold, 1 when one fails (the message says which way the score
# lies: run again with another SCORE; the answers are kept).  JOBS 0 only
# lists the frontier.
set -euo pipefail
[ $# -ge 6 ] || { echo "usage: $0 PNSOLVE GAME DEPTH OUT JOBS SCORE [--position P] [prove options...]" >&2; exit 2; }
bin=$1 game=$2 depth=$3 out=$4 jobs=$5 score=$6
shift 6
root=
if [ "${1:-}" = --position ]; then root=$2; shift 2; fi
. "$(dirname "$0")/frontier-lib.sh"
frontier_check "$depth" "$jobs"
case $score in '' | -[!0-9]* | *[!-0-9]* | ?*-*) echo "$0: SCORE must be a whole number, not '$score'" >&2; exit 2 ;; esac
case " $* " in
    *" --threads "*) ;;
    *) threads=$(( $(nproc) / (jobs > 0 ? jobs : 1) )); set -- "$@" --threads $(( threads > 0 ? threads : 1 )) ;;
esac
[ -n "$root" ] || root=$("$bin" show "$game" | sed -n 's/^position: //p')
mkdir -p "$out/p" "$out/j"
touch "$out/bounds.txt" "$out/deeper.txt"

# The searches under way: running[PID] is its question (K<TAB>POSITION);
# held[question] is running or failed (not asked again in this run).
declare -A running=() held=()
kill_tree() { local c; for c in $(pgrep -P "$1"); do kill_tree "$c"; done; kill "$1" 2>/dev/null || true; }
stop_searches() { local pid; for pid in "${!running[@]}"; do kill_tree "$pid"; done; running=(); wait 2>/dev/null || true; }
trap stop_searches EXIT
trap 'echo "interrupted: $(wc -l <"$out/bounds.txt") answers kept in $out/bounds.txt; the same command goes on from them" >&2; exit 130' INT TERM

frontier_tree "$root" "$depth"
echo "frontier: $(wc -l <"$out/todo") positions at depth $depth (transpositions and mirror siblings once)"
[ "$jobs" != 0 ] || exit 0

# A frontier question that its limits stopped (--time, --nodes) is not
# asked again: its position is listed in OUT/deeper.txt and becomes a node
# of the tree, its children frontier positions (one move deeper, again if
# they are stopped too), as a proof-tree manager splits a hard leaf.
frontier_deepen() {
    [ -s "$out/deeper.txt" ] || return 0
    local pos n=0
    while IFS= read -r pos; do
        key_of "$pos"
        [ -z "${kids[$REPLY]:-}" ] || continue
        unset "seen[$REPLY]"
        frontier_expand "$pos" 1
        n=$((n + 1))
    done <"$out/deeper.txt"
    [ "$n" = 0 ] || echo "made deeper: $n frontier positions whose questions ran into their limits"
}

# "at least SCORE" proven and "at least SCORE+1" disproven pin the score,
# whichever scores the game can end with.
next=$(( score + 1 ))

# Known answers: for each position, the greatest K proven and the least K
# disproven (each with its proof), from OUT/bounds.txt.
# Where the game ends only on some scores (`show` lists them: on an even
# Othello board every score is even), "at least K" proven is "at least the
# next possible score", and "at least K" disproven is "at least one more
# than the possible score below K" disproven: an answer for K=1 answers K=2.
declare -A up down
possible=$(show "$root" | sed -n 's/^possible scores: //p')
if [ -n "$possible" ]; then
    read -ra scores <<<"$possible"
    for ((i = ${#scores[@]} - 1; i >= 0; i--)); do  # up[K]: the least possible score >= K
        for ((v = scores[i]; v > (i > 0 ? scores[i - 1] : scores[0] - 1); v--)); do up[$v]=${scores[i]}; done
    done
    for ((i = 0; i < ${#scores[@]}; i++)); do  # down[K]: the greatest possible score <= K
        for ((v = scores[i]; v < (i + 1 < ${#scores[@]} ? scores[i + 1] : scores[i] + 1); v++)); do down[$v]=${scores[i]}; done
    done
fi
declare -A lo lo_file hi hi_file
load_answers() {
    local k result pos key b
    while IFS=$'\t' read -r k result _ _ _ pos; do
        key_of "$pos"
        key=$REPLY
        if [ "$result" = proven ]; then
            b=${up[$k]:-$k}
            [ -n "${lo[$key]:-}" ] && [ "${lo[$key]}" -ge "$b" ] && continue
            lo[$key]=$b lo_file[$key]=$out/p/$key.$k.proof
        else
            b=${down[$((k - 1))]:-$((k - 1))}
            b=$((b + 1))
            [ -n "${hi[$key]:-}" ] && [ "${hi[$key]}" -le "$b" ] && continue
            hi[$key]=$b hi_file[$key]=$out/p/$key.$k.proof
        fi
    done <"$out/bounds.txt"
}

# decide POSITION K WANT: is "the mover at POSITION finishes at least K"
# WANT (proven | disproven)?  Sets verdict (yes | no | open) and file (its
# proof where yes); open frontier questions go to the array ask, and need
# is the bound's proof number: the fewest open questions that would decide
# it if each went the wanted way (the least over one child's, the sum over
# every child's; a transposition counts on each path), the run's measure
# of how far it is from done.  Where the
# claim's side moves (WANT proven) one child must hold, else every child;
# a child whose mover changed is asked 1-K with WANT flipped.  Decided
# positions are remembered (transpositions); the questions under a decided
# one are dropped.
# child_question PARENT_KEY CHILD_KEY K WANT: the same claim asked at the
# child, in qk and qw: unchanged where the mover is the same (a pass), else
# from the child's mover's side, 1-K with WANT flipped.
child_question() {
    if [ "${mover[$2]}" = "${mover[$1]}" ]; then qk=$3 qw=$4
    else qk=$(( 1 - $3 )) qw=proven; [ "$4" = disproven ] || qw=disproven; fi
}

declare -A memo memo_file chosen  # chosen[key:K:proven]: the child that holds (kept across walks and bounds)
decide() {
    local pos=$1 k=$2 want=$3 key
    key_of "$pos"
    key=$REPLY
    local m=$key:$k:$want
    if [ -n "${memo[$m]:-}" ]; then verdict=${memo[$m]} file=${memo_file[$m]} need=0; return 0; fi
    file= verdict= need=0
    # a kept answer decides, also at a position made deeper after it
    if [ -n "${lo[$key]:-}" ] && [ "${lo[$key]}" -ge "$k" ]; then
        verdict=no file=${lo_file[$key]}
        [ "$want" = disproven ] || verdict=yes
    elif [ -n "${hi[$key]:-}" ] && [ "${hi[$key]}" -le "$k" ]; then
        verdict=no file=${hi_file[$key]}
        [ "$want" = proven ] || verdict=yes
    elif [ -z "${kids[$key]:-}" ]; then  # frontier or the game's end
        verdict=open need=1
        [ -n "${held[$k$'\t'$pos]:-}" ] || ask+=("$k"$'\t'"$pos")
    fi
    if [ -n "$verdict" ]; then [ "$verdict" = yes ] || file=; return 0; fi
    local c ck cw children=() files=() any_open=0 result asked=${#ask[@]} first_open= before least= sum=0
    mapfile -t children <<<"${kids[$key]}"
    if [ "$want" = proven ]; then  # the best estimate for the claim's side first, then the fewest replies
        local i j rank=() r e  # an insertion sort in the shell: a node's children are few, a fork costs more
        for c in "${children[@]}"; do
            key_of "$c"
            e=${estimate[$REPLY]}  # for the child's mover; the claim's side wants it high
            [ "${mover[$REPLY]}" = "${mover[$key]}" ] || e=$(( -e ))
            rank+=($(( -e * 1000 + ${mobility[$REPLY]} )))
        done
        for ((i = 1; i < ${#children[@]}; i++)); do
            c=${children[i]} r=${rank[i]}
            for ((j = i - 1; j >= 0 && rank[j] > r; j--)); do
                children[j + 1]=${children[j]} rank[j + 1]=${rank[j]}
            done
            children[j + 1]=$c rank[j + 1]=$r
        done
    fi
    result=
    for c in "${children[@]}"; do
        key_of "$c"
        child_question "$key" "$REPLY" "$k" "$want"
        ck=$qk cw=$qw
        before=${#ask[@]}
        decide "$c" "$ck" "$cw"
        if [ "$verdict" = open ]; then
            any_open=1 sum=$((sum + need))
            [ -n "$least" ] && [ "$least" -le "$need" ] || least=$need
        fi
        if [ "$want" = proven ]; then  # one child: any known to hold, else the first open one is asked
            [ "$verdict" = yes ] && { result=yes files=("$file") chosen[$m]=$c; break; }
            # a child whose questions are all running adds none: the next open one
            # is asked meanwhile, so that no core waits for one long search
            [ "$verdict" = open ] && [ -z "$first_open" ] && [ "${#ask[@]}" -gt "$before" ] && first_open=${#ask[@]}
        else  # every child: one that fails decides; keep asking the open ones
            [ "$verdict" = no ] && { result=no; break; }
            files+=("$file")
        fi
    done
    if [ -z "$result" ]; then
        if [ -n "$first_open" ]; then result=open; ask=("${ask[@]:0:first_open}")
        elif [ "$any_open" = 1 ]; then result=open
        elif [ "$want" = proven ]; then result=no
        else result=yes; fi
    fi
    file=
    if [ "$result" = yes ]; then
        file=$out/j/$key.$k.$want.proof
        [ -e "$file" ] || "$bin" join-proofs "$game" --position "$pos" --out "$file" "${files[@]}" >/dev/null
    fi
    verdict=$result need=0
    if [ "$result" = open ]; then need=$sum; [ "$want" = disproven ] || need=$least; fi
    if [ "$result" != open ]; then
        memo[$m]=$verdict memo_file[$m]=$file
        ask=("${ask[@]:0:asked}")
    fi
}

# ask_one K<TAB>POSITION [prove options...]: the answer and its proof,
# unless known.  Status 1 when the question is neither answered nor made
# deeper (an error: it is not asked again in this run).
ask_one() {
    local k=${1%%$'\t'*} pos=${1#*$'\t'} key
    shift
    key=$(name "$pos")
    [ -e "$out/p/$key.$k.proof" ] && return 0
    local log
    log=$(frontier_prove "$game" --position "$pos" --question "score:$k" --proof "$out/p/$key.$k.try" "$@" 2>&1) || true
    local value nodes solver secs
    value=$(sed -n 's/^value: //p' <<<"$log")
    nodes=$(sed -n 's/^nodes: \([0-9]*\).*/\1/p' <<<"$log")
    solver=$(sed -n 's/^endgame solver nodes: \([0-9]*\).*/\1/p' <<<"$log")
    secs=$(sed -n 's/^time: \([0-9.]*\).*/\1/p' <<<"$log")
    if { [ "$value" = proven ] || [ "$value" = disproven ]; } && [ -e "$out/p/$key.$k.try" ]; then
        mv "$out/p/$key.$k.try" "$out/p/$key.$k.proof"
        printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$k" "$value" "${nodes:-0}" "${solver:-0}" "${secs:-0}" "$pos" >>"$out/bounds.txt"
    else
        echo "$pos: 'at least $k?' not answered ($(grep -E '^value:' <<<"$log" || tail -1 <<<"$log"))" >&2
        # stopped by its limits (no value, or a value whose proof did not
        # fit them), not by Ctrl-C: its children are asked instead
        [ -n "$value" ] && ! grep -q 'stopped by interrupt' <<<"$log" || return 1
        printf '%s\n' "$pos" >>"$out/deeper.txt"
    fi
}

# prove_bound K WANT: until the root's "at least K" is decided, the tree is
# walked again whenever a search ends, and the open questions it needs
# start while fewer than JOBS run (no core waits for the slowest search).
# Searches still running when the bound is decided go on into the next
# bound (their answers are kept) and are stopped at the end.
prove_bound() {
    local k=$1 want=$2 q pid status shown_need=
    shift 2
    while :; do
        memo=() memo_file=() lo=() lo_file=() hi=() hi_file=()
        frontier_deepen
        load_answers
        ask=()
        decide "$root" "$k" "$want"
        [ "$verdict" = open ] || return 0
        [ "$need" = "$shown_need" ] || echo "at least $k $want?: $need open question$([ "$need" = 1 ] || echo s) at the fewest"
        shown_need=$need
        for q in "${ask[@]}"; do
            [ "${#running[@]}" -lt "$jobs" ] || break
            [ -z "${held[$q]:-}" ] || continue
            ask_one "$q" "$@" &
            running[$!]=$q held[$q]=running
            echo "at least $k $want?: asking 'at least ${q%%$'\t'*}?' at ${q#*$'\t'} (${#running[@]} running)"
        done
        [ "${#running[@]}" -gt 0 ] ||
            { echo "$0: 'at least $k' $want? is open and no question is left to ask (the errors above)" >&2; exit 1; }
        status=0
        wait -n -p pid || status=$?
        q=${running[$pid]}
        unset "running[$pid]"
        if [ "$status" = 0 ]; then unset "held[$q]"; else held[$q]=failed; fi
    done
}

prove_bound "$score" proven "$@"
[ "$verdict" = yes ] || { echo "the score is less than $score ('at least $score' disproven through the frontier)"; exit 1; }
cp "$file" "$out/lower.proof"
prove_bound "$next" disproven "$@"
[ "$verdict" = yes ] || { echo "the score is at least $next ('at least $next' proven through the frontier)"; exit 1; }
cp "$file" "$out/upper.proof"
stop_searches
sort -t $'\t' -k6 -k1n "$out/bounds.txt" -o "$out/bounds.txt"
"$bin" verify-proof "$out/lower.proof"
"$bin" verify-proof "$out/upper.proof"
echo "score: $score"

# The principal line down to the frontier: where the root's mover moves,
# the child the lower bound chose; elsewhere the one the upper bound chose
# (the other side's claim).  Every position on it lies in both trees, so
# the frontier position it reaches has the root's score, both bounds proven
# there; `prove --score` of it gives the rest of the line.  It stops where
# no child was chosen: a frontier position, or one whose kept answers
# decided it.
pos=$root lk=$score lw=proven hk=$next hw=disproven line=
while :; do
    key_of "$pos"
    key=$REPLY
    if [ "$lw" = proven ]; then c=${chosen[$key:$lk:$lw]:-}; else c=${chosen[$key:$hk:$hw]:-}; fi
    [ -n "$c" ] || break
    for m in $(show "$pos" | sed -n 's/^moves ([0-9]*)://p'); do
        [ "$(show "$pos" "$m" | sed -n 's/^position: //p')" = "$c" ] && break
    done
    line+=" $m"
    key_of "$c"
    child_question "$key" "$REPLY" "$lk" "$lw"
    lk=$qk lw=$qw
    child_question "$key" "$REPLY" "$hk" "$hw"
    hk=$qk hw=$qw
    pos=$c
done
echo "pv:$line"
echo "pv ends at: $pos"
