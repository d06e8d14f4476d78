/* cli/cmd_prove.c - `pnsolve prove GAME`: who wins, by proof-number search. */
#include "cli.h"
#include "../render/render.h"
#include "prove_options.h"
#include "../pns/pns.h"
#include "../util/util.h"

#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
    "usage: pnsolve prove GAME [--position P] [--variant V] [options]\n"
    "Proves the value of a position for the side to move (for a graph: for the\n"
    "prover, the OR player).  Without --question,\n"
    "asks 'can it win?' and then 'can it avoid losing?' and prints win, draw,\n"
    "loss or unknown.  A repetition of a position on the path is a draw.\n"
    "  --question win|advantage  ask one question only (a draw fails | succeeds)\n"
    "  --question score:K        one bound: can the side to move finish at least K\n"
    "                            ahead? (the score's options; a frontier's leaves)\n"
    "  --algo dfpn|pns           depth-first df-pn (default) or best-first PNS\n"
    "  --ghi safe|naive          naive reuses path-dependent results (wrong; for study)\n"
    "  --memory MB               transposition table or tree size (default 256)\n"
    "  --epsilon E               df-pn 1+epsilon trick (default 0.25; 0 = plain)\n"
    "  --init one|mobility|eval  initial proof/disproof numbers (default one;\n"
    "                            eval with --score: mobility scaled by the\n"
    "                            game's estimate against the target)\n"
    "  --sum plain|weak          df-pn: sum children (plain) or weak PNS (max + open - 1)\n"
    "  --nodes N  --time S       limits (--time and Ctrl-C stop the endgame solver\n"
    "                            too); then the status is 'unknown' with pn/dn,\n"
    "                            and with --score the bounds found so far\n"
    "  --tb-dir D  --no-tb       endgame tables to probe (default ./tables); Othello\n"
    "                            to 40 squares: with --tb-dir, its strong solution\n"
    "                            (tb build othello:WxH) gives --score every leaf's\n"
    "                            score (not with --proof)\n"
    "  --tb-decode               decode compressed tables whole (a byte per entry)\n"
    "                            for fast random probes, into TABLE.dec beside each\n"
    "                            table: made once, shared by every process on the\n"
    "                            machine (else into this process's memory)\n"
    "  --tb-cache MB             decoded blocks of compressed tables kept, shared\n"
    "                            out among the search's threads (default 256)\n"
    "  --proof FILE              write the solution tree (check: pnsolve verify-proof);\n"
    "                            with --score, the trees of both bounds\n"
    "  --dot FILE                with --proof: the proof's tree as a Graphviz graph ('-': on\n"
    "                            standard output, the report then on standard error; a\n"
    "                            score's two bounds as two clusters)\n"
    "                            (the prover's moves bold, repetitions dashed)\n"
    "  --proof-memory MB         what the proof writer may read the table's graph\n"
    "                            into where a draw supports the claim (default: as\n"
    "                            much as --memory, at least 256); past it the proof\n"
    "                            fails, to be split a move deeper (pnsolve campaign)\n"
    "  --proof-time S            the proof writer stops S seconds after the search\n"
    "                            solved the root (besides --time): a writer that\n"
    "                            searches for hours is cut short, and the split\n"
    "                            goes a move deeper\n"
    "  --trace FILE              root pn/dn over time as CSV (pnsolve plot draws it)\n"
    "  --score                   the exact final score (Othello: disc difference,\n"
    "                            empties to the winner) by 'at least k ahead?'\n"
    "                            questions: from 0 in growing steps, then bisection;\n"
    "                            Othello: the pv is a principal line (best on both sides)\n"
    "  --exact-empties K         with --score: positions with at most K empty squares\n"
    "                            are decided by the game's endgame solver (default 14;\n"
    "                            0: never)\n"
    "  --proof-exact K           with --score --proof: positions with at most K empty\n"
    "                            squares are 'exact' leaves that verify-proof searches\n"
    "                            itself (default 12, at most 14; 0: trees to the end)\n"
    "  --threads T               df-pn: T threads on one shared table (default 1);\n"
    "                            a proof is written by one of them from the table;\n"
    "                            with --score from a root within --exact-empties,\n"
    "                            the endgame solver's threads instead\n"
    "  --json                    one JSON object on stdout\n"
    CLI_PROGRESS_HELP
    "  --checkpoint FILE [--checkpoint-every S]\n"
    "                            df-pn: save the tables every S seconds (600) and at\n"
    "                            the end; --resume FILE continues from them (same\n"
    "                            game, position and question; another --memory\n"
    "                            moves the entries into the new table)\n"
    "  --validate N [--count K] [--seed S] [--within D | --score]\n"
    "                            the thesis's check: K random N-piece positions\n"
    "                            (default 1000) proved with their own table withheld\n"
    "                            and compared with it; exit 1 on a disagreement;\n"
    "                            --within D: the depth-bounded search instead, every\n"
    "                            win and loss within D plies compared exactly\n";

