#!/bin/sh
# docs/modules.sh BUILD - the modules and the calls between them, from the
# built objects (as tests/layering.sh reads them), as Graphviz DOT on
# standard output: `docs/modules.sh build | dot -Tsvg > docs/figures/modules.svg`.
B=${1:-build}
order="util ranking games symbolic tbfile tablebase tbbuild tblayers tbreach proof pns pwrite puzzle campaign render api cli"
for m in $order; do
    for o in $(find "$B/$m" -name '*.o' 2>/dev/null | sort); do
        nm "$o" | awk -v m="$m" '$2 ~ /^[TDRBV]$/ { print "D", m, $3 } $1 == "U" { print "U", m, $2 }'
    done
done | awk -v order="$order" '
$1 == "D" { def[$3] = $2; next }
{ use[++n] = $2 " " $3 }
END {
    print "digraph modules {"
    print "  rankdir=TB; node [shape=box, fontname=\"Helvetica\"]; edge [color=\"#555555\"];"
    k = split(order, m, " ")
    for (i = 1; i <= k; i++) print "  \"" m[i] "\";"
    for (i = 1; i <= n; i++) { split(use[i], a, " "); if ((a[2] in def) && def[a[2]] != a[1]) e[a[1] "\" -> \"" def[a[2]]] = 1 }
    for (x in e) print "  \"" x "\";"
    print "}"
}'
