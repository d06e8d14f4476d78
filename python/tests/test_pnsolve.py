"""python/tests/test_pnsolve.py - the Python package against independent
answers: 4x4 Othello scores against a naive negamax written here (memoised
over the 62,789 reachable states), every move's value on sampled Jungle
positions against the tables probed child by child, errors as exceptions,
and Ctrl-C cancelling a long search within about a second."""
import _thread
import os
import random
import subprocess
import sys
import threading
import time

import pytest

import pnsolve

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PNSOLVE = os.environ.get("PNSOLVE_BIN", os.path.join(ROOT, "build", "pnsolve"))

sys.setrecursionlimit(10000)


def negamax(game, pos, memo):
    """The final score for the side to move at pos under perfect play."""
    if pos in memo:
        return memo[pos]
    over = game.over(pos)
    if over is not None:
        value = over.score
    else:
        value = max(-negamax(game, game.play(pos, m), memo) for m in game.moves(pos))
    memo[pos] = value
    return value


def test_othello_4x4_scores_against_negamax():
    g = pnsolve.Game("othello:4x4")
    memo = {}
    assert pnsolve.prove(g, g.start, question="score").score == negamax(g, g.start, memo)
    assert len(memo) == 62789  # every reachable state, each once
    rng = random.Random(5)
    positions = rng.sample(sorted(p for p in memo if g.over(p) is None), 40)
    for pos in positions:
        r = pnsolve.prove(g, pos, question="score", memory_mb=32)
        assert r.answer == "proven" and r.score == memo[pos], pos
        # the win question agrees with the score's sign
        w = pnsolve.prove(g, pos, question="win", memory_mb=32)
        assert (w.answer == "proven") == (memo[pos] > 0), pos


@pytest.fixture(scope="module")
def jungle_tables(tmp_path_factory):
    d = tmp_path_factory.mktemp("tables")
    subprocess.run([PNSOLVE, "tb", "build", "jungle", "--pieces", "3", "--dir", str(d)], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return str(d)


def turned(child):
    """The value of a move into child for the side that made it."""
    if child.result == "draw":
        return ("draw", 0)
    return ("win" if child.result == "loss" else "loss", child.distance + 1)


def test_jungle_probe_moves_against_children(jungle_tables):
    g = pnsolve.Game("jungle")
    t = pnsolve.Tables(g, jungle_tables)
    rng = random.Random(11)
    checked = 0
    for start in ["7/7/7/7/7/3r3/R6 w", "7/7/2r4/7/7/4R2/D6 b", "7/3d3/7/7/2R4/7/7 w", "e6/7/7/7/7/7/5R1 b"]:
        pos = g.position(start)
        for _ in range(12):  # a random walk through the tables
            if g.over(pos) is not None:
                break
            moves = t.probe_moves(pos)
            assert [m.move for m in moves] != [] and sorted(m.move for m in moves) == sorted(g.moves(pos))
            for m in moves:
                assert m.position == g.play(pos, m.move)
                assert (m.result, m.distance) == turned(t.probe(m.position)), (pos, m)
                checked += 1
            own = t.probe(pos)
            assert (moves[0].result, moves[0].distance) == (own.result, own.distance)
            pos = rng.choice(moves).position
    assert checked > 100
    line = t.line("7/7/7/7/7/3r3/R6 w")
    assert len(line) == 2 and g.over(line[-1][1]) is not None  # a loss in 2 ends in two plies


def test_errors_are_exceptions(jungle_tables, tmp_path):
    with pytest.raises(pnsolve.InvalidError, match="chess"):
        pnsolve.Game("chess")
    g = pnsolve.Game("jungle")
    with pytest.raises(pnsolve.InvalidError):
        g.moves("7/7/7 w")
    with pytest.raises(pnsolve.InvalidError, match="not a legal move"):
        g.play("7/7/7/7/7/3r3/R6 w", "a1a7")
    with pytest.raises(pnsolve.FileError, match="no-such-dir"):
        pnsolve.Tables(g, str(tmp_path / "no-such-dir"))
    with pytest.raises(pnsolve.TableError):
        pnsolve.Tables(g, jungle_tables).probe("7/7/7/3E3/7/3r3/R5D w")
    with pytest.raises(pnsolve.InvalidError, match="question"):
        pnsolve.prove(g, None, question="maybe")
    bad = tmp_path / "bad.proof"
    bad.write_text("not a proof\n")
    with pytest.raises(pnsolve.Error):
        pnsolve.check_proof(str(bad))
    assert issubclass(pnsolve.TableError, pnsolve.Error) and issubclass(pnsolve.FileError, OSError)


def test_ctrl_c_cancels_within_a_second():
    g = pnsolve.Game("othello:6x6")
    fired = []

    def interrupt():
        fired.append(time.monotonic())
        _thread.interrupt_main()

    timer = threading.Timer(1.0, interrupt)
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        pnsolve.prove(g, None, question="value", memory_mb=64)  # minutes without the interrupt
    stopped = time.monotonic()
    timer.join()
    assert fired and stopped - fired[0] < 1.0


def test_progress_and_search_moves():
    g = pnsolve.Game("tictactoe")
    seen = []
    r = pnsolve.prove(g, None, question="value", progress=lambda nodes, seconds: seen.append(nodes),
                      progress_seconds=0.001)
    assert r.answer == "proven" and r.value == "draw" and r.line
    moves = pnsolve.search_moves(g, None)
    assert len(moves) == 9 and all(m.result == "draw" for m in moves)
