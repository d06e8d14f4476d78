#!/usr/bin/env bash
# tests/rules_doc.sh [RULES] - docs/rules.md, the project's statement of the
# rules, against the binding reference (default ../shared/RULES.md beside the
# checkout): every number and every `notation` token of the reference
# (perft counts, board sizes, positions, moves) appears in docs/rules.md.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
ref=${1:-$here/../shared/RULES.md}
[ -r "$ref" ] || { echo "rules_doc: no reference at $ref (give its path)"; exit 2; }
doc=$here/docs/rules.md
missing=$( { grep -oE '[0-9][0-9,]*[0-9]' "$ref" | sort -u | while IFS= read -r t; do grep -qwF -- "$t" "$doc" || printf '%s\n' "$t"; done
    grep -oE '`[^`]+`' "$ref" | grep -v 'seeds/' | sort -u | while IFS= read -r t; do grep -qF -- "$t" "$doc" || printf '%s\n' "$t"; done; })
if [ -n "$missing" ]; then
    echo "rules_doc: docs/rules.md lacks what the reference says:"; printf '%s\n' "$missing" | sed 's/^/  /'; exit 1
fi
echo "rules_doc: every figure and notation token of $(basename "$ref") is in docs/rules.md"
