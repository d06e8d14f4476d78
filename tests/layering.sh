#!/bin/sh
# tests/layering.sh BUILD - checks, from the built objects and the sources,
# the rules of the code's shape (docs/design.md):
#  1. no two source files call each other, directly or around a circle (each
#     file's undefined symbols are matched to the file defining them);
#  2. calls between modules go down the order util, ranking, games,
#     symbolic, tbfile, tablebase, tbbuild, tblayers, tbreach, proof, pns,
#     pwrite, puzzle, campaign, render, api, cli, never up (so proof/, the
#     checker, calls no search: pns_dfpn_*, pns_tt_*, pns_search_* or any
#     pns_; and pns/, the search, no proof writer: pwrite_* or proof_*
#     beyond the checker's claim types);
#  3. a module includes of another only its public header;
#  4. the library exports only names with a module's prefix (the compiler's
#     own __ names, such as the sanitizers', aside);
#  5. no function is longer than 100 lines (the project's style: a body opens
#     with "{" and closes with "}" alone on a line; generated weights aside);
#  6. MPI only in the command line's cli/*_mpi.c files, one per use: no other
#     source includes mpi.h, the library has no MPI_ symbol;
#  7. no public header declares a global variable: a knob one caller sets
#     for another (the tests' hooks go through private testing headers);
#  8. the probe side stands alone: examples/probe_table.c linked statically
#     pulls in no symbol of the builders (tbbuild, tblayers, tbreach), of a
#     table file's writer, of the search or of the proofs (nm).
B=${1:-build}
fail=0

