#!/bin/sh
# bench/ffo-fresh.sh PNSOLVE [THREADS] - FFO #40-44 as issue 25 measures them:
# one fresh `prove` process per position, the summed wall time of this
# script (time it from outside: farm-bench -n 3 -- bench/ffo-fresh.sh ...).
# Nothing but the processes runs per position (no interpreter start-up in
# the sum); each score is checked against the file's best move's value.
B=${1:?usage: bench/ffo-fresh.sh PNSOLVE [THREADS]}
T=${2:-1}
F=${FFO:-$(dirname "$0")/../positions/ffo/ffo40-44.obf}
n=0
while IFS= read -r line; do
    n=$((n + 1))
    want=${line#*; }
    want=${want#*:}
    want=${want%%;*}
    got=$("$B" prove othello:8x8 --score --exact-empties 24 --threads "$T" --position "${line%%;*}" 2>/dev/null) || { echo "ffo line $n: prove failed" >&2; exit 1; }
    case "$got" in
    *"score: $((want))"*) ;;
    *) echo "ffo line $n: expected $want, got: $(echo "$got" | grep '^score')" >&2; exit 1 ;;
    esac
done < "$F"