static void on_progress(const pns_progress *pr, void *ctx)
{
    cli_prove_opts *p = ctx;
    char target[96] = "";
    if (pr->has_bounds)
        snprintf(target, sizeof target, "  score in [%+d, %+d], asking at least %+d?", pr->score_lo, pr->score_hi,
                 pr->target);
    else if (p->score || p->o.question == PNS_SCORE)
        snprintf(target, sizeof target, "  at least %+d?", pr->target);
    if (cli_progress_wanted(&p->progress)) {  /* redrawn on a terminal; with --progress, a line every S s */
        char text[512], json[512];
        double rate = pr->seconds > 0 ? pr->nodes / pr->seconds : 0.0;
        snprintf(text, sizeof text, "%11llu nodes %6.0f k/s  root pn %u dn %u, its child pn %u dn %u  table %4.1f%%  "
                 "%6.0f MB  %6.0f s%s", (unsigned long long)pr->nodes, rate / 1e3, pr->pn, pr->dn, pr->sub_pn,
                 pr->sub_dn, pr->table_fill * 100, pr->bytes / 1048576.0, pr->seconds, target);
        snprintf(json, sizeof json, "\"nodes\": %llu, \"nodes_per_second\": %.0f, \"pn\": %u, \"dn\": %u, "
                 "\"table_fill\": %.4f, \"bytes\": %zu, \"seconds\": %.1f", (unsigned long long)pr->nodes, rate,
                 pr->pn, pr->dn, pr->table_fill, pr->bytes, pr->seconds);
        cli_progress_say(&p->progress, text, json);
    }
    if (p->trace_file)
        cli_trace_line(p->trace_file, pr);
}

static const char *status_word(pns_status s)
{
    return s == PNS_PROVEN ? "proven" : s == PNS_DISPROVEN ? "disproven" : "unknown";
}

static void print_line(const game *g, const game_state *s, const pns_result *r, int json, FILE *out)
{
    game_state t = *s;
    for (int i = 0; i < r->pv_len; i++) {
        char mv[GAME_TEXT_MAX];
        game_format_move(g, &t, r->pv[i], mv, sizeof mv);
        if (json)
            fprintf(out, "%s\"%s\"", i ? "," : "", mv);
        else
            fprintf(out, "%s%s", i ? " " : "", mv);
        game_play(g, &t, r->pv[i]);
    }
}

