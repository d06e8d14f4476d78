# bench/frontier-lib.sh - sourced by frontier-score.sh and frontier-bound.sh:
# the tree above a frontier.  Needs bin, game and out set when called.

# frontier_check DEPTH JOBS: both whole numbers, else one line and exit 2.
frontier_check() {
    case $1 in '' | *[!0-9]*) echo "$0: DEPTH must be a number of moves, not '$1'" >&2; exit 2 ;; esac
    case $2 in '' | *[!0-9]*) echo "$0: JOBS must be a number, not '$2'" >&2; exit 2 ;; esac
}

name() { printf '%s' "$1" | md5sum | cut -c1-16; }
# key_of POSITION: its name in REPLY, remembered (no process per call: a
# round's walk over a 6x7 tree six moves deep names thousands of positions).
declare -A keyof
key_of() {
    REPLY=${keyof[$1]:-}
    [ -n "$REPLY" ] || { REPLY=$(name "$1"); keyof[$1]=$REPLY; }
}
# frontier_prove ARGS...: `PNSOLVE prove ARGS...`, started through
# $PNSOLVE_RUN (split-proof.sh takes it too) when it is set: a command prefix that runs its arguments,
# each kept whole, on another machine (`srun -N1 -n1` on Slurm, or a
# wrapper of your own around ssh).  OUT and the binary must then be at
# the same paths there (a shared file system); name --threads, since this
# machine's cores say nothing of the other's.
frontier_prove() { ${PNSOLVE_RUN:-} "$bin" prove "$@"; }
show() { "$bin" show "$game" --position "$1" "${@:2}"; }

# expand POSITION LEFT: the tree LEFT moves deep below POSITION.  For each
# position, kids[key]: its kept children (one per symmetry class among
# siblings, each transposition expanded once), one per line; mover[key]:
# who is to move; mobility[key]: how many moves it has; estimate[key]: the
# solver's rough final score for the side to move (0 where the game has none).  Frontier positions
# (and finished games) go to $out/todo, in the order first met.
declare -A seen kids mover mobility estimate
frontier_expand() {
    local pos=$1 left=$2 key
    key_of "$pos"
    key=$REPLY
    [ -z "${seen[$key]:-}" ] || return 0
    seen[$key]=1
    local here moves
    here=$(show "$pos")
    moves=$(sed -n 's/^moves ([0-9]*)://p' <<<"$here")
    mover[$key]=$(sed -n 's/^to move: //p' <<<"$here")
    mobility[$key]=$(wc -w <<<"$moves")
    estimate[$key]=$(sed -n 's/^estimate: //p' <<<"$here")
    estimate[$key]=${estimate[$key]:-0}
    if [ "$left" = 0 ] || [ -z "${moves// /}" ]; then
        printf '%s\n' "$pos" >>"$out/todo"
        return 0
    fi
    local m c class classes=" " list=()
    for m in $moves; do
        c=$(show "$pos" "$m")
        class=$(sed -n 's/^symmetry class: //p' <<<"$c")
        if [ -n "$class" ]; then
            case $classes in *" $class "*) continue ;; esac
            classes+="$class "
        fi
        c=$(sed -n 's/^position: //p' <<<"$c")
        list+=("$c")
        frontier_expand "$c" $((left - 1))
    done
    kids[$key]=$(printf '%s\n' "${list[@]}")
}

# frontier_tree ROOT DEPTH: frontier_expand's tables and $out/todo, kept in
# $out/tree.DEPTH.KEY (one line a position: its name, notation, mover,
# mobility, estimate and children) so that a later run (another SCORE, another session)
# reads them instead of expanding again (6x7 at 6 moves: an hour of `show`).
frontier_tree() {
    local cache key pos mv mob est list
    cache=$out/tree.$2.$(name "$1")
    if [ -s "$cache" ] && [ -s "$cache.todo" ]; then
        while IFS=$'\t' read -r key pos mv mob est list; do
            keyof[$pos]=$key mover[$key]=$mv mobility[$key]=$mob estimate[$key]=$est
            [ -z "$list" ] || kids[$key]=${list//|/$'\n'}
        done <"$cache"
        cp "$cache.todo" "$out/todo"
        return 0
    fi
    : >"$out/todo"
    frontier_expand "$1" "$2"
    for pos in "${!keyof[@]}"; do
        key=${keyof[$pos]}
        [ -n "${mover[$key]:-}" ] || continue
        printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$key" "$pos" "${mover[$key]}" "${mobility[$key]}" "${estimate[$key]}" \
            "${kids[$key]:+${kids[$key]//$'\n'/|}}"
    done >"$cache.part"
    cp "$out/todo" "$cache.todo"
    mv "$cache.part" "$cache"
}