edges=$(for o in $(find "$B/util" "$B/games" "$B/ranking" "$B/symbolic" "$B/tbfile" "$B/tablebase" "$B/tbbuild" "$B/tblayers" "$B/tbreach" "$B/proof" "$B/pns" "$B/pwrite" "$B/puzzle" "$B/campaign" "$B/render" "$B/api" "$B/cli" -name '*.o' | sort); do
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

# 2: a module's rank in the order; an edge from a lower rank to a higher one goes up
upward=$(printf '%s\n' "$edges" | awk '
BEGIN { n = split("util ranking games symbolic tbfile tablebase tbbuild tblayers tbreach proof pns pwrite puzzle campaign render api cli", m, " "); for (i = 1; i <= n; i++) rank[m[i]] = i }
NF == 2 { split($1, a, "/"); split($2, b, "/"); if (rank[a[1]] < rank[b[1]]) print $1, "->", $2 }')
if [ -n "$upward" ]; then
    echo "FAIL: calls that go up the order of modules (util ranking games symbolic tbfile tablebase tbbuild tblayers tbreach proof pns pwrite puzzle campaign render api cli):"
    printf '%s\n' "$upward"
    fail=1
fi
search=$(for o in "$B"/proof/*.o; do nm "$o" | awk -v f="$o" '$1 == "U" && $2 ~ /^pns_/ { print f ": " $2 }'; done)
if [ -n "$search" ]; then
    echo "FAIL: proof/ calls the search:"; printf '%s\n' "$search"; fail=1
fi
writer=$(for o in "$B"/pns/*.o; do nm "$o" | awk -v f="$o" '$1 == "U" && $2 ~ /^(pwrite_|proof_)/ { print f ": " $2 }'; done)
if [ -n "$writer" ]; then
    echo "FAIL: pns/ calls a proof writer or the proof format:"; printf '%s\n' "$writer"; fail=1
fi

# 3: an include of another module's file that is not its public header
src=$(cd "$(dirname "$0")/.." && pwd)
public="util/util.h ranking/ranking.h games/game.h symbolic/symbolic.h tbfile/tbfile.h tablebase/tablebase.h tbbuild/tbbuild.h tblayers/tblayers.h tbreach/tbreach.h proof/proof.h pns/pns.h pwrite/pwrite.h puzzle/puzzle.h campaign/campaign.h render/render.h api/pnsolve.h"
private=$(cd "$src" && grep -rnoE '#include "(\.\./)+[a-z]+/[a-z_/]+\.h"' util ranking games symbolic tbfile tablebase tbbuild tblayers tbreach proof pns pwrite puzzle campaign render api cli |
    awk -v pub="$public" 'BEGIN { n = split(pub, p, " "); for (i = 1; i <= n; i++) ok[p[i]] = 1 }
    { f = $0; sub(/:.*/, "", f); h = $0; sub(/.*#include "/, "", h); sub(/"$/, "", h); gsub(/\.\.\//, "", h)
      split(f, a, "/"); split(h, b, "/"); if (a[1] != b[1] && !(h in ok)) print f ": " h }')
if [ -n "$private" ]; then
    echo "FAIL: includes of another module's private header:"; printf '%s\n' "$private"; fail=1
fi

leaked=$(nm -g --defined-only "$B/libpnsolve.a" | awk 'NF == 3 { print $3 }' |
    grep -v "^__" | grep -vE "^(util|game|jungle|ostle|othello|graph|tictactoe|rank|sym|tb|proof|pns|pwrite|puzzle|campaign|render|pnsolve)_" | sort -u | tr '\n' ' ')
if [ -n "$leaked" ]; then
    echo "FAIL: libpnsolve.a exports names without a module prefix: $leaked"
    fail=1
fi
# 5: functions of at most 100 lines
long=$(cd "$src" && find util ranking games symbolic tbfile tablebase tbbuild tblayers tbreach proof pns pwrite puzzle campaign render api cli bench tests -name '*.c' ! -name '*_weights.c' | sort |
    xargs awk '$0 == "{" { s = FNR; name = prev } $0 == "}" && s { if (FNR - s - 1 > 100) print FILENAME ": " name " (" FNR - s - 1 " lines)"; s = 0 } { prev = $0 }')
if [ -n "$long" ]; then
    echo "FAIL: functions over 100 lines:"; printf '%s\n' "$long"; fail=1
fi

# 6: MPI kept to cli/*_mpi.c
mpi=$(cd "$src" && grep -l '#include <mpi.h>' $(find util ranking games symbolic tbfile tablebase tbbuild tblayers tbreach proof pns pwrite puzzle campaign render api cli bench tests -name '*.[ch]') |
    grep -v '^cli/[a-z]*_mpi\.c$'; nm "$B/libpnsolve.a" 2>/dev/null | grep -c ' MPI_' | grep -v '^0$')
if [ -n "$mpi" ]; then
    echo "FAIL: MPI outside cli/*_mpi.c: $mpi"; fail=1
fi

# 7: no global variable in a public header
globals=$(cd "$src" && for h in $public; do grep -Hn '^[[:space:]]*extern[[:space:]]' "$h" | grep -v 'extern "C"'; done)
if [ -n "$globals" ]; then
    echo "FAIL: global variables declared in public headers:"; printf '%s\n' "$globals"; fail=1
fi

# 8: the probe side alone in a statically linked prober
tmp=$(mktemp -d)
mkdir "$tmp/pnsolve" && cp "$src/api/pnsolve.h" "$tmp/pnsolve/"
if ${CC:-cc} -I"$tmp" "$src/examples/probe_table.c" "$B/libpnsolve.a" -lJudy -lsodium -lzstd -lbdd -lm -pthread \
     -o "$tmp/probe_table" 2>"$tmp/err"; then
    builder=$(for o in $(find "$B/tbbuild" "$B/tblayers" "$B/tbreach" "$B/pns" "$B/pwrite" "$B/proof" -name '*.o'); do
        nm --defined-only "$o" | awk '$2 ~ /^[TDRB]$/ { print $3 }'; done; printf '%s\n' tb_file_write tb_blocks_make tb_blocks_write)
    pulled=$(nm --defined-only "$tmp/probe_table" | awk '{ print $3 }' | sort -u | comm -12 - "$(printf '%s\n' "$builder" | sort -u > "$tmp/b"; echo "$tmp/b")" | tr '\n' ' ')
    if [ -n "$pulled" ]; then
        echo "FAIL: examples/probe_table.c linked statically pulls in builder, search or proof code: $pulled"; fail=1
    fi
else
    echo "FAIL: examples/probe_table.c does not link statically: $(head -3 "$tmp/err")"; fail=1
fi
rm -rf "$tmp"

[ $fail = 0 ] && echo "layering: calls go down the modules, no private header crosses one, no circle between $(printf '%s\n' "$edges" | awk 'NF == 2 { print $1; print $2 }' | sort -u | wc -l) files, every exported name prefixed, no function over 100 lines, MPI in cli/*_mpi.c alone, no global in a public header, a static prober free of builders"
exit $fail