static void report(const game *g, const game_state *s, const char *value, const pns_result *r,
                   uint64_t nodes, double seconds, size_t peak, int json, const int *score)
{
    char best[GAME_TEXT_MAX] = "";
    if (r->pv_len)
        game_format_move(g, s, r->pv[0], best, sizeof best);
    double nps = seconds > 0 ? nodes / seconds : 0;
    const char *status = strcmp(value, "unknown") == 0 ? "unknown" : "solved";
    char text[GAME_TEXT_MAX];  /* notation has no quotes or backslashes to escape */
    game_format(g, s, text, sizeof text);
    if (json) {
        printf("{\"position\":\"%s\",\"value\":\"%s\",\"best_move\":%s%s%s,\"pv\":[", text, value,
               *best ? "\"" : "", *best ? best : "null", *best ? "\"" : "");
        print_line(g, s, r, 1, stdout);
        printf("],\"nodes\":%llu,\"nodes_per_second\":%.0f,\"seconds\":%.3f,\"peak_bytes\":%zu,\"status\":\"%s\"",
               (unsigned long long)nodes, nps, seconds, peak, status);
        if (r->stopped_by)
            printf(",\"stopped_by\":\"%s\",\"pn\":%u,\"dn\":%u", r->stopped_by, r->pn, r->dn);
        if (r->stopped_by && r->score_lo < r->score_hi)
            printf(",\"score_at_least\":%d,\"score_at_most\":%d", r->score_lo, r->score_hi);
        if (score)
            printf(",\"score\":%d", *score);
        if (r->endgame_nodes)
            printf(",\"endgame_nodes\":%llu", (unsigned long long)r->endgame_nodes);
        printf(",\"path_dependent\":%llu}\n", (unsigned long long)r->path_dependent);
        return;
    }
    printf("position: %s\n", text);  /* with Ostle's forbidden move in force */
    printf("value: %s\n", value);
    if (score)
        printf("score: %d\n", *score);
    if (*best) {
        printf("best move: %s\npv: ", best);
        print_line(g, s, r, 0, stdout);
        putchar('\n');
    }
    printf("nodes: %llu (%.0f nodes/s)\n", (unsigned long long)nodes, nps);
    if (r->endgame_nodes)
        printf("endgame solver nodes: %llu (%.0f nodes/s)\n", (unsigned long long)r->endgame_nodes,
               seconds > 0 ? r->endgame_nodes / seconds : 0);
    printf("time: %.3f s\npeak memory: %.1f MB\n", seconds, peak / 1048576.0);
    if (r->stopped_by)
        printf("status: unknown (stopped by %s; root pn %u dn %u)\n", r->stopped_by, r->pn, r->dn);
    else
        printf("status: %s\n", status);
    if (r->stopped_by && r->score_lo < r->score_hi && (r->score_lo > -game_score_bound(g) || r->score_hi < game_score_bound(g)))
        printf("score so far: at least %d, at most %d\n", r->score_lo, r->score_hi);
    printf("path-dependent results not stored: %llu\n", (unsigned long long)r->path_dependent);
    if (r->kept || r->kept_dropped)
        printf("solved positions the table evicted, kept for the proof: %llu (%llu more dropped: the keep was full)\n",
               (unsigned long long)r->kept, (unsigned long long)r->kept_dropped);
    if (r->proof.closed)
        printf("proof: a closed set read off the table (%llu positions, %llu of them widened to more moves where "
               "they dropped); %llu positions it had lost searched again\n",
               (unsigned long long)r->proof.read, (unsigned long long)r->proof.widened,
               (unsigned long long)r->proof.repaired);
    else if (r->proof.why[0])
        printf("proof: a tree searched again, as the table's closed set did not hold the root (%s)\n", r->proof.why);
    if (r->proof.searched || r->proof.taken_back)
        printf("proof tree writer: %llu positions searched again, %llu lines written and taken back (failed on its path)\n",
               (unsigned long long)r->proof.searched, (unsigned long long)r->proof.taken_back);
    if (r->tt_accesses)
        printf("shared table: %llu bucket accesses, %llu met a store under way (%.4f%%)\n", (unsigned long long)r->tt_accesses,
               (unsigned long long)r->tt_contended, 100.0 * (double)r->tt_contended / (double)r->tt_accesses);
}

/* A proof file is written under a temporary name and renamed when complete. */
static FILE *proof_open(const char *path, util_file *f)
{
    char err[512];
    if (util_file_create(f, path, "w", err, sizeof err) != 0)
        return cli_fail(1, "prove: cannot write proof file: %s", err), NULL;
    return f->f;
}

/* Puts the proof file f in place if written (rc 0); else removes it.
 * 0: in place; 1: the search stayed open (said by the caller); -1: failed (said). */
static int proof_close(util_file *f, int rc, const pns_result *r)
{
    char err[512] = "";
    if (util_file_commit(f, rc == 0, err, sizeof err) == 0 && rc == 0)
        return 0;
    if (rc != 0 && r->status == PNS_UNKNOWN && !r->error[0])
        return 1;
    if (r->error[0])
        return cli_fail(1, "prove: writing proof file '%s' failed: %s", f->path, r->error), -1;
    return cli_fail(1, "prove: writing proof file failed: %s", err[0] ? err : "unknown error"), -1;
}

static int validate(const game *g, cli_prove_opts *p)
{
    char err[512];
    pns_validation v;
    cli_catch_interrupt();
    p->o.stop = &cli_stop;
    if (p->score)
        p->o.question = PNS_SCORE;
    if (pns_validate(g, p->tb_dir ? p->tb_dir : "tables", p->validate, p->count ? p->count : 1000, p->seed, p->within, &p->o, &v,
                     stdout, err, sizeof err) != 0)
        return cli_fail(1, "prove: %s", err);
    if (p->within)
        printf("decided within %d plies: %llu wins, %llu losses (the rest: neither, as the table says)\n", p->within,
               (unsigned long long)v.wins_within, (unsigned long long)v.losses_within);
    printf("positions: %llu  agree: %llu  disagree: %llu  unknown: %llu\n"
           "nodes: %llu  time: %.1f s  (%.0f nodes/s, %.1f ms per position)\n",
           (unsigned long long)v.positions, (unsigned long long)v.agree, (unsigned long long)v.disagree,
           (unsigned long long)v.unknown, (unsigned long long)v.nodes, v.seconds,
           v.seconds > 0 ? v.nodes / v.seconds : 0.0, v.positions ? v.seconds * 1e3 / v.positions : 0.0);
    if (cli_stop)
        return EXIT_INTERRUPTED;
    return v.disagree || v.unknown ? 1 : 0;
}

