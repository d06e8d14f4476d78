#!/bin/sh
# tests/layering.sh BUILD - checks, from the built objects, two rules of the
# code's shape: no two source files call each other, directly or around a
# circle (each file's undefined symbols are matched to the file defining
# them), and the library exports only names with a module's prefix (the
# compiler's own __ names, such as the sanitizers', aside).
B=${1:-build}
fail=0

edges=$(for o in $(find "$B/util" "$B/games" "$B/ranking" "$B/tablebase" "$B/pns" "$B/cli" -name '*.o' | sort); do
    f=${o#"$B"/}
    nm "$o" | awk -v f="${f%.o}" '$2 ~ /^[TDRBV]$/ { print "D", f, $3 } $1 == "U" { print "U", f, $2 }'
done | awk '
$1 == "D" { def[$3] = $2; next }
{ use[++n] = $2 " " $3 }
END { for (i = 1; i <= n; i++) { split(use[i], a, " "); if ((a[2] in def) && def[a[2]] != a[1]) print a[1], def[a[2]] } }' | sort -u)

# transitive closure over the file graph; a file that reaches itself is on a circle
circles=$(printf '%s\n' "$edges" | awk '
NF == 2 { r[$1, $2] = 1; node[$1]; node[$2] }
END {
    for (k in node) for (i in node) if ((i, k) in r) for (j in node) if ((k, j) in r) r[i, j] = 1
    for (i in node) if ((i, i) in r) { line = i ":"; for (j in node) if (j != i && (i, j) in r && (j, i) in r) line = line " " j; print line }
}' | sort)
if [ -n "$circles" ]; then
    echo "FAIL: files on a circle of calls (file: the files it calls and is called back by):"
    printf '%s\n' "$circles"
    fail=1
fi

leaked=$(nm -g --defined-only "$B/libpnsolve.a" | awk 'NF == 3 { print $3 }' |
    grep -v "^__" | grep -vE "^(util|game|jungle|ostle|othello|graph|tictactoe|rank|tb|pns)_" | sort -u | tr '\n' ' ')
if [ -n "$leaked" ]; then
    echo "FAIL: libpnsolve.a exports names without a module prefix: $leaked"
    fail=1
fi
[ $fail = 0 ] && echo "layering: no circle between $(printf '%s\n' "$edges" | awk 'NF == 2 { print $1; print $2 }' | sort -u | wc -l) files, every exported name prefixed"
exit $fail
