#!/usr/bin/env bash
# tests/trust.sh PNSOLVE - the pipeline around the proof checker tried as an
# adversary would (issue 84): every consumer of a proof compares the claim
# the checker reads with the claim it expects; a campaign binds its game as
# a proof does; status only reads; no output overwrites an input.  Each
# case here certified a false claim, or lost a file, before.  Where a value
# is at stake it is the one a plain run of the same question gives (itself
# checked against naive search in the C tests), never a number written here.
set -u
bin=$1
pass=0 fail=0
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; [ -f "$tmp/err" ] && head -3 "$tmp/err"; }
run() { "$bin" "$@" >"$tmp/out" 2>"$tmp/err"; }  # its status; output in $tmp/out, $tmp/err

# 1. A header line after a comment is read: a sound proof of "can Black
# finish at least -10 ahead?" on 4x4 Othello, its question line moved
# before a comment and its prover line, is adopted as what it proves.
run prove othello:4x4 --question score:-10 --proof "$tmp/s.proof" --memory 64
awk 'NR==4{p=$0; next} NR==5{print; print "# a comment"; print p; next}1' "$tmp/s.proof" >"$tmp/sc.proof"
run campaign run "$tmp/c0" othello:4x4 --question score --depth 1 --memory 64
truth=$(sed -n 's/^score: //p' "$tmp/out")
"$bin" verify-proof "$tmp/sc.proof" | grep -q "'can Black finish at least -10 ahead?' proven" &&
    run campaign import "$tmp/c1" othello:4x4 --question score --depth 1 --memory 64 "$tmp/sc.proof" &&
    run campaign run "$tmp/c1" othello:4x4 --question score --depth 1 --memory 64 &&
    [ -n "$truth" ] && grep -q "^score: $truth$" "$tmp/out" && run campaign verify "$tmp/c1" --all &&
    ok || bad "a commented score proof imported as what it proves (the plain run: '$truth')"
