#!/bin/sh
# docs/man.sh PNSOLVE VERSION - writes the manual page pnsolve(1) to stdout,
# made from `pnsolve --help` and every command's --help, so the page says
# what the program does (make builds it as build/pnsolve.1; make install
# puts it in share/man/man1).
bin=$1
version=$2
esc() { sed -e 's/\\/\\e/g' -e 's/^[.'"'"']/\\\&&/'; }
cat <<HEAD
.TH PNSOLVE 1 "" "pnsolve $version" "User Commands"
.SH NAME
pnsolve \- solve board games: prove who wins, build endgame tables, check proofs, compose puzzles
.SH SYNOPSIS
.B pnsolve
.I COMMAND
[\fIoptions\fR]
.br
.B pnsolve \-\-help
|
.B \-\-version
.SH DESCRIPTION
HEAD
echo ".nf"
"$bin" --help | esc
echo ".fi"
for cmd in $("$bin" --help | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { on = 0 }'); do
    echo ".SH \"$(echo "$cmd" | tr a-z- A-Z\ )\""
    echo ".nf"
    "$bin" "$cmd" --help 2>&1 | esc
    echo ".fi"
done
cat <<'TAIL'
.SH EXIT STATUS
0 success; 1 a failure named on standard error in one line; 2 a usage error; 3 a slice of a long run done
and saved (a campaign or a build that stopped at its limit; run it again to go on); 130 interrupted (work
done is kept).
.SH SEE ALSO
@DOCDIR@/README.md and @DOCDIR@/docs/: every command and option (usage.md), the library (api.md), the
engine (engine.md), Python (python.md), the file formats and how each result was checked.
TAIL
