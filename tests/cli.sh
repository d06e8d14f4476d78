#!/usr/bin/env bash
# tests/cli.sh PNSOLVE - the command line: outputs, exit codes, one-line errors.
set -u
bin=$1
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check() {  # check NAME EXPECTED_STATUS [grep pattern for stdout] -- ARGS...
    local name=$1 want=$2 pattern=$3; shift 4
    "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
    local got=$?
    local ok=1
    [ "$got" = "$want" ] || ok=0
    if [ "$want" = 2 ]; then   # usage errors: exactly one line on stderr, naming the problem
        [ "$(wc -l <"$tmp/err")" = 1 ] || ok=0
        grep -q "^pnsolve: " "$tmp/err" || ok=0
    fi
    if [ -n "$pattern" ]; then grep -qE -- "$pattern" "$tmp/out" "$tmp/err" || ok=0; fi
    if [ $ok = 1 ]; then pass=$((pass + 1)); else
        fail=$((fail + 1)); echo "FAIL: $name (status $got, want $want)"; head -3 "$tmp/out" "$tmp/err"; fi
}

# moves_agree NAME GAME DIR POSITION: tb probe --moves against each child
# probed by itself: a move into a child lost in d plies a win in d + 1,
# won in d a loss in d + 1, a draw a draw, a score the child's negated
# (every move here passes the turn); the moves best first.
moves_agree() {
    local name=$1 game=$2 dir=$3 pos=$4 bad=0 prev="" n=0
    "$bin" tb probe "$game" "$pos" --dir "$dir" --moves >"$tmp/mv" 2>&1 || bad=1
    while read -r move word rest; do
        local num child want got rank
        case $word in
        win|loss|score) num=${rest%% *}; child=${rest#* } ;;
        *) num=""; child=$rest ;;
        esac
        got=$("$bin" tb probe "$game" "$child" --dir "$dir" --json)
        case $got in
        *'"score": '*) want="score $((-$(sed 's/.*"score": \(-*[0-9]*\).*/\1/' <<<"$got")))" ;;
        *'"result": "loss", "distance": '*) want="win $(($(sed 's/.*"distance": \([0-9]*\).*/\1/' <<<"$got") + 1))" ;;
        *'"result": "win", "distance": '*) want="loss $(($(sed 's/.*"distance": \([0-9]*\).*/\1/' <<<"$got") + 1))" ;;
        *'"result": "draw"'*) want="draw" ;;
        *) want="?" ;;
        esac
        [ "$word${num:+ $num}" = "$want" ] || { bad=1; echo "  $move: $word $num, the child says $want"; }
        case $word in  # the rank of the move's value: lower is better
        win) rank=$num ;; draw) rank=100000 ;; loss) rank=$((200000 - num)) ;; score) rank=$((1000 - num)) ;; *) rank=300000 ;;
        esac
        [ -z "$prev" ] || [ "$prev" -le "$rank" ] || { bad=1; echo "  $move out of order"; }
        prev=$rank n=$((n + 1))
    done < <(tail -n +2 "$tmp/mv")
    [ "$n" -gt 0 ] || bad=1
    if [ $bad = 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $name"; head -5 "$tmp/mv"; fi
}

check "help" 0 "^usage: pnsolve" -- --help
check "perft help" 0 "usage: pnsolve perft" -- perft --help
check "show help" 0 "usage: pnsolve show" -- show --help
check "show lists the scores a game can end with" 0 "^possible scores: -16 -14 .* 14 16$" -- show othello:4x4
check "show, odd board: odd scores and the draw" 0 "^possible scores: -25 -23 .* -1 0 1 3 .* 25$" -- show othello:5x5
check "no command" 2 "" -- 
check "unknown command" 2 "unknown command 'frobnicate'" -- frobnicate
check "perft jungle" 0 "^perft 3 2352$" -- perft jungle 3
check "perft ostle" 0 "^perft 4 189102$" -- perft ostle 4
check "perft othello" 0 "^perft 6 8200$" -- perft othello:8x8 6
check "perft speed line" 0 "^leaves per second: [0-9]+" -- perft othello:4x4 3
check "perft classic" 0 "^perft 1 " -- perft jungle 1 --variant classic
check "perft position" 0 "^perft 1 1$" -- perft othello:4x4 1 --position "4x4:-OXX/XXXX/XXXX/XXXX O"
check "perft bad depth" 2 "bad depth" -- perft jungle zero
check "perft depth 0" 2 "bad depth" -- perft jungle 0
check "perft missing depth" 2 "expected GAME DEPTH" -- perft jungle
check "perft bad game" 2 "unknown game" -- perft chess 3
check "perft bad size" 2 "bad Othello board" -- perft othello:9x9 3
check "perft bad variant" 2 "unknown jungle variant" -- perft jungle 3 --variant modern
check "unknown option" 2 "unknown option '--colour'" -- perft jungle 3 --colour red
check "missing option value" 2 "needs a value" -- show jungle --position
check "show start" 0 "^moves \(14\):" -- show jungle
check "show ostle" 0 "^position: WWWWW/5/2H2/5/BBBBB b -$" -- show ostle
check "show after moves" 0 "^position: WWWW1/2H1W/5/3B1/BBB1B w c4D$" -- show ostle d1U e5D c3U
check "show bad move" 2 "move 2 'e5X'" -- show ostle d1U e5X
check "show ffo" 0 "^to move: Black$" -- show othello:8x8 --position "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X"
check "show obf line" 0 "^to move: Black$" -- show othello:8x8 --position "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38; C7:+36;"
check "show 64 lower-case" 0 "^to move: White$" -- show othello:8x8 --position "o..oooox.ooooooxooxxoooxooxoooxxooooooxx...oooox....o..x........o"
check "show 64 short" 2 "bad square ' ' at h8" -- show othello:8x8 --position "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X------- X"
check "show 64 no side" 2 "followed by the side to move" -- show othello:8x8 --position "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- Y"
# The solver's estimate (a guide for ordering): the same for a position and
# its colour-swapped image, positive for the side far ahead; none for a game
# without an evaluation.
est() { "$bin" show "$@" | sed -n 's/^estimate: //p'; }
e1=$(est othello:4x4 --position "4x4:XXXX/XXXO/XXO-/X--- X") e2=$(est othello:4x4 --position "4x4:OOOO/OOOX/OOX-/O--- O")
[ -n "$e1" ] && [ "$e1" = "$e2" ] && [ "$e1" -gt 0 ] && [ -z "$(est ostle)" ] &&
    pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: show's estimate ('$e1', '$e2')"; }
check "ffo 40 endgame" 0 "^score: 38$" -- prove othello:8x8 --score --exact-empties 24 --position "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X"
# a solve of hours (38 empties, the root the solver's) honours --time and Ctrl-C, on one thread and on two
deep="--------OOOOO---OXXXO---OXOXXX--OXXXX---OXXOX----OOO------------ X"
for t in 1 2; do
    start=$(date +%s)
    check "solver root stopped by time, $t threads" 0 "stopped by time" -- prove othello:8x8 --score --exact-empties 40 --threads $t --time 1 --position "$deep"
    [ $(($(date +%s) - start)) -le 10 ] || { fail=$((fail + 1)); echo "FAIL: solver root --time 1 took $(($(date +%s) - start)) s"; }