/* What one run of prove found, for the report. */
typedef struct {
    pns_result w, a;        /* the win question's result, the advantage question's */
    const pns_result *shown;
    const char *value;
    int score, has_score;
    int ok, proof_failed;   /* ok 0: failed and said; proof_failed: the answer stands, its file does not */
} prove_outcome;

/* --score: the exact score, and its proof with --proof. */
static void run_score(const game *g, const game_state *s, cli_prove_opts *p, prove_outcome *x)
{
    cli_prove_score_options(p);
    int bound = game_score_bound(g);
    util_file pf;
    FILE *out = p->proof ? proof_open(p->proof, &pf) : NULL;
    if (p->proof && !out)
        x->ok = 0;
    int src = p->proof && !out ? -1
              : out ? pwrite_score(g, s, &p->o, -bound, bound, &x->score, &x->w, out)
                    : pns_score(g, s, &p->o, -bound, bound, &x->score, &x->w);
    if (src >= 0)  /* found, even where its proof could not be written */
        x->value = x->score > 0 ? "win" : x->score < 0 ? "loss" : "draw", x->has_score = 1;
    else
        x->value = "unknown";
    if (out && proof_close(&pf, src, &x->w) < 0) {
        x->proof_failed = 1;
        x->w.error[0] = 0;  /* said, with the file's name */
    }
    x->shown = &x->w;
}

/* --question with --proof: the answer and its proof file. */
static void run_proof(const game *g, const game_state *s, cli_prove_opts *p, prove_outcome *x)
{
    util_file pf;
    FILE *out = proof_open(p->proof, &pf);
    int rc = out ? pwrite_proof(g, s, &p->o, out, &x->w) : -1;
    if (!out) {
        x->ok = 0;  /* said; nothing searched */
    } else if (proof_close(&pf, rc, &x->w) < 0) {
        x->proof_failed = 1;  /* the search's answer is still reported */
        x->w.error[0] = 0;    /* said, with the file's name */
    }
    x->value = status_word(x->w.status);
    x->shown = &x->w;
}

static void run(const game *g, const game_state *s, cli_prove_opts *p, prove_outcome *x)
{
    memset(x, 0, sizeof *x);
    x->ok = 1;
    if (p->question_set && p->o.question == PNS_SCORE)
        cli_prove_score_options(p);
    if (p->score) {
        run_score(g, s, p, x);
    } else if (p->proof) {
        run_proof(g, s, p, x);
    } else if (p->question_set) {
        pns_solve(g, s, &p->o, &x->w);
        x->value = status_word(x->w.status);
        x->shown = &x->w;
    } else {
        int v = pns_value(g, s, &p->o, &x->w, &x->a);
        x->value = v == 1 ? "win" : v == 0 ? "draw" : v == -1 ? "loss" : "unknown";
        x->shown = v == 1 || x->w.status == PNS_UNKNOWN ? &x->w : &x->a;
    }
}

/* The combinations of options prove refuses; 0 when none. */
static int refused(const cli_prove_opts *p)
{
    if (p->within && !p->validate)
        return cli_fail(EXIT_USAGE, "prove: --within needs --validate");
    if (p->score && p->question_set)
        return cli_fail(EXIT_USAGE, "prove: --score takes no --question");
    if (p->proof && !p->question_set && !p->score)
        return cli_fail(EXIT_USAGE, "prove: --proof needs --question or --score");
    if (p->dot && !p->proof)
        return cli_fail(EXIT_USAGE, "prove: --dot needs --proof (the picture is of the proof)");
    if (p->o.threads > 1 && p->o.algo != PNS_DFPN)
        return cli_fail(EXIT_USAGE, "prove: --threads is for df-pn (best-first PNS runs on one thread)");
    if ((p->o.checkpoint || p->o.resume) && ((!p->question_set && !p->score) || p->o.algo != PNS_DFPN))
        return cli_fail(EXIT_USAGE, "prove: --checkpoint and --resume need --question or --score, and df-pn");
    return 0;
}

