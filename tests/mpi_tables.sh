#!/usr/bin/env bash
# tests/mpi_tables.sh PNSOLVE - tables built by MPI ranks (make check-slow):
# every Jungle table to four pieces and every Ostle 4x4 table to eight,
# shared by 1, 2 and 4 ranks and dealt whole to 2, are the files of one
# process; a build whose mpirun is killed (SIGKILL) resumes to the same
# files.  Skipped, saying so, where mpirun cannot start.
set -u
bin=$1
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mpi=(mpirun --oversubscribe --bind-to none)  # ranks of several threads: not one core each
[ "$(id -u)" = 0 ] && mpi+=(--allow-run-as-root)
if ! command -v mpirun >/dev/null 2>&1 || ! "${mpi[@]}" -np 2 true >/dev/null 2>&1; then
    echo "mpi tables: no working mpirun here: skipped"
    exit 0
fi
same_files() {
    local n=0
    for f in "$1"/*.pntb; do cmp -s "$f" "$2/${f##*/}" || return 1; n=$((n + 1)); done
    [ $n -gt 0 ]
}
result() { if [ "$1" = 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $2"; tail -3 "$tmp/out"; fi; }

for game in "jungle --pieces 4" "ostle:4x4 --pieces 8"; do
    name=${game%% *}; name=${name/:/-}
    read -r -a g <<<"$game"
    "$bin" tb build "${g[@]}" --dir "$tmp/$name" >/dev/null 2>&1 || { fail=$((fail + 1)); echo "FAIL: $game alone"; }
    for np in 1 2 4 2d; do
        share=(--whole-below 0); [ "$np" = 2d ] && share=()
        start=$(date +%s.%N)
        "${mpi[@]}" -np "${np%d}" "$bin" tb build "${g[@]}" --dir "$tmp/$name$np" "${share[@]}" >"$tmp/out" 2>&1 &&
            same_files "$tmp/$name" "$tmp/$name$np"
        result $? "$game on $np MPI ranks"
        awk -v g="$game" -v n="${np%d}" -v s="${share:+ (shared)}" -v t0="$start" -v t1="$(date +%s.%N)" 'BEGIN { printf "  %s, %s ranks%s: %.1f s\n", g, n, s, t1 - t0 }'
    done
done

# a build killed whole (mpirun and its ranks) after its first tables, built again
"${mpi[@]}" -np 2 "$bin" tb build ostle:4x4 --pieces 8 --dir "$tmp/killed" --whole-below 0 >/dev/null 2>&1 &
pid=$!
for _ in $(seq 300); do [ -n "$(ls "$tmp/killed"/*.pntb 2>/dev/null)" ] && break; sleep 0.1; done
kill -9 $pid $(pgrep -f "tb build ostle:4x4 --pieces 8 --dir $tmp/killed") 2>/dev/null; wait $pid 2>/dev/null
for _ in $(seq 50); do pgrep -f "dir $tmp/killed" >/dev/null || break; sleep 0.2; done
kept=$(ls "$tmp/killed"/*.pntb | wc -l)
"${mpi[@]}" -np 2 "$bin" tb build ostle:4x4 --pieces 8 --dir "$tmp/killed" --whole-below 0 >"$tmp/out" 2>&1 &&
    same_files "$tmp/ostle-4x4" "$tmp/killed" && [ "$kept" -ge 1 ] && ! ls "$tmp/killed" | grep -q "\.tmp\."
result $? "a killed build on MPI ranks resumed (kept $kept tables)"

# a shared build SIGKILLed inside a ply of a five-piece table after a save
# across the ranks, built again on as many ranks: it goes on from the save
# (its log names the ply), to the files of a threaded build, for well under
# a whole build's CPU
t0=$(date +%s.%N)
/usr/bin/time -f "%U %S" -o "$tmp/cpu-whole" "$bin" tb build jungle --pieces 5 --only DdTEe --dir "$tmp/j5" >/dev/null 2>&1
j5=(-np 2 "$bin" tb build jungle --pieces 5 --only DdTEe --dir "$tmp/j5r" --whole-below 0 --threads 1 --save-every 2)
"${mpi[@]}" "${j5[@]}" >"$tmp/j5log" 2>&1 &
pid=$!
for _ in $(seq 1200); do grep -Eq "^DdTEe: saved after ply (1[1-9]|[2-9][0-9]) " "$tmp/j5log" && break; sleep 0.1; done
sleep 0.3
kill -9 $pid $(pgrep -f "only DdTEe --dir $tmp/j5r") 2>/dev/null; wait $pid 2>/dev/null
for _ in $(seq 50); do pgrep -f "dir $tmp/j5r" >/dev/null || break; sleep 0.2; done
saved=$(grep -Eo "^DdTEe: saved after ply [0-9]+" "$tmp/j5log" | tail -1 | grep -Eo "[0-9]+$")
/usr/bin/time -f "%U %S" -o "$tmp/cpu-rerun" "${mpi[@]}" "${j5[@]}" >"$tmp/out" 2>&1 &&
    grep -q "^DdTEe: going on from its build saved after ply $saved$" "$tmp/out" && same_files "$tmp/j5" "$tmp/j5r" &&
    [ ! -e "$tmp/j5r/jungle-DdTEe.pntb.save.manifest" ] &&
    awk '{ w += $1 + $2 } END { exit 0 }' "$tmp/cpu-whole" &&
    awk -v whole="$(awk '{ print $1 + $2 }' "$tmp/cpu-whole")" '{ r = $1 + $2; printf "  five-piece table killed after its save of ply %s: the rerun %.1f s CPU, a whole threaded build %.1f s (%.0f%%)\n", "'"$saved"'", r, whole, 100 * r / whole; exit !(r < 0.75 * whole) }' "$tmp/cpu-rerun"
result $? "a shared build killed inside a ply resumed from its save across the ranks (saved after ply ${saved:-none})"
awk -v t0="$t0" -v t1="$(date +%s.%N)" 'BEGIN { printf "  (those three runs: %.1f s)\n", t1 - t0 }'

# under mpirun, progress in a log by default: timestamped lines from rank 0 alone, tagged with it
"${mpi[@]}" -np 2 "$bin" tb build jungle --pieces 3 --dir "$tmp/log" --whole-below 0 --progress 0.001 >/dev/null 2>"$tmp/out"
grep -Eq '^20[0-9-]+T[0-9:]+Z rank 0/2 tb build: \[[0-9]+/[0-9]+\] ' "$tmp/out" && ! grep -q "rank 1/2" "$tmp/out"
result $? "progress under mpirun: rank 0's lines, tagged"

echo "mpi tables: $pass passed, $fail failed"
[ $fail = 0 ]
