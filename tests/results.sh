#!/usr/bin/env bash
# results/ stays listed and intact: every entry has a row in
# results/README.md, and every file has the BLAKE2b-256 of results/B2SUMS.
set -uo pipefail
cd "$(dirname "$0")/../results" || exit 1
fail=0
for e in *; do
    [ "$e" = README.md ] || [ "$e" = B2SUMS ] && continue
    grep -qF "| \`$e\` |" README.md || { echo "results: $e has no row in results/README.md"; fail=1; }
done
listed=$(awk '{print $2}' B2SUMS | sort)
present=$(find . -type f ! -path ./B2SUMS ! -path ./README.md | sed 's|^./||' | sort)
[ "$listed" = "$present" ] || { echo "results: B2SUMS does not list exactly the files present"; fail=1; }
b2sum --quiet -c B2SUMS || { echo "results: a file differs from its hash in B2SUMS"; fail=1; }
[ $fail = 0 ] && echo "results: $(echo "$present" | wc -l) files listed and intact"
exit $fail
