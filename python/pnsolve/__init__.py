"""pnsolve - prove who wins a board game, probe its endgame tables, step
through perfect play: Python over libpnsolve (pnsolve.h) through cffi.

    >>> import pnsolve
    >>> g = pnsolve.Game("othello:4x4")
    >>> pnsolve.prove(g, g.start, question="score").score
    -10

Positions and moves are text in each game's notation (docs/rules.md).
Errors raise subclasses of pnsolve.Error carrying the library's one-line
reason.  A long search runs on a worker thread with the GIL released;
Ctrl-C (KeyboardInterrupt) cancels it and is raised once it has stopped.
"""
import threading
from collections import namedtuple

from ._lib import ffi, lib

__all__ = ["Error", "InvalidError", "NoMemoryError", "FileError", "TableError", "Game", "Result", "Value",
           "MoveValue", "Tables", "prove", "search_moves", "check_proof", "version"]


class Error(Exception):
    """A call of the library failed; str(e) is its one-line reason."""


class InvalidError(Error, ValueError):
    """A bad argument: an unknown game, a position or move the rules cannot produce."""


class NoMemoryError(Error, MemoryError):
    """The library ran out of memory."""


class FileError(Error, OSError):
    """A file that cannot be read or written, or a damaged one."""


class TableError(Error, LookupError):
    """No table holds the position."""


_ERRORS = {lib.PNSOLVE_EINVAL: InvalidError, lib.PNSOLVE_ENOMEM: NoMemoryError, lib.PNSOLVE_EIO: FileError,
           lib.PNSOLVE_ETABLE: TableError, lib.PNSOLVE_ESPACE: Error}
_TEXT = lib.PNSOLVE_TEXT_MAX
_MOVES = 256  # GAME_MAX_MOVES: no position of any game has more legal moves


def _check(status, err):
    if status != lib.PNSOLVE_OK:
        raise _ERRORS.get(status, Error)(ffi.string(err).decode())


def _bytes(text):
    return ffi.NULL if text is None else text.encode()


def version():
    """The version of the library linked, e.g. '1.1.0'."""
    return ffi.string(lib.pnsolve_version()).decode()


class Game:
    """A game by spec ("jungle", "ostle", "ostle:4x4", "othello:6x6",
    "tictactoe", "graph:FILE") and variant (None: the default)."""

    def __init__(self, spec, variant=None):
        err = ffi.new("char[]", 600)
        handle = lib.pnsolve_game_open(_bytes(spec), _bytes(variant), err, 600)
        if handle == ffi.NULL:
            raise InvalidError(ffi.string(err).decode())
        self._h = ffi.gc(handle, lib.pnsolve_game_close)
        self.name = ffi.string(lib.pnsolve_game_name(self._h)).decode()

    def __repr__(self):
        return "pnsolve.Game(%r)" % self.name

    @property
    def start(self):
        """The start position."""
        buf = ffi.new("char[]", _TEXT)
        lib.pnsolve_game_start(self._h, buf, _TEXT)
        return ffi.string(buf).decode()

    def position(self, pos):
        """pos checked and written canonically; InvalidError where the rules cannot produce it."""
        buf, err = ffi.new("char[]", _TEXT), ffi.new("char[]", 600)
        _check(lib.pnsolve_position_check(self._h, _bytes(pos), buf, _TEXT, err, 600), err)
        return ffi.string(buf).decode()

    def moves(self, pos=None):
        """The legal moves of pos (None: the start), in the game's notation."""
        size = 1 << 14
        buf, err, count = ffi.new("char[]", size), ffi.new("char[]", 600), ffi.new("int *")
        _check(lib.pnsolve_moves(self._h, _bytes(pos), buf, size, count, err, 600), err)
        text = ffi.string(buf).decode()
        return text.split(" ") if text else []

    def play(self, pos, move):
        """The position after move from pos; InvalidError for a move that is not legal there."""
        buf, err = ffi.new("char[]", _TEXT), ffi.new("char[]", 600)
        _check(lib.pnsolve_play(self._h, _bytes(pos), _bytes(move), buf, _TEXT, err, 600), err)
        return ffi.string(buf).decode()

    def over(self, pos):
        """None while the game goes on, else the side to move's result:
        "win", "draw" or "loss" (and .score for a game that scores)."""
        over, result, score = ffi.new("int *"), ffi.new("int *"), ffi.new("int *")
        err = ffi.new("char[]", 600)
        _check(lib.pnsolve_position_over(self._h, _bytes(pos), over, result, score, err, 600), err)
        if not over[0]:
            return None
        return Value(_WORD[result[0]], 0, score[0] if self._scores() else None)

    def _scores(self):
        return lib.pnsolve_game_score_bound(self._h) > 0


