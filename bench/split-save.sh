#!/usr/bin/env bash
# bench/split-save.sh - the parts of a split proof (bench/split-proof.sh)
# that must outlast the machine, compressed into a folder that is committed:
# every proof file (xz, at the same relative path), every best move, and
# nothing a joined file has made redundant.
#
#   bench/split-save.sh WORK.d SAVED.d     copies WORK's new parts into SAVED
#   bench/split-save.sh --load SAVED.d WORK.d
#                                          unpacks SAVED into WORK (a fresh
#                                          machine: then rerun the split)
#
# A part is copied once (a proof file is never changed once written) and
# only where it fits MAX_MB (default 50) compressed; a bigger one is named
# and left out, to be split a move deeper.  Where X.proof is there, the
# parts it was joined from (X.proof.MOVE.d/) leave SAVED.
set -euo pipefail
usage() { echo "usage: $0 WORK.d SAVED.d | $0 --load SAVED.d WORK.d" >&2; exit 2; }
if [ "${1:-}" = --load ]; then
    [ $# -eq 3 ] && [ -d "$2" ] || usage
    mkdir -p "$3"
    (cd "$2" && find . -type f \( -name '*.proof.xz' -o -name '*.proof.best' \) -print0) |
        while IFS= read -r -d '' f; do
            mkdir -p "$3/$(dirname "$f")"
            t=$3/${f%.xz}
            case $f in
                *.xz) [ -e "$t" ] || { xz -dc "$2/$f" >"$t.part" && mv "$t.part" "$t"; } ;;
                *) [ -e "$t" ] || cp "$2/$f" "$t" ;;
            esac
        done
    exit 0
fi
[ $# -eq 2 ] && [ -d "$1" ] || usage
work=$1 saved=$2 max=${MAX_MB:-50}
[[ $max =~ ^[0-9]+$ ]] || { echo "$0: MAX_MB must be a number of megabytes, not '$max'" >&2; exit 2; }
mkdir -p "$saved"
added=0
while IFS= read -r -d '' f; do
    rel=${f#"$work"/}
    mkdir -p "$saved/$(dirname "$rel")"
    case $rel in
        *.best)
            cmp -s "$f" "$saved/$rel" || { cp "$f" "$saved/$rel"; added=$((added + 1)); } ;;
        *)
            [ -e "$saved/$rel.xz" ] && continue
            xz -9 -T1 -c "$f" >"$saved/$rel.xz.part"
            if [ "$(stat -c %s "$saved/$rel.xz.part")" -gt $((max * 1000000)) ]; then
                echo "$rel: over $max MB compressed, not saved (split it a move deeper)"
                rm -f "$saved/$rel.xz.part"
                continue
            fi
            mv "$saved/$rel.xz.part" "$saved/$rel.xz"
            added=$((added + 1)) ;;
    esac
done < <(find "$work" -type f \( -name '*.proof' -o -name '*.proof.best' \) -size +0 -print0)
# a joined proof supersedes the parts it was joined from
while IFS= read -r -d '' d; do
    [ -e "${d%.proof.*.d}.proof.xz" ] && rm -rf "$d" "${d%.*.d}.best"
done < <(find "$saved" -depth -type d -name '*.proof.*.d' -print0)
find "$saved" -depth -type d -empty -delete
echo "$added parts added to $saved"
