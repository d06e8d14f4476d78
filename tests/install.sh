#!/usr/bin/env bash
# tests/install.sh BUILD - the library as a user gets it: `make install` into
# a temporary prefix (the binary, the static and shared libraries with their
# soname links, pnsolve.h, pnsolve.pc, the manual page), the examples built
# against it through pkg-config and run, the shared library exporting only
# pnsolve_ names, `make uninstall` leaving nothing; an install where nothing
# can be written refused in one line.
set -u
B=${1:-build}
if [ -n "${2:-}" ]; then  # a sanitized library needs its runtime in every program linked with it
    echo "install: skipped under sanitizers ($2)"
    exit 0
fi
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { if [ "$1" = 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $2"; [ -f "$tmp/out" ] && tail -5 "$tmp/out"; fi; }
cd "$(dirname "$0")/.."
p=$tmp/prefix
make --no-print-directory install BUILD="$B" PREFIX="$p" >"$tmp/out" 2>&1
ok $? "make install"
for f in bin/pnsolve lib/libpnsolve.a lib/libpnsolve.so.1.1.0 include/pnsolve/pnsolve.h lib/pkgconfig/pnsolve.pc \
         lib/pkgconfig/pnsolve-static.pc share/man/man1/pnsolve.1 share/doc/pnsolve/README.md \
         share/doc/pnsolve/docs/usage.md; do
    [ -f "$p/$f" ] || { fail=$((fail + 1)); echo "FAIL: $f not installed"; }
done
[ "$(readlink "$p/lib/libpnsolve.so.1")" = libpnsolve.so.1.1.0 ] && [ "$(readlink "$p/lib/libpnsolve.so")" = libpnsolve.so.1 ] &&
    objdump -p "$p/lib/libpnsolve.so.1.1.0" | grep -q "SONAME *libpnsolve.so.1$"
ok $? "the shared library's soname and links"
others=$(nm -D --defined-only "$p/lib/libpnsolve.so.1.1.0" | awk '$2 ~ /^[TDBR]$/ { print $3 }' | grep -v '^pnsolve_')
[ -z "$others" ] && [ "$(nm -D --defined-only "$p/lib/libpnsolve.so.1.1.0" | grep -c ' T pnsolve_')" -ge 10 ]
ok $? "the shared library exports the API alone (others: ${others:-none})"
versions=$(objdump -T "$p/lib/libpnsolve.so.1.1.0" | awk '$NF == "pnsolve_prove" || $NF == "pnsolve_tables_probe_moves" { print $NF, $(NF - 1) }' | sort | tr '\n' ' ')
[ "$versions" = "pnsolve_prove PNSOLVE_1 pnsolve_tables_probe_moves PNSOLVE_1.1 " ]
ok $? "1.0's names keep their version, 1.1's are PNSOLVE_1.1 (got: $versions)"
export PKG_CONFIG_PATH=$p/lib/pkgconfig
[ "$(pkg-config --modversion pnsolve)" = "$("$p/bin/pnsolve" --version | cut -d' ' -f2)" ]
ok $? "pkg-config's version is the program's"
grep -q "3 a slice of a long run done" "$p/share/man/man1/pnsolve.1" && grep -q "^$p/share/doc/pnsolve/README.md and" "$p/share/man/man1/pnsolve.1"
ok $? "the manual page names exit status 3 and the installed documentation"
${CC:-cc} -std=c11 examples/probe_table.c $(pkg-config --cflags --libs pnsolve-static) -o "$tmp/probe_static" >"$tmp/out" 2>&1 &&
    ! ldd "$tmp/probe_static" | grep -q libpnsolve
ok $? "pnsolve-static links libpnsolve.a, no .so"
for ex in ghi_proof probe_table; do
    ${CC:-cc} -std=c11 -Wall -Wextra -Werror "examples/$ex.c" $(pkg-config --cflags --libs pnsolve) -o "$tmp/$ex" >"$tmp/out" 2>&1
    ok $? "examples/$ex.c built with pkg-config"
done
( cd "$tmp" && LD_LIBRARY_PATH="$p/lib" ./ghi_proof "$OLDPWD/positions/ghi/kishimoto-fig3-2.graph" ) >"$tmp/out" 2>&1 &&
    grep -q "the player to move wins, .* line: C F H E G G1$" "$tmp/out" && grep -q "^proof sound: " "$tmp/out" &&
    "$p/bin/pnsolve" verify-proof "$tmp/ghi_proof.proof" >/dev/null
ok $? "examples/ghi_proof: the GHI graph won by C, its proof sound (and to verify-proof)"
"$p/bin/pnsolve" tb build jungle --pieces 2 --dir "$tmp/tables" >/dev/null 2>&1
LD_LIBRARY_PATH="$p/lib" "$tmp/probe_table" jungle "$tmp/tables" "7/7/7/7/7/3r3/R6 w" "7/3R3/7/7/7/7/6r w" >"$tmp/out" 2>&1 &&
    [ "$(cat "$tmp/out")" = "$(printf '7/7/7/7/7/3r3/R6 w: loss in 2\n7/3R3/7/7/7/7/6r w: win in 1')" ] &&
    [ "$("$p/bin/pnsolve" tb probe jungle "7/7/7/7/7/3r3/R6 w" --dir "$tmp/tables")" = "loss 2" ]
ok $? "examples/probe_table: the values tb probe gives"
LD_LIBRARY_PATH="$p/lib" "$tmp/probe_table" jungle "$tmp/tables" "7/7/7/7/7/3r3/R6" >"$tmp/out" 2>&1
[ $? = 1 ] && [ "$(wc -l <"$tmp/out")" = 1 ]
ok $? "examples/probe_table: a bad position, one line"
man -l "$p/share/man/man1/pnsolve.1" 2>/dev/null | grep -q "tb build GAME --pieces N" || grep -q "tb build GAME --pieces N" "$p/share/man/man1/pnsolve.1"
ok $? "the manual page has every command's options"
make --no-print-directory uninstall BUILD="$B" PREFIX="$p" >"$tmp/out" 2>&1 && [ -z "$(find "$p" -type f -o -type l)" ]
ok $? "make uninstall leaves no file"
mkdir "$tmp/ro"; chmod 555 "$tmp/ro"
if [ "$(id -u)" != 0 ]; then
    make --no-print-directory install BUILD="$B" PREFIX="$tmp/ro/usr" >"$tmp/out" 2>&1
    [ $? != 0 ] && grep -q "^make install: cannot write to $tmp/ro (run as root, or set PREFIX or DESTDIR)$" "$tmp/out"
    ok $? "make install where nothing can be written: one line"
fi
echo "install: $pass passed, $fail failed"
[ $fail = 0 ]