done
# a stopped score search says what its answers showed: bounds around the score (FFO #40: 38; 5x6: 10)
bounds_hold() {  # bounds_hold NAME SCORE -- ARGS...
    local name=$1 want=$2; shift 3
    local line; line=$("$bin" "$@" 2>/dev/null | grep "^score so far: ")
    local lo=${line#*at least }; lo=${lo%%,*}; local hi=${line##*at most }
    if [ -n "$line" ] && [ "$lo" -le "$want" ] && [ "$want" -le "$hi" ] && [ "$lo" -lt "$hi" ]; then pass=$((pass + 1)); else
        fail=$((fail + 1)); echo "FAIL: $name: '$line'"; fi
}
bounds_hold "solver root stopped: its windows' bounds" 38 -- prove othello:8x8 --score --exact-empties 24 --time 0.3 --position "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X"
bounds_hold "df-pn stopped: its questions' bounds" 10 -- prove othello:5x6 --score --nodes 20000
bounds_hold "df-pn stopped later: narrower bounds" 10 -- prove othello:5x6 --score --nodes 70000
check "stopped score bounds in json" 0 '"score_at_least":-?[0-9]+,"score_at_most":-?[0-9]+' -- prove othello:5x6 --score --nodes 70000 --json
"$bin" prove othello:8x8 --score --exact-empties 40 --position "$deep" >"$tmp/int.out" 2>&1 &
sleep 1; kill -INT $!; wait $!
if [ $? = 130 ] && grep -q "stopped by interrupt" "$tmp/int.out"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: solver root Ctrl-C"; tail -3 "$tmp/int.out"; fi
# --score's line is a principal one: both sides keep the score at every
# move, on one thread and on two (whose table once lost the root's proof,
# and with it the line). 5x6 (10): the line ends the game at exactly 10, not
# above it; 4x4 (-10), also without the endgame solver: every position on
# the line is scored again on its own.
for t in 1 2; do
    line=$("$bin" prove othello:5x6 --score --threads $t | sed -n 's/^pv: //p')
    [ -n "$line" ] && "$bin" show othello:5x6 $line | grep -q "^game over: Black wins (score 10)$" &&
        pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: 5x6 principal line, $t threads: '$line'"; }
    for e in 14 0; do
        line=$("$bin" prove othello:4x4 --score --threads $t --exact-empties $e | sed -n 's/^pv: //p') ok=1 pre=""
        [ -n "$line" ] || ok=0
        for m in $line ""; do
            pos=$("$bin" show othello:4x4 $pre | sed -n 's/^position: //p')
            if [ -n "$m" ]; then
                sc=$("$bin" prove othello:4x4 --position "$pos" --score | sed -n 's/^score: //p')
                [ "$sc" = "$(( $(echo "$pre" | wc -w) % 2 ? 10 : -10 ))" ] || ok=0
            fi
            pre="$pre $m"
        done
        "$bin" show othello:4x4 $line | grep -q "^game over: White wins (score -10)$" || ok=0
        [ $ok = 1 ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: 4x4 principal line, $t threads, exact $e: '$line'"; }
    done
done
# the committed 6x7 principal line (results/othello-6x7-line.txt) is legal
# and ends the game drawn, and its last rows are scored 0 again here
line=$(sed -n 's/^line: //p' "$(dirname "$0")/../results/othello-6x7-line.txt")
ok=1
"$bin" show othello:6x7 $line | grep -q "^game over: draw$" || ok=0
while read -r n pos side sc t; do
    [ "$("$bin" prove othello:6x7 --position "$pos $side" --score | sed -n 's/^score: //p')" = 0 ] && [ "$sc" = 0 ] || ok=0
done < <(grep -E '^(2[0-9]|3[0-9]) ' "$(dirname "$0")/../results/othello-6x7-line.txt")
[ $ok = 1 ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: the 6x7 principal line"; }
check "show finished" 0 "game over: Black wins \(score 16\)" -- show othello:4x4 --position "4x4:XXXX/XXXX/XXXX/XXXX O"
check "show bad jfen" 2 "bad position: JFEN rank 7" -- show jungle --position "1r3e/2t1d2/7/7/7/2D1T2/1E3R1 w"
check "show bad ofen" 2 "bad position: .*hole" -- show ostle --position "WWWWW/5/5/5/BBBBB b -"
check "show garbage" 2 "bad position" -- show othello:6x6 --position $'\x01\xff%s%n'

printf 'root A\nA: or B C\nB: and D\nC: draw\nD: win\n' >"$tmp/g.txt"
check "graph show" 0 "^moves \(2\): B C$" -- show "graph:$tmp/g.txt"
check "graph perft" 0 "^perft 2 1$" -- perft "graph:$tmp/g.txt" 2
printf 'root A\nA: or B X\nB: win\n' >"$tmp/bad.txt"
check "graph unknown child" 2 "bad.txt:2: unknown child 'X'" -- show "graph:$tmp/bad.txt"
check "graph missing file" 2 "No such file" -- show "graph:$tmp/none.txt"

# Endgame tables: a small build, then every command and every bad input.
tb="$tmp/tables"
check "tb help" 0 "usage: pnsolve tb build" -- tb --help
check "tb build needs pieces" 2 "--pieces N is required" -- tb build jungle --dir "$tb"
check "tb build bad pieces" 2 "bad value '99' for option '--pieces'" -- tb build jungle --pieces 99 --dir "$tb"
check "tb unknown action" 2 "unknown action 'frob'" -- tb frob jungle
check "tb no tables for tic-tac-toe" 2 "has no endgame tables" -- tb build tictactoe --pieces 3
check "tb build" 0 "all tables with at most 2 pieces" -- tb build jungle --pieces 2 --dir "$tb" --threads 2
# progress where stderr is no terminal: nothing by default, a timestamped line with --progress, JSON with --progress-json
"$bin" prove jungle --time 1.5 --memory 64 >/dev/null 2>"$tmp/perr"
[ ! -s "$tmp/perr" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: progress in a pipe by default"; head -2 "$tmp/perr"; }
"$bin" prove jungle --time 1.5 --memory 64 --progress 0.5 >/dev/null 2>"$tmp/perr"
[ "$(grep -cE '^20[0-9-]+T[0-9:]+Z prove: +[0-9]+ nodes ' "$tmp/perr")" -ge 2 ] && pass=$((pass + 1)) ||
    { fail=$((fail + 1)); echo "FAIL: prove --progress"; head -2 "$tmp/perr"; }
"$bin" prove jungle --time 1.5 --memory 64 --progress 0.5 --progress-json >/dev/null 2>"$tmp/perr"
[ "$(grep -cE '^\{"time": "20[0-9-]+T[0-9:]+Z", "command": "prove", "nodes": [0-9]+, ' "$tmp/perr")" -ge 2 ] &&
    pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: prove --progress-json"; head -2 "$tmp/perr"; }
"$bin" tb build jungle --pieces 3 --dir "$tmp/tbp" --progress 0.001 >/dev/null 2>"$tmp/perr"
grep -qE '^20[0-9-]+T[0-9:]+Z tb build: \[[0-9]+/[0-9]+\] ' "$tmp/perr" && pass=$((pass + 1)) ||
    { fail=$((fail + 1)); echo "FAIL: tb build --progress"; head -2 "$tmp/perr"; }
"$bin" bdd othello:4x4 --algo 3 --progress 0.5 --progress-json >/dev/null 2>"$tmp/perr"
[ "$(grep -cE '^\{"time": "20[0-9-]+T[0-9:]+Z", "command": "bdd", "what": "algorithm 3", "iterations": [0-9]+, ' "$tmp/perr")" -ge 2 ] &&
    pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: bdd --progress-json"; head -2 "$tmp/perr"; }
# a campaign's line comes from a thread of its own while the workers search: Ctrl-C after 2 s
timeout -s INT 2 "$bin" campaign run "$tmp/cprog" othello:6x6 --question score --depth 2 --progress 0.4 >/dev/null 2>"$tmp/perr"
[ "$(grep -cE '^20[0-9-]+T[0-9:]+Z campaign run: answers: [0-9]+ \([0-9]+ this run, .* [0-9]+ in flight' "$tmp/perr")" -ge 3 ] &&
    pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: campaign run --progress"; head -2 "$tmp/perr"; }
# smaller tables probed compressed through a small cache (--tb-cache): the same table as with them decoded whole
"$bin" tb build jungle --pieces 3 --dir "$tmp/tbz" --compress all >/dev/null 2>&1 && cp -r "$tmp/tbz" "$tmp/tbz2" &&
    "$bin" tb build jungle --pieces 4 --only RrDd --dir "$tmp/tbz" >/dev/null 2>&1 &&
    "$bin" tb build jungle --pieces 4 --only RrDd --dir "$tmp/tbz2" --tb-cache 0.05 2>"$tmp/perr" >/dev/null &&
    grep -Eq "^built RrDd: .*; smaller tables' blocks: [1-9][0-9]* probes, [1-9][0-9]* decoded \([0-9.]+% hits\)$" "$tmp/perr" &&
    cmp -s "$tmp/tbz/jungle-RrDd.pntb" "$tmp/tbz2/jungle-RrDd.pntb" &&
    pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: tb build --tb-cache"; tail -2 "$tmp/perr"; }
check "tb probe --progress refused" 2 "--progress is an option of tb build, verify and reach" -- tb probe jungle "7/7/7/7/7/3r3/R6 w" --dir "$tb" --progress 1
check "prove --progress 0" 2 "bad value '0' for option '--progress'" -- prove jungle --progress 0
check "tb build again skips" 0 "all tables with at most 2 pieces" -- tb build jungle --pieces 2 --dir "$tb"
# what a killed build or compression left is removed by the next one (it holds the lock); nothing else is
printf x >"$tb/jungle-Rr.pntb.save.tmp.4242"; printf x >"$tb/jungle-RrD.pntb.tmp.77"; printf x >"$tb/jungle-Rr.pntb.packed"
printf x >"$tb/jungle-Rr.pntb.verify.tmp.5"; printf x >"$tb/jungle-Rr.pntb.tmp.notapid"; mkdir "$tb/jungle-Rd.pntb.tmp.9"
check "tb build removes a killed build's leftovers" 0 "removed .*/jungle-Rr.pntb.save.tmp.4242 \(0.0 MB\), left by a build" -- tb build jungle --pieces 2 --dir "$tb"
if [ ! -e "$tb/jungle-Rr.pntb.save.tmp.4242" ] && [ ! -e "$tb/jungle-RrD.pntb.tmp.77" ] && [ ! -e "$tb/jungle-Rr.pntb.packed" ] &&
    [ -f "$tb/jungle-Rr.pntb.verify.tmp.5" ] && [ -f "$tb/jungle-Rr.pntb.tmp.notapid" ] && [ -d "$tb/jungle-Rd.pntb.tmp.9" ]; then
    pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: tb build removed the wrong files"; ls "$tb"; fi
rm -rf "$tb/jungle-Rr.pntb.verify.tmp.5" "$tb/jungle-Rr.pntb.tmp.notapid" "$tb/jungle-Rd.pntb.tmp.9"
check "tb probe den step wins in 1" 0 "^win 1$" -- tb probe jungle "7/3R3/7/7/7/7/6r w" --dir "$tb"
check "tb probe cannot stop the rat" 0 "^loss 2$" -- tb probe jungle "7/7/7/7/7/3r3/R6 w" --dir "$tb"
check "tb probe colour-swapped" 0 "^win 1$" -- tb probe jungle "7/7/7/7/7/3r3/R6 b" --dir "$tb"
check "tb probe finished game" 0 "^loss 0$" -- tb probe jungle "3R3/7/7/7/7/7/6r b" --dir "$tb"
check "tb build bad compress" 2 "bad value 'some' for option '--compress'" -- tb build jungle --pieces 2 --compress some --dir "$tb"
check "tb build bad save-every" 2 "bad value 'x' for option '--save-every'" -- tb build jungle --pieces 2 --save-every x --dir "$tb"
check "tb build only unknown" 1 "no table 'RrX'" -- tb build jungle --pieces 2 --only RrX --dir "$tb"
check "tb build only" 0 "table RrD and the tables it needs" -- tb build jungle --pieces 3 --only RrD --dir "$tmp/only" --compress none
check "tb compress: RrD and the two it needs" 0 "^3 tables compressed in" -- tb compress jungle --dir "$tmp/only"
check "tb compress again: nothing left" 0 "^0 tables compressed in" -- tb compress jungle --dir "$tmp/only"
check "tb probe compressed" 0 "^win 1$" -- tb probe jungle "7/3R3/7/7/7/7/6r w" --dir "$tmp/only"
check "tb verify compressed" 0 "all tables correct" -- tb verify jungle --dir "$tmp/only"
check "tb verify one table" 0 "RrD: 107640 positions, checksum ok" -- tb verify jungle --only RrD --dir "$tmp/only"
check "tb verify unknown material" 2 "no material 'Xy'" -- tb verify jungle --only Xy --dir "$tmp/only"
# a damaged table is named by verify, moved aside by the next build and built again; a foreign file is refused
cp -r "$tmp/only" "$tmp/dmg"
printf 'XXXXXXXX' | dd of="$tmp/dmg/jungle-RrD.pntb" bs=1 seek=1000 conv=notrunc 2>/dev/null
check "tb verify names a damaged table" 1 "^RrD: BAD: .*jungle-RrD.pntb: corrupt entries" -- tb verify jungle --dir "$tmp/dmg"
check "tb build moves a damaged table aside" 0 "jungle-RrD.pntb: corrupt entries .*; moved to .*jungle-RrD.pntb.damaged, to be built again" -- tb build jungle --pieces 3 --only RrD --dir "$tmp/dmg" --compress all
check "tb verify: the damaged table built again" 0 "all tables correct" -- tb verify jungle --dir "$tmp/dmg"
head -c 300 /dev/zero >"$tmp/dmg/jungle-Rr.pntb"
check "tb build refuses a file that is not a table" 1 "jungle-Rr.pntb: not a pnsolve table \(remove it to build it again\)" -- tb build jungle --pieces 3 --only RrD --dir "$tmp/dmg"
[ -f "$tmp/dmg/jungle-RrD.pntb.damaged" ] && [ "$(wc -c <"$tmp/dmg/jungle-Rr.pntb")" = 300 ] && pass=$((pass + 1)) ||
    { fail=$((fail + 1)); echo "FAIL: the damaged table was not kept aside, or the foreign file was touched"; }
mkfifo "$tmp/only/jungle-RrD.pntb.verify"
check "tb verify, a FIFO where its save would be" 0 "RrD: .*jungle-RrD.pntb.verify is not a regular file: its progress is not saved" -- tb verify jungle --only RrD --dir "$tmp/only"
[ -p "$tmp/only/jungle-RrD.pntb.verify" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: tb verify replaced a FIFO"; }
rm -f "$tmp/only/jungle-RrD.pntb.verify"

# Ostle tables (states: rule 8's forbidden move is part of the entry), 3x3.
ot="$tmp/ostle-tables"
check "tb build ostle 3x3" 0 "all tables with at most 6 pieces" -- tb build ostle:3x3 --pieces 6 --dir "$ot"
# positions/ostle/states.txt: 3x3 values probed; every win re-proved by the
# depth-bounded search, every loss by df-pn, neither with tables.
while IFS=$'\t' read -r -u 3 game state value note; do
    case "$game" in '#'* | '') continue ;; esac
    [ "$game" = ostle:3x3 ] && check "tb probe $state ($note)" 0 "^$value$" -- tb probe "$game" "$state" --dir "$ot"
    case "$value" in
    win*) check "re-proved: $game $state" 0 "^sound: yes$" -- solve-puzzle "$game" --position "$state" --mate-in "${value#win }" --no-tb ;;
    loss*) check "re-proved: $game $state" 0 "^value: loss$" -- prove "$game" --position "$state" --no-tb ;;
    esac
done 3<"$(dirname "$0")/../positions/ostle/states.txt"
# positions/ostle/longest-win.txt (bench/ostle-longest.sh): a table's longest
# wins and the tables' line from the first; each row of the line is the row before after its
# move, and the end of the line (short wins and losses) is re-proved by search
# without tables.
prev="" prev_move=""
while IFS=$'\t' read -r -u 3 game state value move note; do
    case "$game" in '#'* | '') continue ;; esac
    case "$note" in "line ply"*) ;; *) continue ;; esac
    [ -n "$prev" ] && check "longest line: $note follows" 0 "^position: $state\$" -- show "$game" --position "$prev" "$prev_move"
    prev=$state prev_move=$move
    k=${value#* }
    case "$value" in
    win*)  # the exact distance, whatever the number of keys
        if [ "$k" -le 7 ]; then
            if "$bin" solve-puzzle "$game" --position "$state" --mate-in "$k" --no-tb 2>&1 |
                grep -q "^claim: proven (and no win within $((k - 2)))$"; then pass=$((pass + 1)); else
                fail=$((fail + 1)); echo "FAIL: longest line re-proved: $state (win $k)"; fi
        fi ;;
    loss*) [ "$k" -le 6 ] && [ "$k" -gt 0 ] && check "longest line re-proved: $state" 0 "^value: loss$" -- prove "$game" --position "$state" --no-tb ;;
    esac
done 3<"$(dirname "$0")/../positions/ostle/longest-win.txt"
# a root the tables decide: no search, and the line is the tables' own
# (WWW/1H1/B1B w -: win 5 by the tables above, so five moves to the end)
check "prove from the tables" 0 "^nodes: 0 " -- prove ostle:3x3 --position "WWW/1H1/B1B w -" --tb-dir "$ot"
"$bin" tb build ostle:3x3 --pieces 6 --dir "$tmp/ot-z" --compress all >/dev/null 2>&1
check "prove from compressed tables decoded whole" 0 "^pv: [a-c][1-3][UDLR]( [a-c][1-3][UDLR]){4}$" -- prove ostle:3x3 --position "WWW/1H1/B1B w -" --tb-dir "$tmp/ot-z" --tb-decode
check "prove from compressed tables, one block cached" 0 "^pv: [a-c][1-3][UDLR]( [a-c][1-3][UDLR]){4}$" -- prove ostle:3x3 --position "WWW/1H1/B1B w -" --tb-dir "$tmp/ot-z" --tb-cache 0.03
check "tb cache zero" 2 "bad value '0' for option '--tb-cache'" -- prove ostle:3x3 --tb-cache 0
check "table line to the end" 0 "^pv: [a-c][1-3][UDLR]( [a-c][1-3][UDLR]){4}$" -- prove ostle:3x3 --position "WWW/1H1/B1B w -" --tb-dir "$ot"
check "tb verify ostle" 0 "all tables correct" -- tb verify ostle:3x3 --dir "$ot"
check "tb stats ostle" 0 "^3\+3 " -- tb stats ostle:3x3 --dir "$ot"
check "tb probe ostle json" 0 '"result": "draw"' -- tb probe ostle:3x3 "WW1/2H/1BB w c2L" --dir "$ot" --json
for p in "WW1/2H/1BB w c2L" "W1W/1H1/B1B b -"; do
    moves_agree "tb probe --moves ostle:3x3 $p" ostle:3x3 "$ot" "$p"