# the same with a tic-tac-toe position the mover wins: its "can X force a
# win?" proven, so commented, was adopted as "X cannot avoid losing"
run campaign run "$tmp/tw" tictactoe --question win --depth 2
line=$(grep -m1 "^answer 1 proven " "$tmp/tw/journal")
pos=${line#answer 1 proven * * * }
run prove tictactoe --position "$pos" --question win --proof "$tmp/t.proof"
awk 'NR==4{p=$0; next} NR==6{print; print "# a comment"; print p; next}1' "$tmp/t.proof" >"$tmp/tc.proof"
run campaign run "$tmp/t0" tictactoe --position "$pos" --question advantage --depth 1
truth=$(grep "^advantage: " "$tmp/out")
[ -n "$line" ] && run campaign import "$tmp/t1" tictactoe --position "$pos" --question advantage --depth 1 "$tmp/tc.proof" &&
    run campaign run "$tmp/t1" tictactoe --position "$pos" --question advantage --depth 1 && [ -n "$truth" ] &&
    grep -q "^$truth$" "$tmp/out" && ok || bad "a commented tic-tac-toe proof imported as what it proves ('$truth')"

# 2. The variant is part of the game: a proof under the default Jungle rules
# answers no --variant classic campaign.
run prove jungle --position "6e/6R/7/7/7/7/7 b" --question win --no-tb --proof "$tmp/j.proof"
run campaign import "$tmp/jc" jungle --variant classic --position "6e/6R/7/7/7/7/7 b" --question win --depth 1 --no-tb \
    "$tmp/j.proof"
[ $? = 1 ] && grep -q "not of the campaign's jungle:classic" "$tmp/err" && ok || bad "a default-rules proof in a classic campaign"
run campaign run "$tmp/jc" jungle --variant classic --position "6e/6R/7/7/7/7/7 b" --question win --depth 1 --no-tb
want=$("$bin" prove jungle --variant classic --position "6e/6R/7/7/7/7/7 b" --question win --no-tb | sed -n 's/^value: //p')
grep -q "^win: $want$" "$tmp/out" && ok || bad "the classic campaign's answer is classic's ('$want')"

# 3. campaign verify compares each answer's claim with its journal line:
# an answer "the mover wins" whose file proves only "avoids losing" (sound,
# weaker) fails; so does a proof about graph node AB standing for node A.
file=$(grep -l "^position $pos$" "$tmp"/tw/p/*.1.proof | head -1)
if [ -n "$line" ] && [ -n "$file" ]; then
    run prove tictactoe --position "$pos" --question advantage --proof "$tmp/weak.proof" && cp "$tmp/weak.proof" "$file"
    run campaign verify "$tmp/tw" --all
    [ $? = 1 ] && grep -q "journal line [0-9]*: .*avoids losing" "$tmp/err" && ok || bad "a weaker claim under a win answer"
    run campaign run "$tmp/tw" tictactoe --question win --depth 2
    [ $? = 1 ] && grep -q "journal line [0-9]*: " "$tmp/err" && ok || bad "a rerun names the journal line of a weaker answer"
else
    bad "no 'win proven' answer in a tic-tac-toe campaign"
fi
printf 'root R\nR: or A AB\nA: and\nAB: and\n' >"$tmp/ab.graph"
run campaign run "$tmp/ga" "graph:$tmp/ab.graph" --question win --depth 1
a=$(grep -l "^position A$" "$tmp"/ga/p/*.proof)
# A and AB are alike: A's proof about AB is sound, and names a position holding "A"
[ -n "$a" ] && sed -i 's/^position A$/position AB/' "$a" && "$bin" verify-proof "$a" | grep -q "^sound: .* AB:" &&
    ! run campaign verify "$tmp/ga" --all && grep -q "it is about AB, not A" "$tmp/err" &&
    ok || bad "a proof of node AB standing for node A"

# 4. A campaign binds its graph by content: edited, it is not resumed.
run campaign run "$tmp/ge" "graph:$tmp/ab.graph" --question win --depth 1
printf 'root R\nR: or A AB\nA: or\nAB: or\n' >"$tmp/ab.graph"
run campaign run "$tmp/ge" "graph:$tmp/ab.graph" --question win --depth 1
[ $? = 1 ] && grep -q "has changed since the campaign began" "$tmp/err" && ok || bad "an edited graph's campaign resumed"
run campaign status "$tmp/ge"
[ $? = 1 ] && grep -q "has changed since the campaign began" "$tmp/err" && ok || bad "an edited graph's campaign status"

# 9. status and verify only read; a killed run's temporaries are swept;
# status names the variant and the question.
run campaign run "$tmp/ro" tictactoe --question advantage --depth 2
rm -f "$tmp"/ro/j/* "$tmp/ro/result.proof"
before=$(cd "$tmp/ro" && find . | sort)
run campaign status "$tmp/ro" && grep -q "question advantage" "$tmp/out" && run campaign status "$tmp/ro" --json &&
    grep -q '"question":"advantage"' "$tmp/out" && grep -q '"variant":"default"' "$tmp/out" &&
    ! run campaign verify "$tmp/ro" --all && grep -q "result.proof is missing" "$tmp/err" &&
    [ "$(cd "$tmp/ro" && find . | sort)" = "$before" ] && ok || bad "status and verify wrote into the campaign"
run campaign status "$tmp/jc" && grep -q -- "variant classic" "$tmp/out" && ok || bad "status names the variant"
: >"$tmp/ro/p/0123.1.proof.tmp.4242"
: >"$tmp/ro/result.proof.tmp"
run campaign run "$tmp/ro" tictactoe --question advantage --depth 2 && [ ! -e "$tmp/ro/p/0123.1.proof.tmp.4242" ] &&
    [ ! -e "$tmp/ro/result.proof.tmp" ] && run campaign verify "$tmp/ro" --all && ok || bad "a killed run's temporaries swept"

# 7. No output replaces an input or another output: refused before any
# work (exit 2, one line), the files as they were.
printf 'root R\nR: or A\nA: and\n' >"$tmp/g.graph"
cp "$tmp/g.graph" "$tmp/g.copy"
ln -s g.graph "$tmp/g.link"
cp "$tmp/t.proof" "$tmp/keep.proof"
for args in "prove tictactoe --question win --proof $tmp/keep.proof --dot $tmp/keep.proof" \
            "prove graph:$tmp/g.graph --question win --proof $tmp/g.graph" \
            "prove graph:$tmp/g.graph --question win --proof $tmp/g.link" \
            "prove graph:$tmp/g.graph --question win --proof $tmp/../$(basename "$tmp")/g.graph" \
            "prove tictactoe --question win --proof $tmp/new.proof --trace $tmp/new.proof" \
            "show graph:$tmp/g.graph --dot $tmp/g.graph" \
            "join-proofs graph:$tmp/g.graph --out $tmp/keep.proof $tmp/keep.proof" \
            "tb reach ostle:3x3 --dir $tmp --checkpoint $tmp/new.proof --unreached $tmp/new.proof"; do
    # shellcheck disable=SC2086
    run $args
    [ $? = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "name one file" "$tmp/err" && cmp -s "$tmp/g.graph" "$tmp/g.copy" &&
        cmp -s "$tmp/keep.proof" "$tmp/t.proof" && [ ! -e "$tmp/new.proof" ] && ok || bad "refused: $args"
done

# 5. A bdd save carries a checksum: its step moved on, or a node line's two
# children swapped, and the save is refused by name, not resumed.
run bdd othello:4x4 --algo 4 --save "$tmp/bs" --iterations 5
sv="$tmp/bs/othello-4x4-algo4.bddsave"
cp "$sv" "$tmp/bs.orig"
sed -i 's/^\(side [01] step \)\([0-9]*\)/echo "\1$((\2 + 1))"/e' "$sv"
run bdd othello:4x4 --algo 4 --save "$tmp/bs"
[ $? = 1 ] && grep -q "othello-4x4-algo4.bddsave: damaged" "$tmp/err" && ok || bad "a bdd save with its step edited"
cp "$tmp/bs.orig" "$sv"
awk '!done && NF == 4 && /^[0-9 ]+$/ && $3 != $4 { print $1, $2, $4, $3; done = 1; next } 1' "$tmp/bs.orig" >"$sv"
! cmp -s "$sv" "$tmp/bs.orig" && run bdd othello:4x4 --algo 4 --save "$tmp/bs"
[ $? = 1 ] && grep -q "othello-4x4-algo4.bddsave: damaged" "$tmp/err" && ok || bad "a bdd save with a node's children swapped"

# 4 (saved states). A prove --checkpoint carries its tables' checksum: a
# byte of an entry changed (a node's numbers) is refused, not resumed.
run prove othello:4x4 --question win --memory 16 --nodes 3000 --checkpoint "$tmp/ck"
cp "$tmp/ck" "$tmp/ck.orig"
size=$(stat -c %s "$tmp/ck")
printf '\x01' | dd of="$tmp/ck" bs=1 seek=$((size / 2)) count=1 conv=notrunc 2>/dev/null
! cmp -s "$tmp/ck" "$tmp/ck.orig" && run prove othello:4x4 --question win --memory 16 --resume "$tmp/ck"
[ $? = 1 ] && grep -q "checkpoint .* is damaged" "$tmp/err" && ok || bad "a damaged prove checkpoint resumed"
run prove othello:4x4 --question win --memory 16 --resume "$tmp/ck.orig" && grep -q "^value: proven\|^value: disproven" "$tmp/out" &&
    ok || bad "a whole prove checkpoint resumed"

# 9. Smaller: pictures of valid proofs drawn whatever their names' length
# or their depth; outputs and inputs checked before a long run; missing
# directories and files named, with exit 1.
long=$(printf 'x%.0s' $(seq 80))
printf 'root R\nR: or %s\n%s: and\n' "$long" "$long" >"$tmp/long.graph"
run prove "graph:$tmp/long.graph" --question win --proof "$tmp/lp" --dot "$tmp/ld" && grep -q "\"$long\"" "$tmp/ld" &&
    ok || bad "prove --dot of a proof naming a node of 80 characters"
run show "graph:$tmp/long.graph" --dot "$tmp/sd" && grep -q "n0 -> n1 \[label=\"$long\"" "$tmp/sd" &&
    ok || bad "show --dot cuts a move's label"
{ echo "root N0"; for i in $(seq 0 599); do echo "N$i: $([ $((i % 2)) = 0 ] && echo or || echo and) N$((i + 1))"; done
  echo "N600: and"; } >"$tmp/chain.graph"
run prove "graph:$tmp/chain.graph" --question win --proof "$tmp/cp" --dot "$tmp/cd" && [ "$(grep -c -- "->" "$tmp/cd")" = 600 ] &&
    ok || bad "prove --dot of a proof 600 plies deep"
run bdd othello:4x4 --algo 5 --tables "$tmp/none"
[ $? = 1 ] && [ ! -s "$tmp/out" ] && grep -q "not solved in .*none: No such file" "$tmp/err" && ok || bad "bdd --tables missing, checked first"
run bdd othello:4x4 --algo 1 --plot "$tmp/none/p.svg"
[ $? = 1 ] && [ ! -s "$tmp/out" ] && grep -q "none/p.svg" "$tmp/err" && ok || bad "bdd --plot unwritable, checked first"
run tb probe jungle "7/7/7/7/7/3r3/R6 w" --dir "$tmp/none"
[ $? = 1 ] && grep -q "no table directory '$tmp/none'" "$tmp/err" && ok || bad "tb probe --dir missing names it"
run verify-proof "$tmp/none.proof"
[ $? = 1 ] && grep -q "cannot read .*none.proof" "$tmp/err" && ok || bad "verify-proof of a missing file exits 1"

echo "trust: $pass passed, $fail failed"
[ "$fail" = 0 ]
