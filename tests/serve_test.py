#!/usr/bin/env python3
"""tests/serve_test.py PNSOLVE - `pnsolve serve` through its JSON API, as a
client would: values against `tb probe --moves --json` and `tb line --json`,
searches queued, cancelled and refused past the queue, proof trees (a GHI
graph's and an xz-compressed Ostle proof), the campaign and the puzzles,
every refusal (400 naming the field, 404, 405, 401, 403, 413, 503), files
outside the served directory unreachable, a load of 1,000 mixed requests
from 20 clients with the server's memory steady, and SIGINT stopping it
with nothing written but its own temporary files.  Standard library only."""
import concurrent.futures
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

BIN = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build/pnsolve")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL: %s %s" % (name, detail))


def run(*args, **kw):
    return subprocess.run([BIN] + list(args), capture_output=True, text=True, **kw)


class Server:
    def __init__(self, *args, env=None):
        self.p = subprocess.Popen([BIN, "serve", "--port", "0"] + list(args), stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, env=env)
        line = self.p.stdout.readline()
        assert "open http://" in line, line + self.p.stderr.read()
        self.url = line.split("open ")[1].strip()
        self.base = self.url.split("?")[0].rstrip("/")

    def get(self, path, query=None, method="GET", body=None, headers=None):
        url = self.base + path + ("?" + urllib.parse.urlencode(query) if query else "")
        req = urllib.request.Request(url, data=body, method=method, headers=headers or {})
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                data = r.read()
                return r.status, r.headers.get("Content-Type"), data
        except urllib.error.HTTPError as e:
            return e.code, e.headers.get("Content-Type"), e.read()

    def json(self, path, query=None, **kw):
        status, _, data = self.get(path, query, **kw)
        return status, json.loads(data)

    def rss_kb(self):
        with open("/proc/%d/status" % self.p.pid) as f:
            return int([l for l in f if l.startswith("VmRSS:")][0].split()[1])

    def stop(self):
        self.p.send_signal(signal.SIGINT)
        try:
            rc = self.p.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.p.kill()
            rc = None
        return rc, self.p.stderr.read()


def tree_digest(d):
    out = []
    for root, _, files in os.walk(d):
        for f in sorted(files):
            p = os.path.join(root, f)
            st = os.lstat(p)
            out.append((p, st.st_size, st.st_mtime_ns))
    return sorted(out)