done
check "tb reach ostle" 0 "^farthest, 13 plies from the start: " -- tb reach ostle:3x3 --dir "$ot"
# every unreached state listed, and none of them a move away from a reached one
"$bin" tb reach ostle:3x3 --dir "$ot" --unreached "$tmp/un33" >"$tmp/out" 2>/dev/null &&
    [ "$(wc -l <"$tmp/un33")" = "$(sed -n 's/^total .* reached, \([0-9]*\) not reached.*/\1/p' "$tmp/out")" ] &&
    [ -s "$tmp/un33" ] && ! grep -q "not reached (twins aside), [1-9]" "$tmp/out" &&
    "$bin" show ostle:3x3 --position "$(head -1 "$tmp/un33")" >/dev/null &&
    pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: tb reach --unreached"; tail -3 "$tmp/out"; }
check "tb reach from a position" 0 '"levels": ' -- tb reach ostle:3x3 --from "WW1/2H/1BB w c2L" --dir "$ot" --json
check "tb reach bad position" 2 "bad position" -- tb reach ostle:3x3 --from "WW1/2H/1BB x" --dir "$ot"
check "tb reach finished game" 1 "not a state of any table" -- tb reach ostle:3x3 --from "W2/2H/1BB w -" --dir "$ot"
printf 'PNSREACHgarbage' >"$tmp/reach.ckpt"
check "tb reach foreign checkpoint" 1 "not a pnsolve reachability checkpoint" -- tb reach ostle:3x3 --checkpoint "$tmp/reach.ckpt" --dir "$ot"
"$bin" puzzles ostle:3x3 --mate-in 5 --tb-dir "$ot" --count 2 --json >"$tmp/opz" 2>/dev/null
opos=$(sed -n '1s/^{"position":"\([^"]*\)".*/\1/p' "$tmp/opz")
check "ostle puzzle from tables, re-proved without" 0 "^sound: yes$" -- solve-puzzle ostle:3x3 --position "$opos" --mate-in 5 --no-tb
# Tables of Ostle 4x4 to seven pieces, for the proofs below.
"$bin" tb build ostle:4x4 --pieces 7 --dir "$tmp/ot44" >/dev/null 2>&1
# a draw proof read off the table along what the search showed: the writer
# reads about the positions the file expands (before, the table's open
# entries pulled in ten times as many on this position)
"$bin" prove ostle:4x4 --question advantage --proof "$tmp/o44s" --tb-dir "$tmp/ot44" >"$tmp/out" 2>&1
read_n=$(tr '\r' '\n' <"$tmp/out" | sed -n 's/^proof: a closed set read off the table (\([0-9]*\) positions.*/\1/p')
nodes_n=$(grep -c ' node$' "$tmp/o44s")
[ -n "$read_n" ] && [ "$read_n" -le $((2 * nodes_n)) ] && "$bin" verify-proof "$tmp/o44s" --tb-dir "$tmp/ot44" | grep -q "^sound: " &&
    pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: closed set read $read_n positions for $nodes_n expanded"; }
# --proof-time: the writer stops that long after the search solved the
# root (a writer that searched for an hour after a 19 s search cut short,
# for the split to go a move deeper): at a microsecond the same draw proof
# fails naming the limit, the value still proven; at 100 s it is written
"$bin" prove ostle:4x4 --question advantage --proof "$tmp/o44t" --tb-dir "$tmp/ot44" --proof-time 0.000001 >"$tmp/out" 2>&1
[ $? = 1 ] && [ ! -e "$tmp/o44t" ] && grep -q "^value: proven$" "$tmp/out" &&
    grep -q "the proof could not be completed: the search stopped (proof time)" "$tmp/out" &&
    "$bin" prove ostle:4x4 --question advantage --proof "$tmp/o44t" --tb-dir "$tmp/ot44" --proof-time 100 >/dev/null 2>&1 &&
    cmp -s "$tmp/o44t" "$tmp/o44s" && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: --proof-time"; tail -3 "$tmp/out"; }
check "proof time zero" 2 "bad value '0' for option '--proof-time'" -- prove ostle:4x4 --proof-time 0
check "proof memory zero" 2 "bad value '0' for option '--proof-memory'" -- prove ostle:4x4 --proof-memory 0
# One bound alone ('at least K?'), its proof checked.
check "one bound proven" 0 "^value: proven$" -- prove othello:4x4 --question score:-10 --proof "$tmp/b44lo"
check "one bound checked" 0 "^sound: .*'can Black finish at least -10 ahead\?' proven" -- verify-proof "$tmp/b44lo"
check "one bound disproven" 0 "^value: disproven$" -- prove othello:4x4 --question score:-8 --proof "$tmp/b44hi"
check "one bound checked, disproven" 0 "'can Black finish at least -8 ahead\?' disproven" -- verify-proof "$tmp/b44hi"
check "one bound, bad K" 2 "option" -- prove othello:4x4 --question score:x
check "one bound, K out of range" 2 "option" -- prove othello:4x4 --question score:2000000

# A campaign (campaign/): the exact score of Othello 5x5 through a frontier
# two moves deep, its two joined proofs checked, the status and a full
# verify; killed (SIGKILL) mid-run and run again, it ends at the same score
# with no question answered twice; other options, a damaged journal and a
# directory that is a file are refused in one line.
check "campaign 5x5 score" 0 "^score: 13$" -- campaign run "$tmp/cp55" othello:5x5 --question score --guess 12 --depth 2 --memory 64 --workers 2
check "campaign lower bound sound" 0 "'can Black finish at least 13 ahead\?' proven" -- verify-proof "$tmp/cp55/lower.proof"
check "campaign upper bound sound" 0 "'can Black finish at least 1[45] ahead\?' disproven" -- verify-proof "$tmp/cp55/upper.proof"
check "campaign status" 0 "^decided: score 13$" -- campaign status "$tmp/cp55"
check "campaign status json" 0 '"decided":true' -- campaign status "$tmp/cp55" --json
check "campaign verify all" 0 "answers' proofs checked: sound$" -- campaign verify "$tmp/cp55" --all
check "campaign other options" 2 "other options" -- campaign run "$tmp/cp55" othello:5x5 --question score --guess 12 --depth 3 --memory 64
check "campaign needs a question" 2 "expected DIR GAME, --question and --depth" -- campaign run "$tmp/cpx" othello:4x4 --depth 1
check "campaign bad question" 2 "bad value 'lose'" -- campaign run "$tmp/cpx" othello:4x4 --question lose --depth 1
check "campaign guess without score" 2 "--guess is for --question score" -- campaign run "$tmp/cpx" othello:4x4 --question win --guess 3 --depth 1
check "campaign no such campaign" 1 "no campaign here" -- campaign status "$tmp/nothing"
: >"$tmp/afile"
check "campaign directory is a file" 1 "not a directory" -- campaign run "$tmp/afile" othello:4x4 --question win --depth 1
cp -r "$tmp/cp55" "$tmp/cpbad" && echo "answer 3 maybe" >>"$tmp/cpbad/journal"
check "campaign damaged journal" 1 "journal line [0-9]+: a record of no known kind" -- campaign status "$tmp/cpbad"
check "campaign win, tic-tac-toe" 0 "^win: disproven$" -- campaign run "$tmp/cpt" tictactoe --question win --depth 2
check "campaign win, its disproof" 0 "'can X force a win\?' disproven" -- verify-proof "$tmp/cpt/result.proof"
check "campaign split deeper at the limits" 0 "^win: proven$" -- campaign run "$tmp/cpj" jungle --position "7/3t3/7/7/7/3E3/7 w" --question win --depth 0 --nodes 800 --memory 16 --no-tb --workers 2
grep -q "^deeper " "$tmp/cpj/journal" && "$bin" verify-proof "$tmp/cpj/result.proof" | grep -q "^sound: " &&
    pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: campaign questions split a move deeper"; }
# a question split for its limits leaves its root's numbers in the journal, and every question a trace
grep -Eq "^open 1 [1-9][0-9]* [1-9][0-9]* ([89][0-9]{2}|[0-9]{4,}) [0-9.]+ 7/3t3/7/7/7/3E3/7 w$" "$tmp/cpj/journal" &&
    [ "$(ls "$tmp/cpj/t" | wc -l)" = "$(grep "^ask " "$tmp/cpj/journal" | sort -u | wc -l)" ] &&
    [ "$(cat "$tmp"/cpj/t/*.csv | grep -vc "^seconds,nodes,pn,dn$\|^[0-9.]*,[0-9]*,[0-9]*,[0-9]*$")" = 0 ] &&
    grep -q "^open " "$tmp/cpj/journal" && "$bin" campaign status "$tmp/cpj" | grep -q "^answered: " &&
    pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: campaign open records and traces"; grep "^open" "$tmp/cpj/journal" | head -2; }
cargs=(othello:5x6 --question score --guess 10 --depth 3 --memory 64 --workers 2)
wait_answers() {  # DIR N: until DIR's journal holds N answers (at most 20 s)
    local n
    for _ in $(seq 400); do n=$(grep -c "^answer " "$1/journal" 2>/dev/null); [ "${n:-0}" -ge "$2" ] && return; sleep 0.05; done
}
"$bin" campaign run "$tmp/cpk" "${cargs[@]}" >/dev/null 2>&1 &
cpid=$!
wait_answers "$tmp/cpk" 3
kill -9 $cpid 2>/dev/null; wait $cpid 2>/dev/null
before=$(grep -c "^answer " "$tmp/cpk/journal")
# killed: questions in flight, an ETA over every open question (JSON typed: no -1, no proofs yet)
"$bin" campaign status "$tmp/cpk" --json >"$tmp/out" &&
    grep -Eq '"decided":false,"proven":null,"score_at_least":(null|-?[0-9]+),"score_below":(null|-?[0-9]+),' "$tmp/out" &&
    grep -Eq '"in_flight":[1-9][0-9]*,"open":([1-9][0-9]*),' "$tmp/out" && grep -Eq '"eta_seconds":[0-9]+,"proofs":\[\]\}$' "$tmp/out" &&
    pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: a killed campaign's status"; cat "$tmp/out"; }
"$bin" campaign run "$tmp/cpk" "${cargs[@]}" >"$tmp/out" 2>&1 && grep -q "^score: 10$" "$tmp/out" &&
    [ -z "$(grep "^answer " "$tmp/cpk/journal" | cut -d' ' -f2,7- | sort | uniq -d)" ] &&
    [ "$(grep -c "^answer " "$tmp/cpk/journal")" -gt "$before" ] &&
    pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: a killed campaign resumed ($before answers before)"; tail -3 "$tmp/out"; }
grep -Eq "^resuming .*cpk: [1-9][0-9]* answers kept, [0-9]+ questions open \([0-9]+ at the fewest\), [1-9][0-9]* in flight when it stopped" "$tmp/out" &&
    pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: a resume says what it found"; head -2 "$tmp/out"; }
# decided: nothing in flight or open, no ETA, both proofs listed; answered as verify counts the proofs
"$bin" campaign status "$tmp/cpk" --json >"$tmp/out" &&
    grep -q '"in_flight":0,"open":0,' "$tmp/out" && grep -Eq '"eta_seconds":null,"proofs":\["[^"]*/lower.proof","[^"]*/upper.proof"\]\}$' "$tmp/out" &&
    n=$(sed 's/.*"answered":\([0-9]*\),.*/\1/' "$tmp/out") && "$bin" campaign verify "$tmp/cpk" --all | grep -q " $n of $n answers' proofs checked: sound$" &&
    pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: a decided campaign's status"; cat "$tmp/out"; }
# options on resume: limits, memory and workers may change (recorded in the journal); one that can change an answer may not
check "campaign resume, other limits" 0 "^score: 10$" -- campaign run "$tmp/cpk" othello:5x6 --question score --guess 10 --depth 3 --memory 128 --time 30 --workers 1
grep -q "^options --memory 128 --time 30$" "$tmp/cpk/journal" && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: a resume's options recorded"; }
check "campaign resume, --ghi refused" 2 "--ghi can change an answer, and the campaign began with no --ghi, this run has --ghi naive" -- campaign run "$tmp/cpk" othello:5x6 --question score --guess 10 --depth 3 --memory 64 --ghi naive
check "campaign resume, --tb-dir refused" 2 "--tb-dir can change an answer" -- campaign run "$tmp/cpk" othello:5x6 --question score --guess 10 --depth 3 --memory 64 --tb-dir "$tmp"
# A disproof through a frontier a move deep with the tables: an Ostle 4x4
# loss for White, one child per symmetry class, the join naming the others
# by 'sym'; a child whose proof outgrows --proof-memory goes a move deeper
# from the best move its search named; on 4x4 Othello every score is even,
# so a guess of -12 refused answers "at least -11", and the right score
# asks only for the other bound; an answer turned round in the journal is
# caught by verify.
check "campaign ostle disproof" 0 "^win: disproven$" -- campaign run "$tmp/co44" ostle:4x4 --position "1B1B/W1B1/WH1B/1WW1 w -" --question win --depth 1 --tb-dir "$tmp/ot44" --memory 64
"$bin" verify-proof "$tmp/co44/result.proof" --tb-dir "$tmp/ot44" | grep -q "'can White force a win?' disproven" &&
    grep -q "^[0-9]* .* sym [0-9]*$" "$tmp/co44/result.proof" &&
    pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: campaign disproof of an Ostle 4x4 loss"; }
