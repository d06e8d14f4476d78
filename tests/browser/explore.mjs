// tests/browser/explore.mjs PNSOLVE OUTDIR - the explorer's page in headless
// Chromium (Debian's, driven by puppeteer-core): the values it shows for
// Jungle, Ostle and 4x4 Othello positions against the API's and against
// `tb probe --moves --json`; a click on a move changes the board and the
// URL; practice mode played to the end of a 4x4 Othello game, the final
// score the table's; a GHI graph's proof tree expanded with its boards.
// Screenshots go to OUTDIR.  Prints "browser: N passed, M failed".
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import puppeteer from "puppeteer-core";

const bin = path.resolve(process.argv[2] || "build/pnsolve");
const out = path.resolve(process.argv[3] || "build/browser");
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
let passed = 0, failed = 0;
function check(name, ok, detail) {
  if (ok) passed++;
  else { failed++; console.log("FAIL: " + name + " " + JSON.stringify(detail ?? "").slice(0, 600)); }
}
const pn = (...args) => execFileSync(bin, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

fs.mkdirSync(out, { recursive: true });
const work = fs.mkdtempSync(path.join(os.tmpdir(), "pnsolve-browser-"));
const tables = path.join(work, "tables"), proofs = path.join(work, "proofs");
fs.mkdirSync(proofs);
pn("tb", "build", "jungle", "--pieces", "3", "--dir", tables);
pn("tb", "build", "ostle:3x4", "--pieces", "6", "--dir", tables);
pn("tb", "build", "othello:4x4", "--dir", tables);
fs.copyFileSync(path.join(root, "positions/ghi/kishimoto-fig3-2.graph"), path.join(proofs, "kishimoto-fig3-2.graph"));
pn("prove", "graph:" + path.join(proofs, "kishimoto-fig3-2.graph"), "--question", "win", "--proof",
   path.join(proofs, "ghi.proof"));

const puzzles = path.join(root, "positions/puzzles/jungle.jsonl");
const server = spawn(bin, ["serve", "--port", "0", "--tb-dir", tables, "--proofs", proofs, "--puzzles", puzzles],
                     { stdio: ["ignore", "pipe", "pipe"] });
const base = await new Promise((ok, fail) => {
  let text = "";
  server.stdout.on("data", (d) => { text += d; const m = /open (http:\/\/\S+)/.exec(text); if (m) ok(m[1].replace(/\/$/, "")); });
  server.on("exit", () => fail(new Error("the server ended")));
});
const api = async (p, q) => (await fetch(base + "/api/v1/" + p + "?" + new URLSearchParams(q))).json();
// the page's own words for a value (app.js valueText)
const valueText = (v) => !v || v.result === "open" ? "open" : v.score !== undefined ? "score " + v.score
  : v.result === "draw" ? "draw" : v.result + " " + v.distance;

const browser = await puppeteer.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
                                         headless: true, args: ["--no-sandbox", "--disable-gpu"] });
const page = await browser.newPage();
await page.setViewport({ width: 1280, height: 860 });
page.on("pageerror", (e) => check("no script error", false, e.message));