int cmd_prove(int argc, char **argv)
{
    cli_game_opts go;
    cli_prove_opts p;
    memset(&p, 0, sizeof p);
    pns_defaults(&p.o);
    int first;
    if (cli_parse(argc, argv, &go, cli_prove_long, cli_prove_option, &p, &first) != 0)
        return EXIT_USAGE;
    if (go.help)
        return fputs(help, stdout), 0;
    if (argc - first != 1)
        return cli_fail(EXIT_USAGE, "prove: expected GAME (try 'pnsolve prove --help')");
    if (refused(&p))
        return EXIT_USAGE;
    /* a checkpoint may be written over the file it resumed from (atomically) */
    const char *resume = util_same_file(p.o.resume, p.o.checkpoint) ? NULL : p.o.resume;
    cli_file files[] = { { "the game file", cli_game_file(argv[first]), 0 }, { "--resume", resume, 0 },
                         { "--proof", p.proof, 1 }, { "--dot", p.dot, 1 }, { "--trace", p.trace, 1 },
                         { "--checkpoint", p.o.checkpoint, 1 } };
    if (cli_distinct_files("prove", files, (int)(sizeof files / sizeof files[0])))
        return EXIT_USAGE;
    int aside = cli_stdout_aside(p.dot);  /* --dot -: the picture alone on standard output */
    game *g;
    game_state s;
    int rc = cli_open_game(argv[first], go.variant, go.position, &g, &s);
    if (rc)
        return rc;
    if (p.validate) {
        if (p.o.memory == ((size_t)256 << 20))
            p.o.memory = (size_t)32 << 20;  /* many small searches */
        rc = validate(g, &p);
        game_close(g);
        return rc;
    }
    tb_set *tb;
    if ((rc = cli_prove_tables(g, &p, &tb)) != 0)
        return game_close(g), rc;
    p.o.tb = tb;
    tb_set *layers = NULL;
    if (game_has_layers(g) && p.tb_dir && !p.no_tb) {
        char err[4600];
        if (p.proof)
            return game_close(g), cli_fail(EXIT_USAGE, "prove: --tb-dir with --proof: a proof's leaves are checked "
                                                       "without the tables, so they cannot stand on them");
        if (!(layers = tb_open(g, p.tb_dir, err, sizeof err)))
            return game_close(g), cli_fail(1, "prove: %s", err);
        p.o.scores = layers;
    }
    char why[4400];
    if (p.trace && !(p.trace_file = util_open_output(p.trace, why, sizeof why))) {
        tb_close(tb);
        tb_close(layers);
        game_close(g);
        return cli_fail(1, "prove: cannot write the trace: %s", why);
    }
    if (p.trace_file)
        cli_trace_header(p.trace_file);
    cli_catch_interrupt();
    p.o.stop = &cli_stop;
    cli_progress_setup(&p.progress, "prove");
    p.tty = p.progress.tty;
    p.o.progress = cli_progress_wanted(&p.progress) || p.trace_file ? on_progress : NULL;
    p.o.ctx = &p;
    p.o.progress_every = p.trace_file ? 1.0 : 2.0;
    if (p.progress.every > 0 && p.progress.every < p.o.progress_every)
        p.o.progress_every = p.progress.every;
    prove_outcome x;
    run(g, &s, &p, &x);
    const pns_result *w = &x.w, *a = &x.a, *shown = x.shown;
    if (p.tty && shown->seconds >= 2.0)
        fputc('\n', stderr);
    uint64_t nodes = w->nodes + (shown == a ? a->nodes : 0);
    double secs = w->seconds + (shown == a ? a->seconds : 0);
    size_t peak = w->peak_bytes > a->peak_bytes || shown != a ? w->peak_bytes : a->peak_bytes;
    if (shown->error[0]) {
        x.ok = 0;
        cli_fail(1, "prove: %s", shown->error);
    }
    if (x.ok)
        report(g, &s, x.value, shown, nodes, secs, peak, p.json, x.has_score ? &x.score : NULL);
    if (p.trace_file)
        fclose(p.trace_file);
    tb_close(tb);
    tb_close(layers);
    game_close(g);
    if (!x.ok || x.proof_failed)
        return 1;
    char err[4600];
    cli_stdout_back(aside);
    if (p.dot && (x.w.status != PNS_UNKNOWN || x.has_score) && render_dot_proof(p.proof, p.dot, err, sizeof err) != 0)
        return cli_fail(1, "prove: the proof's picture: %s", err);
    return cli_stop ? EXIT_INTERRUPTED : 0;
}