"$bin" tb build ostle:4x4 --pieces 5 --dir "$tmp/ot44-5" >/dev/null 2>&1
check "campaign proof past --proof-memory" 0 "^win: disproven$" -- campaign run "$tmp/cop" ostle:4x4 --position "1B1B/W1B1/WH1B/1WW1 w -" --question win --depth 1 --tb-dir "$tmp/ot44-5" --memory 32 --proof-memory 1
grep -q "^best " "$tmp/cop/journal" && grep -q "^deeper " "$tmp/cop/journal" &&
    "$bin" verify-proof "$tmp/cop/result.proof" --tb-dir "$tmp/ot44-5" | grep -q "^sound: " &&
    pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: campaign child past --proof-memory split from its best move"; }
check "campaign parity: a wrong guess" 0 "^score: -10$" -- campaign run "$tmp/cpp" othello:4x4 --question score --guess -12 --depth 3 --memory 64
sed -i '0,/^answer \([-0-9]*\) proven/s//answer \1 disproven/' "$tmp/cp55/journal"
check "campaign verify catches a turned answer" 1 "journal line [0-9]+: .* proves .*, not .*" -- campaign verify "$tmp/cp55" --all
check "campaign import" 0 "^imported ([0-9]+) of \\1 proofs" -- campaign import "$tmp/cpi" tictactoe --question win --depth 2 "$tmp/cpt/p/"*.proof
"$bin" campaign run "$tmp/cpi" tictactoe --question win --depth 2 >"$tmp/out" 2>&1 && ! grep -q "asking" "$tmp/out" &&
    grep -q "^win: disproven$" "$tmp/out" && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: a campaign of imported answers"; }
sed '$s/.*/0 - node/' "$(ls "$tmp/cpt/p/"*.proof | head -1)" >"$tmp/forged.proof"
check "campaign import refuses a forged proof" 1 "not sound" -- campaign import "$tmp/cpi" tictactoe --question win --depth 2 "$tmp/forged.proof"
# The same campaign on MPI ranks (where Open MPI is installed): one manager
# and two workers give the score and sound proofs; killed and run again,
# nothing answered twice.
mpiroot=(); [ "$(id -u)" = 0 ] && mpiroot=(--allow-run-as-root)
if ! command -v mpirun >/dev/null 2>&1 || ! mpirun --oversubscribe "${mpiroot[@]}" -np 2 true >/dev/null 2>&1; then
    echo "cli: no working mpirun here: the MPI checks are skipped"