async function rows() {
  return page.$$eval("#moves tbody tr", (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
}
async function open(game, position) {
  await page.goto(base + "/?" + new URLSearchParams(position ? { game, position } : { game }), { waitUntil: "networkidle0" });
  await page.waitForSelector("#board svg");
}

try {
  // values shown = the API's = tb probe --moves --json
  const cases = [["jungle", "7/7/7/7/7/3r3/R6 w"], ["jungle", "1e5/7/7/7/7/3T3/R6 w"], ["ostle:3x4", null],
                 ["othello:4x4", null], ["othello:4x4", "4x4:-X--/-XX-/-XO-/---- O"]];
  for (const [game, pos] of cases) {
    await open(game, pos);
    const shown = await rows();
    const a = await api("position", pos ? { game, position: pos } : { game });
    const want = a.moves.map((m) => [m.move, valueText(m), m.position]);
    check("shown = API: " + game + " " + pos, JSON.stringify(shown) === JSON.stringify(want), { shown, want });
    const ref = JSON.parse(pn("tb", "probe", game, a.position, "--moves", "--json", "--dir", tables));
    check("shown = tb probe --moves: " + game, JSON.stringify(ref.moves.map((m) => [m.move, valueText(m), m.position])) ===
          JSON.stringify(shown), { ref: ref.moves, shown });
    check("value shown: " + game, (await page.$eval("#value", (e) => e.textContent)) === a.to_move + " to move: " + valueText(a.value));
    const marked = await page.$$eval("rect[data-sq][stroke-width='5']", (r) => r.length);
    check("moves marked on the board: " + game, marked > 0, marked);
  }
  await open("jungle", "1e5/7/7/7/7/3T3/R6 w");
  await page.screenshot({ path: path.join(out, "explorer-jungle.png") });

  // a click on a move: the board and the URL change
  await open("othello:4x4");
  const before = await page.$eval("#board", (e) => e.innerHTML);
  const url0 = page.url();
  const first = (await rows())[0];
  await page.click("#moves tbody tr");
  await page.waitForFunction((p) => document.querySelector("#position").value === p, {}, first[2]);
  await page.waitForSelector("#board svg");
  check("click: the URL", page.url() !== url0 && new URL(page.url()).searchParams.get("position") === first[2], page.url());
  check("click: the board", (await page.$eval("#board", (e) => e.innerHTML)) !== before);
  // a click on the board: Othello's square of the first move
  await page.click("#back");
  await page.waitForFunction(() => !document.querySelector("#position").value.includes("X O"));
  await page.waitForSelector("#board svg");
  const sq = await page.$eval("#moves tbody tr td.move", (td) => td.textContent);
  const r = await page.$(`rect[data-sq="${sq}"]`);
  await r.click();
  await page.waitForFunction((p) => document.querySelector("#position").value === p, { timeout: 5000 }, first[2]);
  check("click on the board plays the move", true);

  // Ostle: a click on a piece, then on the square it moves to
  await open("ostle:3x4");
  const ostleStart = await page.$eval("#position", (e) => e.value);
  const up = (await rows()).find((r) => r[0] === "a1U");
  check("ostle: a1U listed", !!up, await rows());
  await (await page.$('rect[data-sq="a1"]')).click();
  await (await page.$('rect[data-sq="a2"]')).click();
  await page.waitForFunction((p) => document.querySelector("#position").value !== p, { timeout: 5000 }, ostleStart);
  check("ostle: the piece moved by two clicks", up && (await page.$eval("#position", (e) => e.value)) === up[2] &&
        new URL(page.url()).searchParams.get("position") === up[2], page.url());

  // the puzzles: listed as the file has them; one opened on the board
  await page.click('nav button[data-panel="puzzles"]');
  await page.waitForSelector("#puzzles li a");
  const shown = await page.$$eval("#puzzles li a", (as) => as.map((a) => a.textContent));
  const lines = fs.readFileSync(puzzles, "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
  check("puzzles: every one listed", shown.length === lines.length && shown[0] === lines[0].stipulation + ": " + lines[0].position,
        { shown: shown.length, file: lines.length });
  await page.click("#puzzles li a");
  await page.waitForFunction((p) => document.querySelector("#position").value === p, { timeout: 5000 }, lines[0].position);
  await page.waitForSelector("#moves tbody tr");
  const pz = await api("position", { game: "jungle", position: lines[0].position });
  check("puzzles: the first opened as Jungle, its key among its moves", new URL(page.url()).searchParams.get("game") === "jungle" &&
        (await rows()).some((r) => r[0] === lines[0].key) && pz.moves.length === (await rows()).length, page.url());
  await page.click('nav button[data-panel="moves"]');

  // practice to the end of a 4x4 game: the player takes the best move each time, so the end is the table's score
  await open("othello:4x4");
  const startScore = (await api("position", { game: "othello:4x4" })).value.score;
  await page.click("#practice");
  for (let i = 0; i < 40; i++) {
    const over = await page.$eval("#value", (e) => e.textContent.startsWith("Game over"));
    if (over) break;
    const mine = await page.evaluate(() => document.querySelector("#value").textContent.startsWith("Black to move"));
    if (mine) {
      const pos = await page.$eval("#position", (e) => e.value);
      await page.click("#moves tbody tr");
      await page.waitForFunction((p) => document.querySelector("#position").value !== p, { timeout: 10000 }, pos);
    }
    await new Promise((ok) => setTimeout(ok, 400));
    await page.waitForSelector("#board svg");
  }
  const end = await page.$eval("#value", (e) => e.textContent);
  const finalPos = await page.$eval("#position", (e) => e.value);
  const final = await api("position", { game: "othello:4x4", position: finalPos });
  check("practice: the game ends", final.over, end);
  check("practice: the final score is the table's", final.over && end.includes("score " + final.value.score) &&
        final.value.score === (final.to_move === "Black" ? startScore : -startScore), { end, startScore, final: final.value });
  await page.screenshot({ path: path.join(out, "explorer-practice.png") });

  // the GHI graph's proof tree, expanded with its boards
  await open("othello:4x4");
  await page.click('nav button[data-panel="proofs"]');
  await page.waitForSelector("#proof-files a");
  const files = await page.$$eval("#proof-files a", (as) => as.map((a) => a.textContent));
  check("proofs listed", files.some((f) => f.startsWith("ghi.proof")), files);
  await page.evaluate(() => [...document.querySelectorAll("#proof-files a")].find((a) => a.textContent.startsWith("ghi.proof")).click());
  await page.waitForSelector('#proof-tree span[data-node="0"]');
  await page.click('#proof-tree span[data-node="0"]');
  await page.waitForSelector('#proof-tree span[data-node="1"]');
  await page.click('#proof-tree span[data-node="1"]');
  await page.waitForSelector('#proof-tree span[data-node="2"]');
  const labels = await page.$$eval("#proof-tree span", (s) => s.map((x) => x.textContent));
  check("proof tree expanded: C, then F and its references", labels.length >= 4 && labels[1].startsWith("C node") &&
        labels.some((l) => l.includes("ref 2")), labels);
  const boards = await page.$$eval("#proof-tree .board svg", (s) => s.length);
  check("proof nodes' boards", boards >= 2, boards);
  await page.screenshot({ path: path.join(out, "explorer-proof.png") });
} catch (e) {
  check("the run", false, e.stack);
} finally {
  await browser.close();
  server.kill("SIGINT");
  fs.rmSync(work, { recursive: true, force: true });
}
console.log(`browser: ${passed} passed, ${failed} failed (screenshots in ${out})`);
process.exit(failed ? 1 : 0);