_WORD = {1: "win", 0: "draw", -1: "loss"}

Value = namedtuple("Value", "result distance score")
Value.__doc__ = """A value for the side to move: result "win", "draw", "loss" (or
"open" where nothing settled it), distance in plies to the end (None where
a search gave it), score (None where the game does not score)."""

MoveValue = namedtuple("MoveValue", "move position result distance score")
MoveValue.__doc__ = """A legal move, the position it leads to, and its value for the
side that makes it (as Value)."""


def _move_values(out, n):
    moves = []
    for i in range(n):
        m = out[i]
        result = _WORD[m.wdl] if m.known else "open"
        distance = m.distance if m.known and m.distance >= 0 and not m.has_score else None
        score = m.score if m.known and m.has_score else None
        moves.append(MoveValue(ffi.string(m.move).decode(), ffi.string(m.position).decode(), result, distance, score))
    return moves


class Tables:
    """A game's endgame tables in dir (as `pnsolve tb build` names them),
    every table checked at open: Jungle's, Ostle's and tic-tac-toe's
    win/draw/loss with distance, Othello's strong solutions' scores."""

    def __init__(self, game, dir):
        err = ffi.new("char[]", 600)
        handle = lib.pnsolve_tables_open(game._h, _bytes(dir), err, 600)
        if handle == ffi.NULL:
            raise FileError(ffi.string(err).decode())
        self.game = game
        self._t = ffi.gc(handle, lib.pnsolve_tables_close)

    def probe(self, pos):
        """The Value of pos for the side to move; TableError where no table holds it."""
        over = self.game.over(pos)
        if over is not None:
            return over
        err = ffi.new("char[]", 600)
        if self.game._scores():
            score = ffi.new("int *")
            _check(lib.pnsolve_tables_score(self._t, _bytes(pos), score, err, 600), err)
            return Value(_WORD[(score[0] > 0) - (score[0] < 0)], None, score[0])
        wdl, distance = ffi.new("int *"), ffi.new("int *")
        _check(lib.pnsolve_tables_probe(self._t, _bytes(pos), wdl, distance, err, 600), err)
        return Value(_WORD[wdl[0]], distance[0], None)

    def probe_moves(self, pos):
        """Every legal move of pos with its MoveValue, best first (wins
        fastest, draws, losses slowest; scores highest; "open" last)."""
        out, count, err = ffi.new("pnsolve_move_value[]", _MOVES), ffi.new("int *"), ffi.new("char[]", 600)
        _check(lib.pnsolve_tables_probe_moves(self._t, _bytes(pos), out, _MOVES, count, err, 600), err)
        return _move_values(out, count[0])

    def line(self, pos, max_plies=1000):
        """The mainline of perfect play from pos: a list of (move, position)
        to the game's end, a repetition or max_plies."""
        seen, line = {self.game.position(pos)}, []
        while len(line) < max_plies and self.game.over(pos) is None:
            moves = self.probe_moves(pos)
            if not moves or moves[0].result == "open":
                break
            pos = moves[0].position
            line.append((moves[0].move, pos))
            if pos in seen:
                break
            seen.add(pos)
        return line


Result = namedtuple("Result", "answer value score line nodes seconds stopped_by")
Result.__doc__ = """A search's answer: answer "proven", "disproven" or "open";
value "win", "draw" or "loss" (the value question; for win and advantage
the answer's meaning; None while open); score (the score question); line,
the principal line's moves; nodes; seconds; stopped_by ("nodes", "time",
"memory", "interrupt" or None)."""

_QUESTIONS = {"win": lib.PNSOLVE_QUESTION_WIN, "advantage": lib.PNSOLVE_QUESTION_ADVANTAGE,
              "value": lib.PNSOLVE_QUESTION_VALUE, "score": lib.PNSOLVE_QUESTION_SCORE}