else
    # Open MPI's own components leave memory at exit that LeakSanitizer
    # (make check-asan) would report; ours is checked on the threads above
    mpi=(env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" mpirun --oversubscribe --bind-to none)
    [ "$(id -u)" = 0 ] && mpi+=(--allow-run-as-root)
    mpi+=(-np 3)  # last: the Ostle runs below change it
    "${mpi[@]}" "$bin" campaign run "$tmp/cpm" othello:5x5 --question score --guess 12 --depth 2 --memory 64 >"$tmp/out" 2>&1 &&
        grep -q "^score: 13$" "$tmp/out" && grep -q "^run 2$" "$tmp/cpm/journal" &&
        "$bin" campaign verify "$tmp/cpm" --all | grep -q "sound$" &&
        pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: a campaign on three MPI ranks"; tail -3 "$tmp/out"; }
    # an Ostle disproof on three ranks and on one (mpirun -np 1: the
    # workers are threads), each the threads' answer, each proof sound
    for np in 3 1; do
        mp=("${mpi[@]}"); mp[${#mp[@]} - 1]=$np
        "${mp[@]}" "$bin" campaign run "$tmp/com$np" ostle:4x4 --position "1B1B/W1B1/WH1B/1WW1 w -" --question win --depth 1 \
            --tb-dir "$tmp/ot44" --memory 64 >"$tmp/out" 2>&1 && grep -q "^win: disproven$" "$tmp/out" &&
            "$bin" verify-proof "$tmp/com$np/result.proof" --tb-dir "$tmp/ot44" | grep -q "'can White force a win?' disproven" &&
            pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: an Ostle campaign on $np MPI ranks"; tail -3 "$tmp/out"; }
    done
    # a worker rank that cannot allocate its table says so in one line, and the campaign stops
    "${mpi[@]}" "$bin" campaign run "$tmp/coom" othello:4x4 --question win --depth 1 --memory 4000000 >"$tmp/out" 2>&1
    [ $? != 0 ] && [ "$(grep -c "^pnsolve: campaign run: a worker could not search .*: out of memory for a [0-9]*-byte table$" "$tmp/out")" = 1 ] &&
        pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: a rank out of memory"; tail -3 "$tmp/out"; }
    "${mpi[@]}" "$bin" campaign run "$tmp/cpmk" "${cargs[@]}" >/dev/null 2>&1 &
    cpid=$!
    wait_answers "$tmp/cpmk" 3
    check "campaign run while another runs" 1 "another run is writing this campaign" -- campaign run "$tmp/cpmk" "${cargs[@]}"
    # a job killed whole, as a scheduler kills it: mpirun and its ranks
    kill -9 $cpid $(pgrep -f "campaign run $tmp/cpmk") 2>/dev/null; wait $cpid 2>/dev/null
    for _ in $(seq 50); do pgrep -f "campaign run $tmp/cpmk" >/dev/null || break; sleep 0.2; done
    "${mpi[@]}" "$bin" campaign run "$tmp/cpmk" "${cargs[@]}" >"$tmp/out" 2>&1 && grep -q "^score: 10$" "$tmp/out" &&
        [ -z "$(grep "^answer " "$tmp/cpmk/journal" | cut -d' ' -f2,7- | sort | uniq -d)" ] &&
        pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: a killed mpirun campaign resumed"; grep -v "^at least|: .at least" "$tmp/out" | head -20; }
    # Tables built by ranks: every table shared by 2 ranks, or dealt whole
    # (the default for small ones), are the files of one process
    # (tests/mpi_tables.sh, in make check-slow: 1, 2 and 4 ranks, to four
    # Jungle pieces, eight Ostle ones, and a killed build resumed)
    same_files() { for f in "$1"/*.pntb; do cmp -s "$f" "$2/${f##*/}" || return 1; done; }
    "$bin" tb build jungle --pieces 3 --dir "$tmp/tbr" >/dev/null 2>&1
    "$bin" tb build ostle:4x4 --pieces 6 --dir "$tmp/tbo" >/dev/null 2>&1
    for np in 2 2d; do
        mp=("${mpi[@]}"); mp[${#mp[@]} - 1]=${np%d}; share=(--whole-below 0); [ "$np" = 2d ] && share=()
        "${mp[@]}" "$bin" tb build jungle --pieces 3 --dir "$tmp/tbr$np" "${share[@]}" >"$tmp/out" 2>&1 &&
            "${mp[@]}" "$bin" tb build ostle:4x4 --pieces 6 --dir "$tmp/tbo$np" "${share[@]}" >>"$tmp/out" 2>&1 &&
            same_files "$tmp/tbr" "$tmp/tbr$np" && same_files "$tmp/tbo" "$tmp/tbo$np" &&
            grep -q "^${np%d} ranks: .* MB sent between ranks, peak memory per rank" "$tmp/out" &&
            pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: tables built by $np MPI ranks"; tail -3 "$tmp/out"; }
    done
    # a directory that cannot be made: one line from each rank, no hang
    mp=("${mpi[@]}"); mp[${#mp[@]} - 1]=2
    timeout 60 "${mp[@]}" "$bin" tb build jungle --pieces 2 --dir "$tmp/forged.proof/t" >"$tmp/out" 2>&1
    [ $? = 1 ] && grep -q "^pnsolve: tb build: .*forged.proof/t: Not a directory$" "$tmp/out" &&
        pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: tables by ranks into a bad directory"; tail -3 "$tmp/out"; }
fi

# Othello strongly solved by layers: 4x4 built, its start -10 with every
# best move, the per-disc counts and their total, every score re-derived;
# the reachable states alone; 4x5's start; unreachable positions, boards
# past 40 squares, a FIFO and another board's layer refused; Ctrl-C keeps
# the layers done
check "tb build othello:4x4" 0 "every reachable state of othello:4x4 solved" -- tb build othello:4x4 --dir "$tmp/ol"
check "tb probe othello:4x4 start" 0 "^best b1 a2 d3 c4$" -- tb probe othello:4x4 "4x4:----/-OX-/-XO-/---- X" --dir "$tmp/ol"
grep -q "^score -10$" "$tmp/out" && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: 4x4's start is not -10"; }
check "tb probe othello:4x4 --json" 0 '^\{"position": "4x4:----/-OX-/-XO-/---- X", "result": "loss", "score": -10\}$' -- tb probe othello:4x4 "4x4:----/-OX-/-XO-/---- X" --dir "$tmp/ol" --json
for p in "4x4:----/-OX-/-XO-/---- X" "4x4:-X--/-XX-/-XO-/---- O" "4x4:OX--/-OX-/-XO-/---- X"; do
    moves_agree "tb probe --moves othello:4x4 $p" othello:4x4 "$tmp/ol" "$p"
done
check "tb line othello:4x4" 0 "^end: the game is over$" -- tb line othello:4x4 "4x4:----/-OX-/-XO-/---- X" --dir "$tmp/ol"
check "tb stats othello:4x4" 0 "^total +62789 " -- tb stats othello:4x4 --dir "$tmp/ol"
check "tb stats othello:4x4 --json" 0 '"reachable_total":62789,' -- tb stats othello:4x4 --dir "$tmp/ol" --json
check "tb verify othello:4x4" 0 "^verify: every state agrees with its children$" -- tb verify othello:4x4 --dir "$tmp/ol"
check "tb reach othello:4x4" 0 "^total +62789 +15856 +47633 +8988 +6168$" -- tb reach othello:4x4 --dir "$tmp/ol"
check "tb reach othello:4x4 --json" 0 '"reachable_total":62789,"ranks":15856,' -- tb reach othello:4x4 --dir "$tmp/ol" --json
check "tb probe othello:4x4, unreachable" 1 "not reachable from othello:4x4's start" -- tb probe othello:4x4 "4x4:----/-XX-/-XX-/---- O" --dir "$tmp/ol"
check "tb build othello:4x5" 0 "every reachable state of othello:4x5 solved" -- tb build othello:4x5 --dir "$tmp/ol"
check "tb probe othello:4x5 start" 0 "^best d3$" -- tb probe othello:4x5 "4x5:----/-OX-/-XO-/----/---- X" --dir "$tmp/ol"
grep -q "^score 16$" "$tmp/out" && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: 4x5's start is not +16"; }
mkdir -p "$tmp/olfifo" && mkfifo "$tmp/olfifo/othello-4x4.e12.pnsw"
check "tb probe othello:4x4, a FIFO for a layer" 1 "othello-4x4.e12.pnsw: not a regular file" -- tb probe othello:4x4 "4x4:----/-OX-/-XO-/---- X" --dir "$tmp/olfifo"
check "tb build othello:6x7, too large" 1 "othello:6x7 has no layer ranks .*up to 40 squares" -- tb build othello:6x7 --dir "$tmp/ol"
mkdir -p "$tmp/ol54" && cp "$tmp/ol/othello-4x4.e12.pnsw" "$tmp/ol54/othello-5x4.e16.pnsw"
check "tb probe othello:5x4, another board's layer" 1 "othello-5x4.e16.pnsw: a layer of another game" -- tb probe othello:5x4 "5x4:-----/-OX--/-XO--/----- X" --dir "$tmp/ol54"
"$bin" tb build othello:4x6 --dir "$tmp/ol46" --memory 64 >"$tmp/int.out" 2>&1 &
sleep 3; kill -INT $!; wait $!
if [ $? = 130 ] && grep -q "stopped after .* the layers done are kept" "$tmp/int.out" && ls "$tmp/ol46" | grep -q "e20.pnsw$"; then
    pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: tb build Ctrl-C"; tail -3 "$tmp/int.out"; fi
rm -rf "$tmp/ol46"

# The seed's symbolic method: the immediate wins of 4x4 as its Table 7.3,
# a node limit and the algorithms not built yet refused in one line
check "bdd --immediate-wins" 0 "^immediately won by White: 901134 states$" -- bdd othello:4x4 --immediate-wins
check "bdd, node limit" 1 "limit of 20000 nodes \(--nodes raises it\)" -- bdd othello:4x4 --immediate-wins --nodes 20000
check "bdd --algo 1" 0 "^  reachable: 62789 states$" -- bdd othello:4x4 --algo 1
check "bdd --algo 1,5 --tables --plot" 0 "^  agrees with the tables on all 15856 states they keep \(one per symmetry class: 62789 reachable states\)$" -- \
    bdd othello:4x4 --algo 1,5 --tables "$tmp/ol" --plot "$tmp/bdd.svg"
grep -qE "White can force a win from 28483, Black from 29297, neither \(draws\) 5009$" "$tmp/out" &&
    grep -q "^  start: White can force a win$" "$tmp/out" && grep -q "^algorithm 1 (reach" "$tmp/out" &&
    [ "$(grep -c "<polyline" "$tmp/bdd.svg")" = 3 ] || { fail=$((fail + 1)); echo "FAIL: bdd --algo 1,5: sets, start, plot"; }
check "bdd --algo 6" 2 "bad value '6' for option '--algo'" -- bdd othello:4x4 --algo 6
check "bdd --algo 1,,2" 2 "bad value" -- bdd othello:4x4 --algo 1,,2
check "bdd --tables without --algo" 2 "go with --algo" -- bdd othello:4x4 --immediate-wins --tables "$tmp"
check "bdd --tables, none there" 1 "othello:4x4 is not solved in .*nothing-here" -- bdd othello:4x4 --algo 5 --tables "$tmp/nothing-here"
check "bdd, node limit on an algorithm" 1 "algorithm 5: 4x4: BuDDy's table reached its limit of 20000 nodes" -- bdd othello:4x4 --algo 5 --nodes 20000
# Ctrl-C: exit 130, one line, and the layers counted so far (none yet when
# a loaded machine is still building the relation at the signal)
# (one signal, as Ctrl-C sends: timeout would signal its process group too,
# and a second signal quits at once)
"$bin" bdd othello:4x5 --layers >"$tmp/out" 2>"$tmp/err" &
sleep 5; kill -INT $!; wait $!
rc=$?
if [ $rc = 130 ] && [ "$(cat "$tmp/err")" = "pnsolve: bdd: 4x5: stopped by a signal" ] &&
    { [ ! -s "$tmp/out" ] || grep -q "^discs  4: 1 states" "$tmp/out"; }; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: bdd stopped by Ctrl-C (status $rc)"; head -3 "$tmp/out" "$tmp/err"; fi
check "bdd, not othello" 2 "the symbolic rules are Othello's" -- bdd jungle --immediate-wins
# A long run in slices: each saves and stops (exit 3), the last goes on
# from the save to the whole run's figures and removes it
check "bdd --save --iterations" 3 "stopped after 9 iterations as asked; .*othello-4x4-algo5.bddsave goes on from here" -- \
    bdd othello:4x4 --algo 5 --save "$tmp/bsave" --iterations 9
check "bdd --save, resumed" 0 "White can force a win from 28483, Black from 29297, neither \(draws\) 5009$" -- \
    bdd othello:4x4 --algo 5 --save "$tmp/bsave"
grep -q "went on from a save" "$tmp/out" && [ ! -e "$tmp/bsave/othello-4x4-algo5.bddsave" ] && pass=$((pass + 1)) ||
    { fail=$((fail + 1)); echo "FAIL: bdd --save: resumed, save removed"; }
check "bdd --iterations without --save" 2 "go(es)? with --save" -- bdd othello:4x4 --algo 5 --iterations 3
check "bdd --save on a file" 1 "bdd: .*: Not a directory" -- bdd othello:4x4 --algo 5 --save "$tmp/bdd.svg"
mkfifo "$tmp/bsave/othello-4x4-algo3.bddsave"
check "bdd --save, a FIFO for the save" 1 "othello-4x4-algo3.bddsave: not a regular file" -- bdd othello:4x4 --algo 3 --save "$tmp/bsave"

# Pictures in Graphviz's DOT: the GHI graph's 11 positions and 17 moves, the
# one move back onto the path dashed; its proof's tree with the prover's
# moves bold; graphs too big, unwritable paths and --dot without a proof
# refused in one line (where graphviz is installed, dot draws both)
ghi=positions/ghi/kishimoto-fig3-2.graph
check "show --dot" 0 "^wrote $tmp/ghi.dot$" -- show "graph:$ghi" --dot "$tmp/ghi.dot"
[ "$(grep -c "^  n[0-9]* \[label=" "$tmp/ghi.dot")" = 11 ] && [ "$(grep -c " -> " "$tmp/ghi.dot")" = 17 ] &&
    [ "$(grep -c "style=dashed" "$tmp/ghi.dot")" = 1 ] && grep -q 'n3 -> n2 \[label="E", style=dashed' "$tmp/ghi.dot" &&
    pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: the GHI graph's picture"; }
check "prove --dot" 0 "^value: proven$" -- prove "graph:$ghi" --question win --proof "$tmp/ghi.proof" --dot "$tmp/ghip.dot"
[ "$(grep -c "style=bold" "$tmp/ghip.dot")" = 4 ] && [ "$(grep -c "same position" "$tmp/ghip.dot")" = 2 ] &&
    grep -q 'l0 -> l1 \[label="C", style=bold' "$tmp/ghip.dot" &&
    pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: the GHI proof's picture"; }
if command -v dot >/dev/null 2>&1; then
    dot -Tsvg "$tmp/ghi.dot" -o "$tmp/ghi.svg" && dot -Tsvg "$tmp/ghip.dot" -o "$tmp/ghip.svg" && grep -q "<svg" "$tmp/ghip.svg" &&
        pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: dot cannot draw our pictures"; }
fi
# '-' is standard output: the picture alone there, the report on standard error, no file named '-'
abs=$(realpath "$bin")
(cd "$tmp" && "$abs" show "graph:$OLDPWD/$ghi" --dot - >"$tmp/dash.dot" 2>"$tmp/dash.err") &&
    head -1 "$tmp/dash.dot" | grep -q "^digraph positions {$" && grep -q "^moves (" "$tmp/dash.err" && [ ! -e "$tmp/-" ] &&
    pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: show --dot -"; head -3 "$tmp/dash.dot" "$tmp/dash.err"; }
(cd "$tmp" && "$abs" prove "graph:$OLDPWD/$ghi" --question win --proof "$tmp/ghi2.proof" --dot - >"$tmp/dash.dot" 2>"$tmp/dash.err") &&
    head -1 "$tmp/dash.dot" | grep -q "^digraph proof {$" && grep -q "^value: proven$" "$tmp/dash.err" && [ ! -e "$tmp/-" ] &&
    pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: prove --dot -"; head -3 "$tmp/dash.dot" "$tmp/dash.err"; }
# a score's proof holds both bounds: a cluster for the second
check "prove --score --dot" 0 "^score: -10$" -- prove othello:4x4 --score --proof "$tmp/s.proof" --dot "$tmp/s.dot"
[ "$(grep -c "^  subgraph cluster_1 {$" "$tmp/s.dot")" = 1 ] && grep -q 'label=".*: score disproven";' "$tmp/s.dot" &&
    pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: a score proof's picture"; head -5 "$tmp/s.dot"; }
check "show --dot, too big" 1 "more than 2000 positions: too many to draw, nothing written" -- show jungle --dot "$tmp/j.dot"
[ ! -e "$tmp/j.dot" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: a picture too big left a file"; }
check "show --dot, unwritable" 1 "cannot write the picture" -- show "graph:$ghi" --dot "$tmp/none/x.dot"
check "prove --dot without --proof" 2 "--dot needs --proof" -- prove "graph:$ghi" --dot "$tmp/x.dot"

# make demo's story: the GHI graph's right answer and the path-blind one's
# wrong one, each step announced, every proof it checks sound
"$(dirname "$0")/../demo.sh" "$bin" >"$tmp/demo" 2>&1 &&
    [ "$(grep -A3 "^== the GHI example" "$tmp/demo" | grep "^value:" | tr '\n' ' ')" = "value: win " ] &&
    grep -A1 "^-- a table that ignores the path" "$tmp/demo" | grep -q "^value: draw$" &&
    [ "$(grep -c "^sound: " "$tmp/demo")" = 2 ] && [ "$(grep -c "^== " "$tmp/demo")" = 7 ] &&
    pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: make demo's story"; tail -5 "$tmp/demo"; }

# Plots of traces: two traces on one figure against seconds (where gnuplot
# is installed; else a one-line refusal), bad options refused.
printf 'seconds,nodes,pn,dn\n1.0,1000,10,20\n2.0,3000,12,40\n' >"$tmp/t1.csv"
printf 'seconds,nodes,pn,dn\n1.0,2000,11,30\n2.0,5000,9,70\n' >"$tmp/t2.csv"
if command -v gnuplot >/dev/null 2>&1; then
    check "plot two traces" 0 "^wrote $tmp/t12.png$" -- plot "$tmp/t1.csv" "$tmp/t2.csv" --x seconds --output "$tmp/t12.png"
    [ -s "$tmp/t12.png" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: plot wrote no picture"; }
else
    check "plot without gnuplot" 1 "gnuplot not found" -- plot "$tmp/t1.csv" "$tmp/t2.csv"
fi
check "plot, bad axis" 2 "bad value 'hours'" -- plot "$tmp/t1.csv" --x hours
check "plot, a missing trace" 2 "cannot read" -- plot "$tmp/t1.csv" "$tmp/none.csv"

# Puzzles: from the two-piece tables, from Ostle's random games, and checked.
check "puzzles help" 0 "usage: pnsolve puzzles" -- puzzles --help
check "puzzles needs mate-in" 2 "--mate-in N is required" -- puzzles jungle --tb-dir "$tb"
check "puzzles even mate-in" 2 "bad value '4' for option '--mate-in'" -- puzzles jungle --mate-in 4
check "puzzles bad motif" 2 "bad value 'pretty' for option '--motif'" -- puzzles jungle --mate-in 3 --motif pretty
check "puzzles bad side" 2 "--side must be White or Black" -- puzzles jungle --mate-in 3 --side red --tb-dir "$tb"
check "puzzles bad pieces" 2 "neither a piece count" -- puzzles jungle --mate-in 3 --pieces XYZ --tb-dir "$tb"
check "puzzles pieces over ten" 2 "neither a piece count .2-10." -- puzzles jungle --mate-in 3 --pieces 11 --tb-dir "$tb"
check "puzzles pieces without tables" 2 "needs endgame tables" -- puzzles ostle --mate-in 3 --pieces 8
check "puzzles jungle from tables" 0 "^key: " -- puzzles jungle --mate-in 3 --tb-dir "$tb" --count 2 --seed 4
check "puzzles found line" 0 "2 found in" -- puzzles jungle --mate-in 3 --tb-dir "$tb" --count 2 --seed 4
# a booklet: its title and author, a legend, one page, a diagram, stipulation
# and folded solution per problem, the keys the text output gives, and an
# answer key printed at the end (make check-html draws it in a browser)
check "puzzles --html" 0 "wrote $tmp/book.html" -- puzzles jungle --mate-in 3 --tb-dir "$tb" --count 3 --seed 4 --html "$tmp/book.html" --title "Rat & co" --author "A. Composer"
keys=$("$bin" puzzles jungle --mate-in 3 --tb-dir "$tb" --count 3 --seed 4 2>/dev/null | sed -n 's/^key: //p' | sed 's/  (/ (/')
[ "$(grep -c "<svg" "$tmp/book.html")" = 3 ] && [ "$(grep -c "<details>" "$tmp/book.html")" = 3 ] &&
    grep -q "@media print" "$tmp/book.html" && grep -q "<h1>Rat &amp; co</h1>" "$tmp/book.html" &&
    grep -q '<p class="author">A. Composer</p>' "$tmp/book.html" && grep -q '<p class="legend">Shaded squares are the dens' "$tmp/book.html" &&
    [ "$(sed -n 's/.*<dt>Key<\/dt><dd>\([^<]*\)<\/dd>.*/\1/p' "$tmp/book.html")" = "$keys" ] &&
    [ "$(sed -n '/<h2>Answers<\/h2>/,/<\/ol>/p' "$tmp/book.html" | grep -c '^<li>')" = 3 ] &&
    pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: the puzzle booklet"; }
# Ostle's booklet explains the hole and the mark of rule 8's forbidden move
check "puzzles ostle --html" 0 "" -- puzzles ostle:3x3 --mate-in 3 --count 1 --html "$tmp/ob.html"
grep -q '<p class="legend">The shaded square is the hole' "$tmp/ob.html" && pass=$((pass + 1)) ||
    { fail=$((fail + 1)); echo "FAIL: Ostle's booklet legend"; }
check "puzzles --html, unwritable" 1 "cannot write the booklet" -- puzzles jungle --mate-in 3 --tb-dir "$tb" --count 1 --html "$tmp/none/b.html"
check "puzzles jungle json" 0 '"main_line":\["[a-g][1-7][a-g][1-7]"' -- puzzles jungle --mate-in 3 --tb-dir "$tb" --count 2 --seed 4 --json
"$bin" puzzles jungle --mate-in 3 --tb-dir "$tb" --count 3 --seed 9 --json >"$tmp/pz1" 2>/dev/null
"$bin" puzzles jungle --mate-in 3 --tb-dir "$tb" --count 3 --seed 9 --json >"$tmp/pz2" 2>/dev/null
cmp -s "$tmp/pz1" "$tmp/pz2" && [ "$(wc -l <"$tmp/pz1")" = 3 ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: puzzles not reproducible by seed"; }
check "puzzles side" 0 "Black to move wins in 3" -- puzzles jungle --mate-in 3 --tb-dir "$tb" --count 2 --side black
check "puzzles svg" 0 "^key: " -- puzzles jungle --mate-in 3 --tb-dir "$tb" --count 2 --svg "$tmp/svg/a"
grep -q '</svg>' "$tmp/svg/a/puzzle-002.svg" && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: no SVG diagram written"; }
check "puzzles ostle" 0 "^key: " -- puzzles ostle --mate-in 3 --count 2
pos=$(sed -n '1s/^{"position":"\([^"]*\)".*/\1/p' "$tmp/pz1")
check "solve-puzzle sound" 0 "^sound: yes$" -- solve-puzzle jungle --position "$pos" --mate-in 3 --no-tb
check "solve-puzzle too long a claim" 1 "the win is shorter: in 3" -- solve-puzzle jungle --position "$pos" --mate-in 5 --no-tb
check "solve-puzzle cooked" 1 "^cook: e7d7$" -- solve-puzzle jungle --position "2R1D2/7/7/7/7/7/6r w" --mate-in 1 --no-tb
check "solve-puzzle no win" 1 "disproven" -- solve-puzzle jungle --position "7/7/7/7/7/7/R5r w" --mate-in 3 --no-tb
check "solve-puzzle json" 1 '"sound":false' -- solve-puzzle jungle --position "2R1D2/7/7/7/7/7/6r w" --mate-in 1 --json --no-tb
check "solve-puzzle needs position" 2 "--position P is required" -- solve-puzzle jungle --mate-in 3
check "solve-puzzle needs mate-in" 2 "solve-puzzle: --mate-in N is required" -- solve-puzzle jungle --position "7/7/7/7/7/7/R5r w"
check "solve-puzzle bad position" 2 "bad position" -- solve-puzzle jungle --position "8/7 w" --mate-in 3
check "solve-puzzle game over" 2 "already over" -- solve-puzzle jungle --position "3R3/7/7/7/7/7/6r b" --mate-in 3
# The curated sets, each problem re-proved from scratch without tables.
for game in jungle ostle; do
    while read -r line; do
        pos=$(printf '%s\n' "$line" | sed 's/^{"position":"\([^"]*\)".*"mate_in":\([0-9]*\).*/\1/')
        n=$(printf '%s\n' "$line" | sed 's/.*"mate_in":\([0-9]*\).*/\1/')
        key=$(printf '%s\n' "$line" | sed 's/.*"key":"\([^"]*\)".*/\1/')
        check "curated $game mate in $n" 0 "^key: $key" -- solve-puzzle $game --position "$pos" --mate-in "$n" --no-tb --memory 512
    done <"$(dirname "$0")/../positions/puzzles/$game.jsonl"
done
check "tb probe json" 0 '"result": "loss", "distance": 2' -- tb probe jungle "7/7/7/7/7/3r3/R6 w" --dir "$tb" --json
for p in "7/7/7/7/7/3r3/R6 w" "7/3R3/7/7/7/7/6r w" "7/7/2r4/7/7/4R2/7 b" "7/7/7/3E3/7/2r4/7 w"; do
    moves_agree "tb probe --moves jungle $p" jungle "$tb" "$p"
done
check "tb probe --moves --json" 0 '"moves": \[\{"move": "a1b1", "position": "7/7/7/7/7/3r3/1R5 b", "result": "loss", "distance": 2\}' -- tb probe jungle "7/7/7/7/7/3r3/R6 w" --dir "$tb" --moves --json
check "tb probe --moves, a finished game" 0 '"moves": \[\]' -- tb probe jungle "3R3/7/7/7/7/7/6r b" --dir "$tb" --moves --json
# tb line: a win's mainline is as long as its distance and ends the game
"$bin" tb line jungle "7/7/7/7/7/3r3/R6 w" --dir "$tb" >"$tmp/line" 2>&1
if [ "$(grep -c '^ *[0-9]*\. ' "$tmp/line")" = 3 ] && grep -q "^end: the game is over$" "$tmp/line"; then
    pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: tb line of a loss in 2"; cat "$tmp/line"; fi
check "tb line --json" 0 '"line": \[\{"ply": 1, "move": "a1b1", .*\], "end": "over"\}$' -- tb line jungle "7/7/7/7/7/3r3/R6 w" --dir "$tb" --json
check "tb line, a ply limit" 0 "^end: the ply limit$" -- tb line jungle "7/7/7/7/7/3r3/R6 w" --dir "$tb" --max-plies 1
check "tb line, a bad --max-plies" 2 "max-plies" -- tb line jungle "7/7/7/7/7/3r3/R6 w" --dir "$tb" --max-plies 0
check "tb line, a missing table" 1 "no table for material RrD" -- tb line jungle "7/7/7/7/7/3r3/RD5 w" --dir "$tb"
check "tb probe, an empty directory" 1 "no table of jungle in" -- tb probe jungle "7/7/7/7/7/3r3/R6 w" --dir "$tmp"
check "tb probe bad position" 2 "bad position" -- tb probe jungle "7/7/7 w" --dir "$tb"
check "tb probe missing table" 1 "no table for material RrD" -- tb probe jungle "7/7/7/7/7/3r3/RD5 w" --dir "$tb"
printf '7/3R3/7/7/7/7/6r w\nnonsense\n7/7/7/7/7/3r3/R6 w\n' >"$tmp/positions"
"$bin" tb probe jungle - --dir "$tb" <"$tmp/positions" >"$tmp/out" 2>&1
if [ "$(cat "$tmp/out" | tr '\n' '|')" = "win 1|error bad character 'n' in JFEN rank 7|loss 2|" ]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: tb probe from stdin"; cat "$tmp/out"; fi
printf 'a"b\\c\n' | "$bin" tb probe jungle - --dir "$tb" --json >"$tmp/out" 2>&1
if grep -qF '{"position": "a\"b\\c", "error": ' "$tmp/out"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: tb probe json escaping"; cat "$tmp/out"; fi
check "tb verify" 0 "all tables correct" -- tb verify jungle --dir "$tb"
check "tb stats" 0 "^Rr +1196 positions" -- tb stats jungle --dir "$tb"
check "tb stats json" 0 '^\{"material": "Rr", "positions": 1196' -- tb stats jungle --dir "$tb" --json
check "tb stats tsv" 0 "^Rr	1196	711	0	485	18	[^	]+ w	[0-9a-f]{64}$" -- tb stats jungle --dir "$tb" --tsv
check "tb stats tsv alone" 2 "goes alone" -- tb stats jungle --dir "$tb" --tsv --json
# the row's values hash is the one --json gives, and tables of one material each (Rr, Dd) hash alike
"$bin" tb stats jungle --dir "$tb" --tsv >"$tmp/tsv" 2>&1
"$bin" tb stats jungle --dir "$tb" --json >"$tmp/json" 2>&1
rr=$(awk -F'\t' '$1 == "Rr" { print $8 }' "$tmp/tsv")
if [ -n "$rr" ] && grep -q "^{\"material\": \"Rr\".*\"values_b2\": \"$rr\"" "$tmp/json" &&
    [ "$(awk -F'\t' '$1 == "Dd" { print $8 }' "$tmp/tsv")" = "$rr" ] &&
    [ "$(awk -F'\t' '$1 == "rD" { print $8 }' "$tmp/tsv")" != "$rr" ]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: tb stats tsv hashes"; head -4 "$tmp/tsv"; fi
# --only: that table's row alone, the same row as among all the others
"$bin" tb stats jungle --dir "$tb" --tsv --only rD >"$tmp/out" 2>&1
if [ "$(wc -l <"$tmp/out")" = 2 ] && [ "$(tail -1 "$tmp/out")" = "$(grep "^rD	" "$tmp/tsv")" ]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: tb stats --only"; head -3 "$tmp/out"; fi
# an option the action would ignore is refused, not dropped
check "tb probe --only refused" 2 "--only is not an option of tb probe for jungle" -- tb probe jungle "7/7/7/7/7/3r3/R6 w" --dir "$tb" --only Rr
check "tb compress --threads refused" 2 "--threads is not an option of tb compress" -- tb compress jungle --dir "$tb" --threads 2
check "tb verify --tsv refused" 2 "--tsv is not an option of tb verify" -- tb verify jungle --dir "$tb" --tsv
check "tb build othello --pieces refused" 2 "--pieces is not an option of tb build for othello:4x4" -- tb build othello:4x4 --dir "$tb" --pieces 4
check "tb stats --only, no such material" 2 "no material 'rX' in jungle" -- tb stats jungle --dir "$tb" --only rX
check "tb stats --only, no table" 1 "no table RrDdTt of jungle in" -- tb stats jungle --dir "$tb" --only RrDdTt
check "tb verify other variant" 1 "no tables of jungle:classic" -- tb verify jungle --variant classic --dir "$tb"
printf 'garbage' >"$tb/jungle-Rr.pntb"
check "tb probe corrupt file" 1 "jungle-Rr.pntb: truncated table" -- tb probe jungle "7/7/7/7/7/3r3/R6 w" --dir "$tb"
check "tb verify corrupt file" 1 "Rr: BAD: .*jungle-Rr.pntb" -- tb verify jungle --dir "$tb"
check "tb build over corrupt file: moved aside, built again" 0 "jungle-Rr.pntb: truncated table .*; moved to" -- tb build jungle --pieces 2 --dir "$tb"

# proof-number search, proofs and their checker
fig=positions/ghi/kishimoto-fig3-2.graph
check "prove graph" 0 "^value: win$" -- prove "graph:$fig"
check "prove graph pns" 0 "^value: win$" -- prove "graph:$fig" --algo pns
check "prove graph naive" 0 "^value: draw$" -- prove "graph:$fig" --ghi naive
check "prove json" 0 '^\{"position":"A","value":"win","best_move":"C","pv":\["C"' -- prove "graph:$fig" --json
check "prove question" 0 "^value: disproven$" -- prove graph:positions/ghi/two-cycle-draw.graph --question win
check "prove limit" 0 "stopped by nodes; root pn" -- prove jungle --no-tb --nodes 2000
check "prove bad algo" 2 "bad value 'bfs' for option '--algo'" -- prove jungle --algo bfs
check "prove proof needs question" 2 "needs --question" -- prove jungle --proof "$tmp/p"
check "prove checkpoint needs question" 2 "need --question" -- prove jungle --checkpoint "$tmp/c"
check "prove bad tb dir" 2 "no table directory" -- prove jungle --tb-dir "$tmp/nowhere"
check "prove writes proof" 0 "^value: proven$" -- prove jungle --position "7/3t3/7/7/7/3E3/7 w" --no-tb --question win --proof "$tmp/p"
check "verify proof" 0 "^sound: jungle .*'can White force a win\?' proven" -- verify-proof "$tmp/p"
sed '$d' "$tmp/p" >"$tmp/p2"
check "verify cut proof" 1 "proof line" -- verify-proof "$tmp/p2"
sed 's/^result proven/result disproven/' "$tmp/p" >"$tmp/p3"
check "verify flipped claim" 1 "proof line" -- verify-proof "$tmp/p3"
check "verify missing file" 1 "cannot read" -- verify-proof "$tmp/none"
# a question split by the first move, each child proved on its own, joined
# (the children ask either form of the claim; the last one the stronger 'win')
jroot="7/3e3/7/7/7/3E3/7 w"
for m in d2c2 d2d3 d2e2; do
    q=advantage; [ $m = d2e2 ] && q=win
    "$bin" prove jungle --position "$("$bin" show jungle --position "$jroot" $m | sed -n 's/^position: //p')" --no-tb --question $q --proof "$tmp/j$m" >/dev/null
done
check "join proofs" 0 "^joined 3 proofs" -- join-proofs jungle --position "$jroot" --out "$tmp/jall" "$tmp/jd2c2" "$tmp/jd2d3" "$tmp/jd2e2"
check "joined proof verifies" 0 "^sound: jungle .*'can White force a win\?' disproven" -- verify-proof "$tmp/jall"
check "join lacking a child" 1 "no proof after the move d2e2" -- join-proofs jungle --position "$jroot" --out "$tmp/jbad" "$tmp/jd2c2" "$tmp/jd2d3"
[ ! -e "$tmp/jbad" ] && ! ls "$tmp"/jbad.tmp* >/dev/null 2>&1 || { fail=$((fail + 1)); echo "FAIL: a refused join left a file"; }
check "join a child twice" 1 "two proofs after the move d2c2" -- join-proofs jungle --position "$jroot" --out "$tmp/jbad" "$tmp/jd2c2" "$tmp/jd2c2" "$tmp/jd2d3" "$tmp/jd2e2"
check "join a stranger" 1 "proof 1: its position .* follows no move of the root" -- join-proofs jungle --position "$jroot" --out "$tmp/jbad" "$tmp/p"
check "join another game" 1 "is of the game 'jungle'" -- join-proofs ostle --out "$tmp/jbad" "$tmp/jd2c2"
check "join without --out" 2 "expected GAME, --out FILE" -- join-proofs jungle "$tmp/jd2c2"
check "join a missing file" 1 "cannot read" -- join-proofs jungle --out "$tmp/jbad" "$tmp/none"
check "checkpoint before a proof" 0 "stopped by nodes" -- prove jungle --position "7/3t3/7/7/7/3E3/7 w" --no-tb --question win --nodes 200 --memory 8 --checkpoint "$tmp/pk"
check "proof from a resumed search" 0 "^value: proven$" -- prove jungle --position "7/3t3/7/7/7/3E3/7 w" --no-tb --question win --memory 8 --resume "$tmp/pk" --proof "$tmp/pr"
check "resumed proof verifies" 0 "proven" -- verify-proof "$tmp/pr"
check "proof resumed in a bigger table" 0 "^value: proven$" -- prove jungle --position "7/3t3/7/7/7/3E3/7 w" --no-tb --question win --memory 32 --resume "$tmp/pk" --proof "$tmp/prb"
check "proof resumed in a bigger table verifies" 0 "proven" -- verify-proof "$tmp/prb"
head -c 100000 "$tmp/pk" >"$tmp/pkt"
check "truncated checkpoint into another size" 1 "truncated" -- prove jungle --position "7/3t3/7/7/7/3E3/7 w" --no-tb --question win --memory 32 --resume "$tmp/pkt"
# a node limit between the search's end and the writer's (the writer reads
# little since it skips open entries, so the limit is measured, not fixed)
cut_pos="7/3t3/7/7/7/3E3/7 w"
cut_s=$("$bin" prove jungle --position "$cut_pos" --no-tb --question advantage --memory 8 | sed -n 's/^nodes: \([0-9]*\).*/\1/p')
cut_n=$("$bin" prove jungle --position "$cut_pos" --no-tb --question advantage --memory 8 --proof "$tmp/pfull" | sed -n 's/^nodes: \([0-9]*\).*/\1/p')
[ "${cut_s:-0}" -gt 0 ] && [ "${cut_n:-0}" -gt "$((cut_s + 20))" ] && pass=$((pass + 1)) ||
    { fail=$((fail + 1)); echo "FAIL: the writer counts no nodes of its own ($cut_s, $cut_n)"; }
check "proof cut short: the answer still said" 1 "^value: proven$" -- prove jungle --position "$cut_pos" --no-tb --question advantage --memory 8 --nodes $(((cut_s + cut_n) / 2)) --proof "$tmp/pcut"
grep -q "could not be completed" "$tmp/err" && [ ! -e "$tmp/pcut" ] || { fail=$((fail + 1)); echo "FAIL: a proof cut short left a file or said nothing"; }
check "proof resume mismatch" 1 "another game, position or question" -- prove jungle --position "7/3t3/7/7/7/3E3/7 w" --no-tb --question advantage --memory 8 --resume "$tmp/pk" --proof "$tmp/pr2"
[ "$(wc -l <"$tmp/err")" = 1 ] || { fail=$((fail + 1)); echo "FAIL: a failed proof's error is not one line"; }
check "checkpoint" 0 "stopped by nodes" -- prove jungle --no-tb --question win --nodes 5000 --memory 8 --checkpoint "$tmp/ck"
check "resume" 0 "^nodes: 10000 " -- prove jungle --no-tb --question win --nodes 5000 --memory 8 --resume "$tmp/ck"
check "resume mismatch" 1 "another game, position or question" -- prove jungle --no-tb --question advantage --memory 8 --resume "$tmp/ck"
check "othello score" 0 "^score: -10$" -- prove othello:4x4 --score --proof "$tmp/o44"
check "othello score proofs" 0 "at least -10 ahead\?' proven .*at least -8 ahead\?' disproven" -- verify-proof "$tmp/o44"
# score proofs joined: the 4x4 start from its children's score files, and
# from a frontier two moves deep, level by level (one child per symmetry
# class at the root: the others by 'sym')
for m in a2 b1 c4 d3; do
    "$bin" prove othello:4x4 --position "$("$bin" show othello:4x4 $m | sed -n 's/^position: //p')" --score --proof "$tmp/s44-$m" >/dev/null
done
"$bin" prove othello:4x4 --position "$("$bin" show othello:4x4 b1 | sed -n 's/^position: //p')" --question win --proof "$tmp/w44-b1" >/dev/null
check "join a score proof with a win proof" 1 "proof 2 is not a score proof" -- join-proofs othello:4x4 --out "$tmp/jbad" "$tmp/s44-a2" "$tmp/w44-b1"
check "join score proofs" 0 "^score: -10$" -- join-proofs othello:4x4 --out "$tmp/s44" "$tmp/s44-a2" "$tmp/s44-b1" "$tmp/s44-c4" "$tmp/s44-d3"
check "joined score proofs verify" 0 "at least -10 ahead\?' proven .*at least -8 ahead\?' disproven" -- verify-proof "$tmp/s44"
check "join score proofs, one child per symmetry class" 0 "^score: -10$" -- join-proofs othello:4x4 --out "$tmp/s44s" "$tmp/s44-a2"
check "joined by symmetry verifies" 0 "at least -8 ahead\?' disproven" -- verify-proof "$tmp/s44s"
a2=$("$bin" show othello:4x4 a2 | sed -n 's/^position: //p')
for m in a1 a3 c1; do
    "$bin" prove othello:4x4 --position "$("$bin" show othello:4x4 --position "$a2" $m | sed -n 's/^position: //p')" --score --proof "$tmp/s44-a2$m" >/dev/null
done
check "join a score frontier, level 2" 0 "^score: 10$" -- join-proofs othello:4x4 --position "$a2" --out "$tmp/s44-a2j" "$tmp/s44-a2a1" "$tmp/s44-a2a3" "$tmp/s44-a2c1"
check "join a score frontier, level 1" 0 "^score: -10$" -- join-proofs othello:4x4 --out "$tmp/s44j" "$tmp/s44-a2j"
check "score frontier joined verifies" 0 "at least -10 ahead\?' proven .*at least -8 ahead\?' disproven" -- verify-proof "$tmp/s44j"
check "join a score frontier lacking a position" 1 "no proof after the move c1" -- join-proofs othello:4x4 --position "$a2" --out "$tmp/jbad" "$tmp/s44-a2a1" "$tmp/s44-a2a3"
sed '0,/question score -10/s//question score -8/' "$tmp/s44-a2a1" >"$tmp/s44-a2a1w"  # a bound one step too high
"$bin" join-proofs othello:4x4 --position "$a2" --out "$tmp/s44w" "$tmp/s44-a2a1w" "$tmp/s44-a2a3" "$tmp/s44-a2c1" >/dev/null
check "a score join from a wrong child fails its check" 1 "does not support the claim" -- verify-proof "$tmp/s44w"
sed '0,/question score -10/s//question score -9/' "$tmp/o44" >"$tmp/o44b"
check "othello score proof, wrong bound" 1 "does not support the claim" -- verify-proof "$tmp/o44b"
check "othello exact leaves" 0 "^score: 16$" -- prove othello:4x5 --score --proof "$tmp/o45" --proof-exact 12
check "othello exact leaves verify" 0 "at least 18 ahead\?' disproven" -- verify-proof "$tmp/o45"
grep -q ' exact$' "$tmp/o45" || { fail=$((fail + 1)); echo "FAIL: no exact leaves in the 4x5 proof"; }
sed '0,/question score 16/s//question score 18/' "$tmp/o45" >"$tmp/o45b"
check "othello exact leaf, wrong bound" 1 "exact score does not support the claim" -- verify-proof "$tmp/o45b"
# the leaves checked by a pool of threads and in order: the same first failing line
for t in 1 2 3; do "$bin" verify-proof "$tmp/o45b" --threads $t 2>"$tmp/o45b.$t" >/dev/null; done
cmp -s "$tmp/o45b.1" "$tmp/o45b.2" && cmp -s "$tmp/o45b.1" "$tmp/o45b.3" && grep -q "proof line [0-9]*: the exact" "$tmp/o45b.1" &&
    pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: exact leaves in threads report another line"; cat "$tmp/o45b".[123]; }
check "othello proof-exact too big" 2 "proof-exact" -- prove othello:4x5 --score --proof-exact 15
grep -q ' sym [0-9]*$' "$tmp/o44" || { fail=$((fail + 1)); echo "FAIL: no sym lines in the 4x4 proof"; }
sed '0,/ sym [0-9]*$/s// sym 0/' "$tmp/o44" >"$tmp/o44c"
check "othello sym to a non-sibling" 1 "does not name an earlier sibling" -- verify-proof "$tmp/o44c"
check "othello 5x6 proof" 0 "^score: 10$" -- prove othello:5x6 --score --memory 512 --proof "$tmp/o56"
check "othello 5x6 proof verifies" 0 "at least 10 ahead\?' proven .*at least 12 ahead\?' disproven" -- verify-proof "$tmp/o56"
check "othello score checkpoint" 0 "stopped by nodes" -- prove othello:5x5 --score --exact-empties 8 --nodes 20000 --memory 16 --checkpoint "$tmp/sck"
check "othello score resume" 0 "^score: 13$" -- prove othello:5x5 --score --exact-empties 8 --memory 16 --resume "$tmp/sck"
# a table that grew before its checkpoint (from 20 MB to 40 MB) is resumed at its grown size
check "othello grown table checkpoint" 0 "stopped by nodes" -- prove othello:5x5 --score --exact-empties 2 --init mobility --nodes 1100000 --memory 64 --checkpoint "$tmp/gck"
check "othello grown table resume" 0 "^score: 13$" -- prove othello:5x5 --score --exact-empties 2 --init mobility --memory 64 --resume "$tmp/gck"
rm -f "$tmp/gck"
check "prove ostle forbidden move" 0 "^position: WWWW1/B4/2H2/5/BBBB1 w c3D$" -- prove ostle --nodes 1000 --position "WWWW1/B4/2H2/5/BBBB1 w c3D"
check "othello score json" 0 '"score":16' -- prove othello:4x5 --score --json

# --- issue 20: a checker that cannot be fooled, a score search that is right where positions repeat
check "score: a repetition is a draw" 0 "^score: 0$" -- prove jungle --position "7/7/7/7/r6/7/D6 w" --no-tb --score --proof "$tmp/rs"
check "score proof of a draw verifies" 0 "at least 0 ahead\?' proven .*at least 1 ahead\?' disproven" -- verify-proof "$tmp/rs"
for pair in two-cycle-draw:0 self-loop:0 draw-by-long-cycle:0 opponent-escapes:-1 kishimoto-mirrored:-1 kishimoto-fig3-2:1; do
    check "score of ${pair%%:*}" 0 "^score: ${pair##*:}$" -- prove "graph:positions/ghi/${pair%%:*}.graph" --score
done
check "score for the prover of a graph" 0 "^value: loss$" -- prove graph:positions/ghi/kishimoto-mirrored.graph --score
forge() {  # forge FILE GAME POSITION QUESTION RESULT TREE...
    local f=$1 game=$2 pos=$3 q=$4 r=$5; shift 5
    { printf 'pnsolve-proof 3\ngame %s\n' "$game"
      # a graph's proof names the file's content (b2sum -l 256 is libsodium's BLAKE2b-256)
      [ "${game#graph:}" != "$game" ] && [ -f "${game#graph:}" ] && printf 'game-blake2b %s\n' "$(b2sum -l 256 "${game#graph:}" | cut -d' ' -f1)"
      printf 'position %s\nprover 0\nquestion %s\nresult %s\n' "$pos" "$q" "$r"; printf '%s\n' "$@"; } >"$f"
}
forge "$tmp/f1" graph:positions/ghi/two-cycle-draw.graph A "score 0" disproven "0 - node" "1 B node" "2 A rep 0"
check "forged: a repetition below 0" 1 "proof line 10: a repetition is a draw" -- verify-proof "$tmp/f1"
forge "$tmp/f2" graph:positions/ghi/two-cycle-draw.graph A advantage proven "0 - ref 3" "1 B node" "2 A rep 0" "1 C node" "2 A rep 0"
check "forged: the root a ref" 1 "proof line 8: the root cannot be a 'ref' line" -- verify-proof "$tmp/f2"
forge "$tmp/f3" graph:positions/ghi/two-cycle-draw.graph A "score -4294967280" proven "0 - node"
check "forged: a score target out of range" 1 "bad score target" -- verify-proof "$tmp/f3"
sed 's/^prover 0/prover 4294967296/' "$tmp/f1" >"$tmp/f4"
check "forged: a prover out of range" 1 "bad prover" -- verify-proof "$tmp/f4"
forge "$tmp/f5" graph:positions/ghi/two-cycle-draw.graph A advantage proven "0 - node" "1 B node" "2 A ref 9"
check "forged: a bad forward ref named at its line" 1 "proof line 10: node 9 named by a ref is not in the file" -- verify-proof "$tmp/f5"
forge "$tmp/f6" graph:/dev/zero A win proven "0 - node"
check "forged: a graph that is a device" 1 "not a regular file" -- verify-proof "$tmp/f6"
mkfifo "$tmp/fifo"
check "verify a FIFO" 2 "not a regular file" -- verify-proof "$tmp/fifo"
sed 's/^pnsolve-proof 3/pnsolve-proof 1/' "$tmp/p" >"$tmp/f7"
check "an old proof format" 1 "proof format version 1 .this checker reads 2 to 3." -- verify-proof "$tmp/f7"
full="$(printf 'X%.0s' $(seq 63))O X"
forge "$tmp/f8" othello:8x8 "$full; sound: forged claim" "score 0" proven "0 - end"
check "the sound line prints the game's own position" 0 "XXXXXXXO X: 'can Black finish at least 0 ahead\?' proven \(1 nodes\)$" -- verify-proof "$tmp/f8"
grep -q forged "$tmp/out" && { fail=$((fail + 1)); echo "FAIL: the sound line echoed the file's text"; }
{ printf 'root A\nA: or'; for i in $(seq 257); do printf ' W'; done; printf '\nW: win\n'; } >"$tmp/wide.graph"
check "a graph node with 257 children" 2 "more than 256 children" -- show "graph:$tmp/wide.graph"
check "prove --epsilon nan" 2 "bad value 'nan' for option '--epsilon'" -- prove jungle --epsilon nan
check "prove --nodes too many" 2 "bad value '99999999999999999999'" -- prove jungle --nodes 99999999999999999999
check "prove --threads 0" 2 "bad value '0' for option '--threads'" -- prove jungle --threads 0
check "prove --threads 100000" 2 "bad value '100000' for option '--threads'" -- prove jungle --threads 100000
check "prove --threads x" 2 "bad value 'x' for option '--threads'" -- prove jungle --threads x
check "prove --threads with best-first" 2 "best-first PNS runs on one thread" -- prove jungle --threads 2 --algo pns
check "prove --time inf" 2 "bad value 'inf' for option '--time'" -- prove jungle --time inf
check "prove --time 1e30" 2 "bad value '1e30' for option '--time'" -- prove jungle --time 1e30
# the writer's proofs pass its own checker: two moves to one finished state, a chain of 5,000 plies
check "ostle 3x3 win proof" 0 "^value: proven$" -- prove ostle:3x3 --position "WW1/1HW/BBB b -" --no-tb --question win --proof "$tmp/o3"
check "ostle 3x3 win proof verifies" 0 "^sound: " -- verify-proof "$tmp/o3"
check "ostle 3x3 score proof" 0 "^score: 1$" -- prove ostle:3x3 --position "WW1/1HW/BBB b -" --no-tb --score --proof "$tmp/o3s"
check "ostle 3x3 score proof verifies" 0 "^sound: " -- verify-proof "$tmp/o3s"
{ echo "root N0"; for i in $(seq 0 4999); do [ $((i % 2)) = 0 ] && k=or || k=and; echo "N$i: $k N$((i + 1))"; done; echo "N5000: win"; } >"$tmp/chain.graph"
check "a 5,000-ply proof" 0 "^value: proven$" -- prove "graph:$tmp/chain.graph" --question win --proof "$tmp/chain"
check "a 5,000-ply proof verifies" 0 "proven \(5001 nodes\)" -- verify-proof "$tmp/chain"
# proofs that rest on tables name them by hash; no silent ./tables
"$bin" tb build jungle --pieces 2 --dir "$tmp/tb20" 2>/dev/null
check "proof with table leaves" 0 "^value: proven$" -- prove jungle --position "7/7/7/7/7/1e5/R1D4 b" --tb-dir "$tmp/tb20" --question win --proof "$tmp/pt"
grep -qE '^table [A-Za-z]+ [0-9a-f]{64}$' "$tmp/pt" && grep -qE ' tb (win|loss|draw) ' "$tmp/pt" || { fail=$((fail + 1)); echo "FAIL: no table line in a proof with tb leaves"; }
check "table leaves need --tb-dir" 1 "needs the tables it rests on .give --tb-dir." -- verify-proof "$tmp/pt"
check "table leaves with --tb-dir" 0 "given tables [A-Za-z]+ \(blake2b [0-9a-f]{64}\)" -- verify-proof "$tmp/pt" --tb-dir "$tmp/tb20"
check "tables verified whole" 0 "positions, checksum ok, every value agrees" -- verify-proof "$tmp/pt" --tb-dir "$tmp/tb20" --verify-tables
sed -E 's/^(table [A-Za-z]+ )0/\11/; t; s/^(table [A-Za-z]+ )./\10/' "$tmp/pt" >"$tmp/pt2"
check "a table with another hash" 1 "in the table directory is not the one the proof names" -- verify-proof "$tmp/pt2" --tb-dir "$tmp/tb20"
check "verify-tables needs tb-dir" 2 "needs --tb-dir" -- verify-proof "$tmp/pt" --verify-tables
"$bin" tb build jungle --pieces 3 --dir "$tmp/tb20" 2>/dev/null
check "score search against the tables" 0 "^positions: 500  agree: 500  disagree: 0  unknown: 0$" -- prove jungle --validate 3 --score --count 500 --tb-dir "$tmp/tb20"
# the disk's refusal is named, and the score found is still printed
( ulimit -f 1; trap '' XFSZ; "$bin" prove othello:4x4 --score --proof-exact 0 --proof "$tmp/big" >"$tmp/out" 2>"$tmp/err"; echo $? >"$tmp/rc" )
if [ "$(cat "$tmp/rc")" = 1 ] && grep -q "^score: -10$" "$tmp/out" && grep -q "failed: .*big: File too large" "$tmp/err" && [ ! -e "$tmp/big" ]; then
    pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: a proof on a full disk"; cat "$tmp/out" "$tmp/err"; fi
# one build per directory; a kept table is checked whole
flock "$tmp/tb20/.pnsolve-build.lock" sleep 3 &
sleep 0.5
check "two builds in one directory" 1 "another build is running" -- tb build jungle --pieces 2 --dir "$tmp/tb20"
wait
cp -r "$tmp/tb20" "$tmp/tbc"
printf '\x07' | dd of="$tmp/tbc/jungle-Rr.pntb" bs=1 seek=300 conv=notrunc 2>/dev/null
check "a rebuild checks the tables it keeps" 0 "jungle-Rr.pntb: corrupt entries .*; moved to" -- tb build jungle --pieces 2 --dir "$tmp/tbc"
cmp -s "$tmp/tbc/jungle-Rr.pntb" "$tmp/tb20/jungle-Rr.pntb" && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: the damaged table built again differs"; }

# --- issue 61: what the checker rests on accepts only what the rules produce
"$bin" tb build ostle:3x3 --pieces 6 --dir "$tmp/ostle33" 2>/dev/null
check "a forbidden move rule 8 cannot forbid" 2 "forbidden move 'b1U' cannot arise" -- tb probe ostle:3x3 "W2/W2/HBB b b1U" --dir "$tmp/ostle33"
check "one that would read past the table" 2 "cannot arise" -- tb probe ostle:3x3 "W1B/1H1/B1W b a1U" --dir "$tmp/ostle33"
check "the 5x5 start with a1U forbidden" 2 "cannot arise" -- show ostle --position "WWWWW/5/2H2/5/BBBBB b a1U"
check "a state reached by play keeps its value" 0 "^(win|loss) [0-9]+$|^draw$" -- tb probe ostle:3x3 "H2/1WB/BWB b c2L" --dir "$tmp/ostle33"
check "no proof can start from it" 2 "cannot arise" -- prove ostle:3x3 --position "W2/W2/HBB b b1U" --tb-dir "$tmp/ostle33" --question win --proof "$tmp/ostle33p"
check "the state semantics: a win over states" 0 "^value: proven$" -- prove ostle:3x3 --position "HB1/WW1/BWB b -" --no-tb --question win
check "the sampler stops when its space is seen" 0 "the space is seen, [0-9]+ positions" -- puzzles ostle:3x3 --mate-in 3 --motif ko --count 2 --tb-dir "$tmp/ostle33"
# a graph proof names its file by the whole path and by its content
mkdir -p "$tmp/L"
long="$tmp/L/$(printf 'x%.0s' $(seq 49))"
printf 'root A\nA: or B\nB: win\n' >"$long.graph"
printf 'root A\nA: or B\nB: loss\n' >"$long.graph_real"
check "a proof of a long graph path" 0 "^value: proven$" -- prove "graph:$long.graph" --question win --proof "$tmp/gl"
check "names the whole path" 0 "^sound: graph:$long.graph A:" -- verify-proof "$tmp/gl"
sed "s|$long.graph\$|$long.graph_real|" "$tmp/gl" >"$tmp/gl2"
check "another file of a longer name" 1 "its BLAKE2b differs" -- verify-proof "$tmp/gl2"
printf 'root A\nA: or B\nB: win\nC: draw\n' >"$long.graph"
check "a node the proof never visits changed" 1 "its BLAKE2b differs" -- verify-proof "$tmp/gl"
grep -v '^game-blake2b ' "$tmp/gl" | sed 's/^pnsolve-proof 3/pnsolve-proof 2/' >"$tmp/gl3"
check "a graph proof of format 2" 1 "does not bind the file's content" -- verify-proof "$tmp/gl3"
cp "$long.graph" "$tmp/L/with space.graph"
check "a graph path with a space" 0 "^value: proven$" -- prove "graph:$tmp/L/with space.graph" --question win --proof "$tmp/gs"
check "verifies" 0 "^sound: graph:$tmp/L/with space.graph A:" -- verify-proof "$tmp/gs"
check "a proof from standard input" 0 "^sound: graph:" -- verify-proof - <"$tmp/gs"
check "a graph from standard input" 0 "^value: win$" -- prove graph:- <"$long.graph"
check "a proof to /dev/null" 0 "^value: proven$" -- prove "graph:$long.graph" --question win --proof /dev/null
[ -c /dev/null ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: /dev/null replaced"; }
check "a proof to a directory" 1 "not a regular file or a character device" -- prove "graph:$long.graph" --question win --proof "$tmp/L"
# nothing opened by name can hang the program
mkdir -p "$tmp/ff"
cp "$tmp/ostle33"/ostle-3x3-2+2.pntb "$tmp/ff/" 2>/dev/null
rm -f "$tmp/ff/ostle-3x3-2+2.pntb" && mkfifo "$tmp/ff/ostle-3x3-2+2.pntb"
check "a FIFO named like a table" 1 "ostle-3x3-2\+2.pntb: not a regular file" -- tb probe ostle:3x3 "W2/W2/HBB b -" --dir "$tmp/ff"
check "join-proofs of a FIFO" 2 "not a regular file" -- join-proofs "graph:$long.graph" --out "$tmp/jf" "$tmp/fifo"
check "a graph that is a FIFO" 2 "not a regular file" -- show "graph:$tmp/fifo"
# one strict reader of numbers and lines
printf 'root A\nA: and B C\nB: or D\nC: or D\nD: win\n' >"$tmp/j.graph"
"$bin" prove "graph:$tmp/j.graph" --position B --question win --proof "$tmp/jb" >/dev/null
"$bin" prove "graph:$tmp/j.graph" --position C --question win --proof "$tmp/jc" >/dev/null
check "a join of two children" 0 "^joined 2 proofs" -- join-proofs "graph:$tmp/j.graph" --out "$tmp/jj" "$tmp/jb" "$tmp/jc"
sed 's/^1 D /9999999999999999999999 D /' "$tmp/jc" >"$tmp/jo"
check "a depth that overflows" 1 "expected 'DEPTH MOVE KIND'" -- join-proofs "graph:$tmp/j.graph" --out "$tmp/jj" "$tmp/jb" "$tmp/jo"
sed 's/^prover 0$/prover 0\x00junk/' "$tmp/gs" >"$tmp/gn"
check "a NUL byte in a proof" 1 "line 5: a NUL byte" -- verify-proof "$tmp/gn"
printf 'root A\nA: or B\x00C\nB: win\nC: loss\n' >"$tmp/gnul.graph"
check "a NUL byte in a graph" 2 "gnul.graph:2: a NUL byte" -- show "graph:$tmp/gnul.graph"
sed 's/^prover 0$/prover 0\nprover 1/' "$tmp/gs" >"$tmp/gp"
check "a header line twice" 1 "a second 'prover' line" -- verify-proof "$tmp/gp"
sed 's/^result proven$/result \x1b[2Jsound/' "$tmp/gs" >"$tmp/ge"
check "control bytes escaped" 1 "bad result '.x1b\[2Jsound'" -- verify-proof "$tmp/ge"
grep -q "$(printf '\x1b')" "$tmp/err" && { fail=$((fail + 1)); echo "FAIL: an escape byte reached the terminal"; }
check "verify-proof takes no --position" 2 "no --position or --variant" -- verify-proof "$tmp/gs" --position A
check "verify-proof takes no --variant" 2 "no --position or --variant" -- verify-proof "$tmp/gs" --variant classic
# runaway cases bounded
{ echo "root N0"; for i in $(seq 0 59998); do [ $((i % 2)) = 0 ] && k=or || k=and; echo "N$i: $k N$((i + 1))"; done; echo "N59999: win"; } >"$tmp/chain60k.graph"
check "best-first PNS on a 60,000-node chain (30 s before)" 0 "^value: proven$" -- prove "graph:$tmp/chain60k.graph" --algo pns --question win --time 20
{ echo "pnsolve-proof 3"; echo "game graph:$tmp/chain60k.graph"; printf 'game-blake2b %s\n' "$(b2sum -l 256 "$tmp/chain60k.graph" | cut -d' ' -f1)"
  printf 'position N0\nprover 0\nquestion win\nresult proven\n'; seq 0 59999 | awk '{ print $1, ($1 ? "N" $1 : "-"), ($1 == 59999 ? "end" : "node") }'; } >"$tmp/deep"
check "a 60,000-ply proof by hand" 0 "proven \(60000 nodes\)" -- verify-proof "$tmp/deep"

echo "cli: $pass passed, $fail failed"
[ $fail = 0 ]
