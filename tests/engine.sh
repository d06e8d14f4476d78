#!/usr/bin/env bash
# tests/engine.sh PNSOLVE - `pnsolve engine` driven through a pipe as a GUI
# would: answers and their ids, errors that leave it reading (garbage, an
# unknown command, a bad field, an illegal move), every move's value from
# the tables and by search, a long search's progress objects, stop during
# it answered with what the search had, quit, and the end of input.
set -u
bin=$1
pass=0 fail=0
tmp=$(mktemp -d)
trap 'exec 3>&- 2>/dev/null; kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT

ok() {  # ok NAME CONDITION-STATUS
    if [ "$2" = 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1"; tail -5 "$tmp/out"; fi
}

"$bin" tb build jungle --pieces 2 --dir "$tmp/tb" >/dev/null 2>&1
# one session through a FIFO: requests are sent, answers read as they come
mkfifo "$tmp/in"
"$bin" engine <"$tmp/in" >"$tmp/out" 2>"$tmp/err" &
pid=$!
exec 3>"$tmp/in"
send() { printf '%s\n' "$1" >&3; }
wait_for() {  # wait_for PATTERN [SECONDS]: 0 once a line of the output matches it
    local i
    for ((i = 0; i < ${2:-10} * 10; i++)); do grep -q -- "$1" "$tmp/out" && return 0; sleep 0.1; done
    return 1
}
send '{"cmd": "version", "id": 1}'
wait_for '^{"version":"[0-9.]*","protocol":1,"id":1}$'; ok "version with its id" $?
send 'this is no JSON'
wait_for '^{"error":"not a JSON object: '; ok "garbage: one error line" $?
send '{"cmd": "moves", "id": 2}'
wait_for '^{"error":"no game yet.*"id":2}$'; ok "a command before a game" $?
send '{"cmd": "game", "game": "jungle", "tables": "'"$tmp/tb"'", "id": 3}'
wait_for '"game":"jungle","tables":true,"id":3}$'; ok "game with its tables" $?
send '{"cmd": "position", "position": "7/7/7/7/7/3r3/R6 w", "id": 4}'
wait_for '^{"position":"7/7/7/7/7/3r3/R6 w","over":false,"id":4}$'; ok "position" $?
send '{"cmd": "probe", "id": 5}'
wait_for '"result":"loss","distance":2,"source":"tables","moves":\[{"move":"a1b1","position":"7/7/7/7/7/3r3/1R5 b","result":"loss","distance":2},.*"id":5}$'
ok "probe: every move's value from the tables, best first" $?
send '{"cmd": "play", "move": "a1b1", "id": 6}'
wait_for '^{"position":"7/7/7/7/7/3r3/1R5 b","over":false,"id":6}$'; ok "play" $?
send '{"cmd": "play", "move": "a1a7", "id": 7}'
wait_for '^{"error":"play: .a1a7. is not a legal move here.*"id":7}$'; ok "an illegal move" $?
send '{"cmd": "frobnicate", "id": 8}'
wait_for '^{"error":"unknown \\"cmd\\" \\"frobnicate\\".*"id":8}$'; ok "an unknown command" $?
send '{"cmd": "prove", "question": "maybe", "id": 9}'
wait_for '^{"error":"prove: \\"question\\" is \\"maybe\\".*"id":9}$'; ok "a bad question" $?
send '{"cmd": "prove", "question": "win", "max_seconds": -1, "id": 10}'
wait_for '^{"error":"prove: a bad \\"max_seconds\\"","id":10}$'; ok "a bad limit named" $?
send '{"cmd": "stop", "id": 11}'
wait_for '^{"error":"stop: no search is running","id":11}$'; ok "stop with no search" $?
# a search too long to end: progress objects, then stop answered with what it had
send '{"cmd": "game", "game": "othello:6x6", "id": 12}'
wait_for '"game":"othello:6x6","tables":false,"id":12}$'; ok "another game" $?
send '{"cmd": "prove", "question": "score", "progress": 0.2, "memory_mb": 64, "id": 13}'
wait_for '^{"progress":{"nodes":[0-9]*,.*"id":13}$' 20; ok "progress objects with the prove's id" $?
send '{"cmd": "moves", "id": 14}'
wait_for '"moves":\["c2","b3","e4","d5"\],"id":14}$'; ok "requests answered while the search runs" $?
send '{"cmd": "prove", "question": "win", "id": 15}'
wait_for '^{"error":"prove: a search is running.*"id":15}$'; ok "one search at a time" $?
t0=$(date +%s.%N)
send '{"cmd": "stop", "id": 16}'
wait_for '^{"stopped":true,"id":16}$'; ok "stop answered" $?
t1=$(date +%s.%N)
grep -q '^{"position":"6x6:.*"question":"score","answer":"open",.*"stopped_by":"interrupt",.*"id":13}$' "$tmp/out"
ok "the stopped search's result, open, under its prove's id" $?
awk -v a="$t0" -v b="$t1" 'BEGIN { exit !(b - a < 3) }'; ok "stop within 3 s" $?
send '{"cmd": "game", "game": "tictactoe", "id": 17}'
send '{"cmd": "probe", "id": 18}'
wait_for '"source":"search","moves":\[.*"result":"draw".*"id":18}$' 30; ok "probe by search where no table covers the position" $?
grep -q '"result":"open"' <(grep '"id":18}$' "$tmp/out"); [ $? = 1 ]; ok "tic-tac-toe's every move settled" $?
send '{"cmd": "prove", "question": "value", "id": 19}'
wait_for '^{"position":".../.../...","question":"value","answer":"proven",.*"result":"draw",.*"line":\[".*"id":19}$' 30
ok "prove value: a draw with its line" $?
send '{"cmd": "game", "game": "othello:6x6", "id": 20}'
send '{"cmd": "prove", "question": "value", "id": 21}'
sleep 0.3
send '{"cmd": "quit"}'
exec 3>&-
timeout 10 tail --pid="$pid" -f /dev/null; wait "$pid"; ok "quit stops a running search and ends with status 0" $?
grep -q '"answer":"open",.*"stopped_by":"interrupt".*"id":21}$' "$tmp/out"; ok "the search quit stopped answers" $?
[ ! -s "$tmp/err" ]; ok "nothing on stderr" $?
# the end of input during a search: it finishes within its limits and answers
printf '%s\n' '{"cmd": "game", "game": "othello:4x4"}' '{"cmd": "prove", "question": "score", "id": "e"}' |
    timeout 60 "$bin" engine >"$tmp/out" 2>&1
[ $? = 0 ] && grep -q '"answer":"proven",.*"score":-10,.*"id":"e"}$' "$tmp/out"
ok "the end of input lets a search answer (4x4: -10)" $?
printf '%s\n' '{"cmd": "game", "game": "othello:6x6"}' '{"cmd": "prove", "question": "value", "max_seconds": 0.5, "id": "t"}' |
    timeout 20 "$bin" engine >"$tmp/out" 2>&1
[ $? = 0 ] && grep -q '"answer":"open",.*"stopped_by":"time".*"id":"t"}$' "$tmp/out"
ok "a search's own limit ends it after the end of input" $?
check_usage=$("$bin" engine extra 2>&1); [ $? = 2 ] && [ "$(printf '%s\n' "$check_usage" | wc -l)" = 1 ]
ok "engine with an argument: usage, one line" $?
echo "engine: $pass passed, $fail failed"
[ $fail = 0 ]