def _options(question, threads, max_seconds, max_nodes, memory_mb, tb_dir):
    o = ffi.new("pnsolve_options *")
    lib.pnsolve_options_default(o)
    if question not in _QUESTIONS:
        raise InvalidError("question %r: not win, advantage, value or score" % (question,))
    o.question = _QUESTIONS[question]
    o.threads = threads
    o.max_seconds = max_seconds or 0
    o.max_nodes = max_nodes or 0
    o.memory_mb = memory_mb or 0
    keep = [o]
    if tb_dir is not None:
        keep.append(ffi.new("char[]", _bytes(tb_dir)))
        o.tb_dir = keep[-1]
    return o, keep


def _run(call, cancel):
    """Runs call() on a worker thread (the library releases the GIL) and
    waits; KeyboardInterrupt sets cancel, waits for the search to stop
    (about a second at most) and is raised again."""
    box = {}

    def work():
        try:
            box["value"] = call()
        except BaseException as e:  # carried to the caller's thread
            box["error"] = e

    t = threading.Thread(target=work, daemon=True)
    t.start()
    try:
        while t.is_alive():
            t.join(0.05)
    except KeyboardInterrupt:
        cancel[0] = 1
        t.join()
        raise
    if "error" in box:
        raise box["error"]
    return box["value"]


def prove(game, pos=None, question="win", threads=1, max_seconds=None, max_nodes=None, memory_mb=None, tb_dir=None,
          progress=None, progress_seconds=2.0):
    """Answers question ("win", "advantage", "value" or "score") for the
    side to move at pos (None: the start) into a Result.  progress, if
    given, is called with (nodes, seconds) every progress_seconds."""
    o, keep = _options(question, threads, max_seconds, max_nodes, memory_mb, tb_dir)
    cancel = ffi.new("int *")
    o.cancel = cancel
    if progress is not None:
        @ffi.callback("void(const pnsolve_progress *, void *)")
        def hook(p, ctx):
            progress(int(p.nodes), float(p.seconds))
        keep.append(hook)
        o.progress = hook
        o.progress_seconds = progress_seconds
    r, err = ffi.new("pnsolve_result *"), ffi.new("char[]", 600)
    position = _bytes(pos)
    status = _run(lambda: lib.pnsolve_prove(game._h, position, o, r, err, 600), cancel)
    _check(status, err)
    answer = {lib.PNSOLVE_PROVEN: "proven", lib.PNSOLVE_DISPROVEN: "disproven"}.get(r.answer, "open")
    value = score = None
    if question == "value" and answer == "proven":
        value = _WORD[r.value]
    elif question == "score" and answer == "proven":
        score, value = r.value, _WORD[(r.value > 0) - (r.value < 0)]
    line = ffi.string(r.line).decode().split() if r.line_len else []
    stopped = ffi.string(r.stopped_by).decode() if r.stopped_by != ffi.NULL else None
    return Result(answer, value, score, line, int(r.nodes), float(r.seconds), stopped)


def search_moves(game, pos=None, max_seconds=2.0, memory_mb=256, threads=1, tb_dir=None):
    """Every legal move of pos with its MoveValue proved by search, for
    positions no table covers: each child's value (a game that scores: its
    score) under these limits, each move's own; a move they stopped is
    "open", never guessed."""
    o, keep = _options("value", threads, max_seconds, None, memory_mb, tb_dir)
    cancel = ffi.new("int *")
    o.cancel = cancel
    out, count, err = ffi.new("pnsolve_move_value[]", _MOVES), ffi.new("int *"), ffi.new("char[]", 600)
    position = _bytes(pos)
    status = _run(lambda: lib.pnsolve_search_moves(game._h, position, o, out, _MOVES, count, err, 600), cancel)
    _check(status, err)
    return _move_values(out, count[0])


def check_proof(path, tb_dir=None):
    """Checks the proof file at path from the rules alone (tb_dir: the
    tables its leaves name): the claim it proves, as a line of text;
    InvalidError naming the first failing line where it is not sound,
    FileError where it cannot be read."""
    sound, summary, err = ffi.new("int *"), ffi.new("char[]", 600), ffi.new("char[]", 600)
    _check(lib.pnsolve_proof_check(_bytes(path), _bytes(tb_dir), sound, summary, 600, err, 600), err)
    if not sound[0]:
        raise InvalidError(ffi.string(err).decode())
    return ffi.string(summary).decode()