def main():
    work = tempfile.mkdtemp(prefix="pnsolve-serve-test-")
    tables, proofs, tmp = (os.path.join(work, d) for d in ("tables", "proofs", "tmp"))
    for d in (proofs, tmp):
        os.makedirs(d)
    assert run("tb", "build", "jungle", "--pieces", "3", "--dir", tables).returncode == 0
    assert run("tb", "build", "othello:4x4", "--dir", tables).returncode == 0
    shutil.copy(os.path.join(ROOT, "positions/ghi/kishimoto-fig3-2.graph"), proofs)
    shutil.copy(os.path.join(ROOT, "results/ostle-start-advantage.proof.xz"), proofs)
    graph = "graph:" + os.path.join(proofs, "kishimoto-fig3-2.graph")
    assert run("prove", graph, "--question", "win", "--proof", os.path.join(proofs, "ghi.proof")).returncode == 0
    os.symlink("/etc/passwd", os.path.join(proofs, "out.proof"))
    camp = os.path.join(work, "campaign")
    assert run("campaign", "run", camp, "othello:4x5", "--question", "score", "--depth", "2").returncode == 0
    puzzles = os.path.join(ROOT, "positions/puzzles/jungle.jsonl")
    before = tree_digest(work)
    env = dict(os.environ, TMPDIR=tmp)
    s = Server("--tb-dir", tables, "--proofs", proofs, "--campaign", camp, "--puzzles", puzzles, "--queue", "2",
               "--time", "20", env=env)

    # the games, the page
    st, g = s.json("/api/v1/games")
    names = {x["game"]: x["tables"] for x in g["games"]}
    check("games", st == 200 and names.get("jungle") and names.get("othello:4x4"), g)
    for path, kind in (("/", "text/html"), ("/app.js", "text/javascript"), ("/style.css", "text/css")):
        st, ctype, body = s.get(path)
        check("page " + path, st == 200 and ctype.startswith(kind) and len(body) > 100, (st, ctype))

    # every move's value against tb probe --moves --json, position by position
    rng = random.Random(7)
    positions = []
    for spec, start in (("jungle", "7/7/7/7/7/3r3/R6 w"), ("othello:4x4", None)):
        for _ in range(12):  # random walks from the start (Othello) or a small Jungle position
            st, p = s.json("/api/v1/position", {"game": spec, "position": start} if start else {"game": spec})
            for _ in range(rng.randrange(0, 8)):
                if p["over"] or not p["moves"]:
                    break
                st, p = s.json("/api/v1/position", {"game": spec, "position": rng.choice(p["moves"])["position"]})
            positions.append((spec, p))
    for spec, p in positions:
        ref = run("tb", "probe", spec, p["position"], "--moves", "--json", "--dir", tables)
        if ref.returncode != 0:
            check("tb probe " + p["position"], p["over"], ref.stderr)
            continue
        want = json.loads(ref.stdout)
        got = [{k: m[k] for k in m} for m in p["moves"]]
        check("moves of %s %s" % (spec, p["position"]), got == want.get("moves", []), (got, want.get("moves")))
        if not p["over"]:
            mine = {k: p["value"][k] for k in p["value"]}
            theirs = {k: want[k] for k in ("result", "distance", "score") if k in want}
            check("value of " + p["position"], mine == theirs, (mine, theirs))
    line = s.json("/api/v1/line", {"game": "jungle", "position": "7/7/7/7/7/3r3/R6 w"})[1]
    ref = json.loads(run("tb", "line", "jungle", "7/7/7/7/7/3r3/R6 w", "--json", "--dir", tables).stdout)
    check("line", line["line"] == ref["line"] and line["end"] == ref["end"], (line, ref))

    # no table: every move open but one that ends the game (x wins at c3)
    st, t = s.json("/api/v1/position", {"game": "tictactoe", "position": "xo./xo./..."})
    won = [m for m in t["moves"] if m["result"] == "win"]
    check("tictactoe: a move that ends the game", st == 200 and t["source"] == "none" and
          [m["move"] for m in won] == ["a1"] and won[0]["distance"] == 1 and
          all(m["result"] == "open" for m in t["moves"] if m["move"] != "a1"), t)

    # pictures: every game drawn, squares named for the page, a graph's children
    for spec, pos in (("jungle", None), ("ostle", None), ("othello:4x4", None), ("othello:6x5", None),
                      ("tictactoe", None), ("graph:kishimoto-fig3-2.graph", "C")):
        q = {"game": spec}
        if pos:
            q["position"] = pos
        st, ctype, body = s.get("/api/v1/svg", q)
        body = body.decode()
        marks = "data-move=" if spec.startswith("graph") else 'data-sq="a1"'
        check("svg " + spec, st == 200 and ctype == "image/svg+xml" and body.startswith("<svg") and marks in body,
              (st, body[:200]))

    # searches: Othello 4x4's score equals the tables'; a long one cancelled
    st, job = s.json("/api/v1/prove", method="POST",
                     body=json.dumps({"game": "othello:4x4", "question": "score"}).encode())
    check("prove queued", st == 202 and job.get("state") == "queued", job)
    for _ in range(200):
        st, j = s.json("/api/v1/jobs/" + job["id"])
        if j["state"] not in ("queued", "running"):
            break
        time.sleep(0.1)
    start = s.json("/api/v1/position", {"game": "othello:4x4"})[1]
    check("prove: the tables' score", j["state"] == "done" and j["result"]["score"] == start["value"]["score"], j)
    long = {"game": "othello:8x8", "question": "value", "seconds": 20}
    ids = []
    codes = []
    for _ in range(4):  # one runs, two wait, the fourth finds the queue full
        st, r = s.json("/api/v1/prove", method="POST", body=json.dumps(long).encode())
        codes.append(st)
        if st == 202:
            ids.append(r["id"])
        time.sleep(0.2)
    check("queue bounded", codes[:3] == [202, 202, 202] and codes[3] == 503, codes)
    t0 = time.time()
    for i in ids:
        s.json("/api/v1/jobs/" + i, method="DELETE")
    while time.time() - t0 < 10 and any(s.json("/api/v1/jobs/" + i)[1]["state"] in ("queued", "running") for i in ids):
        time.sleep(0.1)
    states = [s.json("/api/v1/jobs/" + i)[1]["state"] for i in ids]
    check("cancelled within seconds", all(x == "cancelled" for x in states) and time.time() - t0 < 5, states)

    # proof trees: a GHI graph's, node by node; the compressed Ostle proof's root
    st, root = s.json("/api/v1/proof", {"file": "ghi.proof", "node": 0})
    check("proof root", st == 200 and root["position"] == "A" and root["claim"]["result"] == "proven" and
          len(root["children"]) == 1, root)
    kid = root["children"][0]
    st, n = s.json("/api/v1/proof", {"file": "ghi.proof", "node": kid["node"]})
    check("proof child", st == 200 and n["parent"] == 0 and n["position"] == kid["move"] and n["children"], n)
    st, x = s.json("/api/v1/proof", {"file": "ostle-start-advantage.proof.xz", "node": 0})
    check("xz proof", st == 200 and x["lines"] > 100000 and x["claim"]["question"] == "advantage", x)
    st, x1 = s.json("/api/v1/proof", {"file": "ostle-start-advantage.proof.xz", "node": x["children"][0]["node"]})
    check("xz proof child", st == 200 and x1["position"] and x1["position"] != x["position"], x1)

    # the campaign (decided: nothing in flight) and the puzzles
    st, c = s.json("/api/v1/campaign")
    check("campaign", st == 200 and c["decided"] is True and c["in_flight"] == 0 and c["question"].startswith("score") and
          c["upper"] == c["lower"] + 1 and c["eta"] is None, c)
    st, pz = s.json("/api/v1/puzzles")
    with open(puzzles) as f:
        count = sum(1 for l in f if l.strip())
    check("puzzles, and their game", st == 200 and len(pz["puzzles"]) == count and pz["game"] == "jungle",
          (len(pz.get("puzzles", [])), pz.get("game")))

    # refusals: each names what is wrong
    bad = [
        ("/api/v1/position", {"game": "nosuch"}, 400, "game"),
        ("/api/v1/position", {}, 400, "game"),
        ("/api/v1/position", {"game": "jungle", "position": "xyz"}, 400, "position"),
        ("/api/v1/line", {"game": "jungle", "max_plies": "0"}, 400, "max_plies"),
        ("/api/v1/proof", {"file": "../campaign/journal"}, 400, "file"),
        ("/api/v1/proof", {"file": "/etc/passwd"}, 400, "file"),
        ("/api/v1/proof", {"file": "out.proof"}, 400, "leads out"),
        ("/api/v1/proof", {"file": "ghi.proof", "node": "x"}, 400, "node"),
        ("/api/v1/proof", {"file": "ghi.proof", "node": "99"}, 400, "node"),
        ("/api/v1/svg", {"game": "graph:../tables/x"}, 400, "game"),
        ("/api/v1/svg", {"game": "graph:/etc/passwd"}, 400, "game"),
        ("/api/v1/position", {"game": "a" * 5000}, 400, "game"),
        ("/api/v1/jobs/abc", None, 400, "job"),
        ("/api/v1/jobs/999", None, 404, "job"),
        ("/api/v1/nothing", None, 404, "no such path"),
        ("/nothing", None, 404, "no such path"),
    ]
    for path, q, code, word in bad:
        st, ctype, body = s.get(path, q)
        msg = json.loads(body).get("error", "") if ctype == "application/json" else ""
        check("refused %s %s" % (path, q and str(q)[:60]), st == code and word in msg, (st, body[:200]))
    for body, code, word in ((b"garbage", 400, "body"), (b'{"game": "jungle"}', 400, "question"),
                             (b'{"game": "jungle", "question": "win", "seconds": 1e9}', 400, "seconds"),
                             (b'{"question": "win"}', 400, "game"), (b"x" * 9000, 413, "body")):
        st, ctype, data = s.get("/api/v1/prove", method="POST", body=body)
        check("prove refused %s" % body[:40], st == code and word in json.loads(data)["error"], (st, data[:200]))
    st, _, _ = s.get("/api/v1/position", {"game": "jungle"}, method="DELETE")
    check("method refused", st == 405, st)

    # a load: 1,000 requests, some malformed, from 20 clients; memory steady
    kinds = [("/api/v1/position", {"game": "jungle", "position": "7/7/7/7/7/3r3/R6 w"}),
             ("/api/v1/position", {"game": "othello:4x4"}), ("/api/v1/svg", {"game": "ostle"}),
             ("/api/v1/line", {"game": "othello:4x4"}), ("/api/v1/position", {"game": "jungle", "position": "bad"}),
             ("/api/v1/proof", {"file": "ghi.proof", "node": "3"}), ("/api/v1/nope", None), ("/app.js", None),
             ("/api/v1/proof", {"file": "../x"}), ("/api/v1/position", {"game": "tictactoe"})]

    def load(n):
        out = []
        for i in range(n):
            path, q = kinds[(i * 7 + n) % len(kinds)]
            out.append(s.get(path, q)[0])
        return out

    with concurrent.futures.ThreadPoolExecutor(20) as pool:
        codes = sum(pool.map(load, [5] * 20), [])
        rss100 = s.rss_kb()
        t0 = time.time()
        codes += sum(pool.map(load, [45] * 20), [])
        took = time.time() - t0
    rss1000 = s.rss_kb()
    check("load: 1,000 answered", len(codes) == 1000 and all(c in (200, 400, 404) for c in codes) and took < 120,
          (len(codes), sorted(set(codes)), took))
    with open(BIN, "rb") as f:
        sanitized = b"__asan_init" in f.read()  # its quarantine keeps freed memory: LeakSanitizer checks instead
    check("load: memory steady (after 1,000 within 5% of after 100)", sanitized or rss1000 <= rss100 * 1.05,
          (rss100, rss1000))
    check("alive after the load", s.json("/api/v1/games")[0] == 200)
    rc, err = s.stop()
    check("SIGINT stops it", rc == 0 and "stopped by SIGINT" in err, (rc, err[-300:]))
    check("nothing written but its own temporary files, removed", tree_digest(work) == before and not os.listdir(tmp),
          os.listdir(tmp))

    # a token; read-only
    s = Server("--tb-dir", tables, "--token", "secret-token-1", "--read-only")
    check("token in the address", s.url.endswith("?token=secret-token-1"), s.url)
    check("no token: 401", s.get("/api/v1/games")[0] == 401)
    check("wrong token: 401", s.get("/api/v1/games", headers={"Authorization": "Bearer nope-nope"})[0] == 401)
    check("bearer token", s.get("/api/v1/games", headers={"Authorization": "Bearer secret-token-1"})[0] == 200)
    check("token in the query", s.get("/api/v1/games", {"token": "secret-token-1"})[0] == 200)
    check("page without the token", s.get("/")[0] == 200)
    st, _, data = s.get("/api/v1/prove", {"token": "secret-token-1"}, method="POST",
                        body=b'{"game": "jungle", "question": "win"}')
    check("read-only: 403", st == 403 and b"read-only" in data, (st, data))
    s.stop()
    # open to other machines: a warning, and a token made up and printed
    s = Server("--bind", "0.0.0.0", "--read-only")
    tok = s.url.split("?token=")[-1] if "?token=" in s.url else ""
    check("--bind: a token made up", len(tok) == 32 and all(c in "0123456789abcdef" for c in tok), s.url)
    check("--bind: no token, 401", s.get("/api/v1/games")[0] == 401)
    check("--bind: its token, 200", s.get("/api/v1/games", {"token": tok})[0] == 200)
    rc, err = s.stop()
    check("--bind: the warning", "warning: listening on 0.0.0.0" in err, err)
    # options refused
    for args, word in ((["--port", "70000"], "port"), (["--tb-dir", "/nonexistent"], "--tb-dir"),
                       (["--proofs", "/etc/passwd"], "--proofs"), (["--bind", "nowhere"], "--bind"),
                       (["--token", "short"], "--token")):
        r = run("serve", "--port", "0", *args, timeout=10)
        check("serve %s refused" % args, r.returncode in (1, 2) and word in r.stderr, (r.returncode, r.stderr))
    shutil.rmtree(work)
    print("serve: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
