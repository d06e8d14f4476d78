/* cli/cmd_tb.c - `pnsolve tb build|probe|verify|stats|compress|reach GAME`:
 * endgame tables. */
#include "cli.h"
#include "../tablebase/tablebase.h"
#include "../tbbuild/tbbuild.h"
#include "../tblayers/tblayers.h"
#include "../tbreach/tbreach.h"
#include "../tbfile/tbfile.h"
#include "../util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char help[] =
    "usage: pnsolve tb build GAME --pieces N [--threads T] [--dir D] [--variant V]\n"
    "                        [--compress large|all|none] [--only MATERIAL] [--save-every S] [--whole-below N]\n"
    "                        [--tb-cache MB]\n"
    "       pnsolve tb probe GAME POSITION|- [--dir D] [--variant V] [--moves] [--json]\n"
    "       pnsolve tb line GAME POSITION [--dir D] [--variant V] [--max-plies N] [--json]\n"
    "       pnsolve tb verify GAME [--dir D] [--threads T] [--variant V] [--only MATERIAL]\n"
    "       pnsolve tb stats GAME [--dir D] [--variant V] [--json | --tsv] [--census [--threads T]] [--only MATERIAL]\n"
    "       pnsolve tb compress GAME [--dir D] [--variant V]\n"
    "       pnsolve tb reach GAME [--from POSITION] [--checkpoint F] [--unreached F] [--dir D] [--threads T] [--json]\n"
    "       pnsolve tb reach othello:WxH [--dir D] [--threads T] [--memory MB] [--json]\n"
    "Endgame tables by retrograde analysis (default directory ./tables).\n"
    "build: every missing table with at most N pieces, smaller first; progress\n"
    "  on stderr; Ctrl-C keeps finished tables and saves the one under way\n"
    "  where its passes stand. --tb-cache MB: the compressed smaller tables the\n"
    "  captures read are probed through a cache of MB a thread (default under\n"
    "  mpirun: 256), not decoded whole (0; the default alone). probe: 'win K', 'loss K' or\n"
    "  'draw' (K plies to the end under best play; Othello: 'score S' and the\n"
    "  best moves); '-' reads one position per line from stdin; --moves: then\n"
    "  every legal move, its value for the side making it and the position it\n"
    "  leads to, best first. line: perfect play from POSITION by the tables to\n"
    "  the game's end, each position shown; a drawn line stops at its first\n"
    "  repetition, any line at --max-plies (default 1000). verify: re-derives every value from its children and\n"
    "  checks checksums; Ctrl-C saves how far a table got, verify goes on\n"
    "  from there. stats: positions (Ostle: states), win/draw/loss shares,\n"
    "  longest distance, entries per distance (= per retrograde ply). compress:\n"
    "  rewrites uncompressed tables in zstd blocks; build writes tables of\n"
    "  2^30 entries and more so (--compress large), or all, or none; --only\n"
    "  builds one table and the smaller ones it needs, verifies or states one.\n"
    "  A table in the making is saved between plies every S seconds (default\n"
    "  1800, 0 never) beside its file; build goes on from there after a stop.\n"
    "  Under mpirun or srun the ranks build each table together, each holding\n"
    "  1/ranks of it, each saving its share; tables of at most N positions (default\n"
    "  33554432, 0 none) are dealt whole, one rank each (docs/tablebases.md).\n"
    "  stats --tsv: a row a table (material, positions, wins, draws, losses, longest\n"
    "  win, a position holding it, the BLAKE2b-256 of its values), to check a rebuild.\n"
    "  stats --census (Ostle): each table's states by the classes that relate\n"
    "  them to the published count of non-trivial states (docs/ostle.md).\n"
    "reach: breadth first from the start (or POSITION) over every state of the\n"
    "  tables it leads to (needs no values): states per distance, the farthest,\n"
    "  and per material the states reached and the first ones not reached;\n"
    "  --checkpoint F saves every 10 minutes and on Ctrl-C, and resumes from F.\n"
    "  --unreached F writes every state not reached to F, one per line.\n"
    "  Othello (to 40 squares): every state reachable from the start, a layer\n"
    "  (disc count) at a time, each saved in D as a compact set as it completes\n"
    "  (a later run resumes); the next layer's bitmap takes up to --memory MB\n"
    "  (default 8192), in more passes when smaller (docs/othello.md).\n"
    "build, verify, reach:\n"
    CLI_PROGRESS_HELP;

typedef struct {
    unsigned given;  /* bit OPT_X - OPT_PIECES: --x was on the command line */
    int pieces, threads, json, tsv, compress, census, save_every, memory, moves, max_plies;
    cli_progress progress;  /* --progress, --progress-json: build, verify, reach */
    int64_t whole_below;
    double tb_cache;  /* MB a thread */
    const char *dir, *only, *from, *checkpoint, *unreached;
} tb_opts;

enum { OPT_PIECES = 256, OPT_THREADS, OPT_DIR, OPT_JSON, OPT_COMPRESS, OPT_ONLY, OPT_CENSUS, OPT_FROM, OPT_CHECKPOINT,
       OPT_SAVE_EVERY, OPT_UNREACHED, OPT_WHOLE_BELOW, OPT_MEMORY, OPT_TSV, OPT_MOVES, OPT_MAX_PLIES, OPT_TB_CACHE };
#define GIVEN(x) (1u << (OPT_##x - OPT_PIECES))

static const struct option tb_long[] = {
    { "pieces", required_argument, NULL, OPT_PIECES },
    { "threads", required_argument, NULL, OPT_THREADS },
    { "dir", required_argument, NULL, OPT_DIR },
    { "json", no_argument, NULL, OPT_JSON },
    { "tsv", no_argument, NULL, OPT_TSV },
    { "compress", required_argument, NULL, OPT_COMPRESS },
    { "only", required_argument, NULL, OPT_ONLY },
    { "census", no_argument, NULL, OPT_CENSUS },
    { "from", required_argument, NULL, OPT_FROM },
    { "checkpoint", required_argument, NULL, OPT_CHECKPOINT },
    { "save-every", required_argument, NULL, OPT_SAVE_EVERY },
    { "unreached", required_argument, NULL, OPT_UNREACHED },
    { "whole-below", required_argument, NULL, OPT_WHOLE_BELOW },
    { "memory", required_argument, NULL, OPT_MEMORY },
    { "moves", no_argument, NULL, OPT_MOVES },
    { "max-plies", required_argument, NULL, OPT_MAX_PLIES },
    { "tb-cache", required_argument, NULL, OPT_TB_CACHE },
    CLI_PROGRESS_OPTIONS,
    { NULL, 0, NULL, 0 },
};

static int on_option(int opt, const char *arg, void *ctx)
{
    tb_opts *o = ctx;
    if (opt >= OPT_PIECES && opt <= OPT_TB_CACHE)
        o->given |= 1u << (opt - OPT_PIECES);
    switch (opt) {
    case OPT_PIECES: return cli_int(arg, 2, CLI_MAX_PIECES, &o->pieces);
    case OPT_TB_CACHE: return cli_double(arg, 0, 1 << 20, &o->tb_cache);
    case OPT_THREADS: return cli_int(arg, 1, 256, &o->threads);
    case OPT_DIR: o->dir = arg; return *arg ? 0 : -1;
    case OPT_JSON: o->json = 1; return 0;
    case OPT_TSV: o->tsv = 1; return 0;
    case OPT_MOVES: o->moves = 1; return 0;
    case OPT_MAX_PLIES: return cli_int(arg, 1, 100000, &o->max_plies);
    case OPT_ONLY: o->only = arg; return *arg ? 0 : -1;
    case OPT_CENSUS: o->census = 1; return 0;
    case OPT_FROM: o->from = arg; return *arg ? 0 : -1;
    case OPT_CHECKPOINT: o->checkpoint = arg; return *arg ? 0 : -1;
    case OPT_UNREACHED: o->unreached = arg; return *arg ? 0 : -1;
    case OPT_SAVE_EVERY: return cli_int(arg, 0, 1000000, &o->save_every);
    case OPT_MEMORY: return cli_int(arg, 1, 1 << 20, &o->memory);
    case OPT_WHOLE_BELOW: {
        uint64_t v;
        if (cli_u64(arg, 0, (uint64_t)1 << 50, &v) != 0)
            return -1;
        o->whole_below = v ? (int64_t)v : -1;
        return 0;
    }
    case OPT_COMPRESS:
        o->compress = strcmp(arg, "all") == 0 ? 1 : strcmp(arg, "none") == 0 ? -1 : strcmp(arg, "large") == 0 ? 0 : 2;
        return o->compress == 2 ? -1 : 0;
    default: return cli_progress_option(&o->progress, opt, arg) == 0 ? 0 : -1;
    }
}

/* On a terminal only, redrawn in place (a log keeps the one line per table
 * and the saves). */
static void show_progress(const tb_progress *p, void *ctx)
{
    cli_progress *out = ctx;
    static double last_t;
    static uint64_t last_done;
    static const char *last_table;
    double rate = 0;
    if (last_table == p->material && p->done >= last_done && p->seconds > last_t)
        rate = (double)(p->done - last_done) / (p->seconds - last_t);
    last_table = p->material;
    last_done = p->done;
    last_t = p->seconds;
    char eta[32] = "?";
    if (p->eta >= 0)
        snprintf(eta, sizeof eta, "%d:%02d", (int)p->eta / 60, (int)p->eta % 60);
    char text[256], json[512];
    snprintf(text, sizeof text, "[%d/%d] %-6s %-5s ply %3d  %11llu/%llu  %6.2f M/s  %6.0f s  eta %s", p->table_no,
             p->tables, p->material, p->phase, p->ply, (unsigned long long)p->done, (unsigned long long)p->size,
             rate / 1e6, p->seconds, eta);
    snprintf(json, sizeof json, "\"table\": \"%s\", \"table_no\": %d, \"tables\": %d, \"phase\": \"%s\", \"ply\": %d, "
             "\"done\": %llu, \"size\": %llu, \"seconds\": %.1f, \"eta\": %.0f", p->material, p->table_no, p->tables,
             p->phase, p->ply, (unsigned long long)p->done, (unsigned long long)p->size, p->seconds, p->eta);
    cli_progress_say(out, text, json);
}

static int tb_build_cmd(game *g, const tb_opts *o)
{
    if (!o->pieces)
        return cli_fail(EXIT_USAGE, "tb build: --pieces N is required");
    cli_catch_interrupt();
    tb_build_options bo = { .threads = o->threads, .stop = &cli_stop, .log = stderr, .compress = o->compress,
                            .only = o->only, .save_every = o->save_every, .whole_below = o->whole_below };
    /* the smaller tables: decoded whole by one process; a rank probes them
     * compressed (its node holds its share of the table, not all it reads) */
    double cache_mb = o->given & GIVEN(TB_CACHE) ? o->tb_cache : cli_mpi_size() > 1 ? 256 : 0;
    bo.smaller_cache = (size_t)(cache_mb * 1048576);
    cli_progress progress = o->progress;
    cli_progress_setup(&progress, "tb build");
    int tty = progress.tty;
    bo.progress = cli_progress_wanted(&progress) ? show_progress : NULL;
    bo.ctx = &progress;
    char err[600];
    int rank = 0, rc;
    if (cli_mpi_size() > 1) {
        rc = tb_mpi_build(g, o->dir, o->pieces, &bo, err, sizeof err, &rank);
    } else {
        rc = tb_build(g, o->dir, o->pieces, &bo, err, sizeof err);
    }
    if (tty && rank == 0)
        fputs("\r\033[K", stderr);
    if (rc < 0 && rank > 0 && strstr(err, "its message says why") != NULL)
        return 1;  /* the rank that failed says why */
    if (rc < 0)
        return rank ? cli_fail(1, "tb build: rank %d: %s", rank, err) : cli_fail(1, "tb build: %s", err);
    if (rank > 0)
        return rc == 1 ? EXIT_INTERRUPTED : 0;
    if (rc == 1) {
        fprintf(stderr, "interrupted: finished tables and the last save of the one in progress are kept in %s;"
                        " run again to resume\n", o->dir);
        return EXIT_INTERRUPTED;
    }
    if (o->only)
        fprintf(stderr, "table %s and the tables it needs are in %s\n", o->only, o->dir);
    else
        fprintf(stderr, "all tables with at most %d pieces are in %s\n", o->pieces, o->dir);
    return 0;
}

/* On a terminal: the table being verified and its share checked. */
static void show_verify_progress(const char *material, uint64_t done, uint64_t entries, void *ctx)
{
    char text[256], json[256];
    snprintf(text, sizeof text, "verifying %-8s %12llu/%llu (%5.1f%%)", material, (unsigned long long)done,
             (unsigned long long)entries, entries ? 100.0 * (double)done / (double)entries : 100.0);
    snprintf(json, sizeof json, "\"table\": \"%s\", \"done\": %llu, \"entries\": %llu", material,
             (unsigned long long)done, (unsigned long long)entries);
    cli_progress_say(ctx, text, json);
}

/* State s in the game's notation (a static buffer: one at a time). */
static const char *state_text(const game *g, const game_state *s)
{
    static char text[GAME_TEXT_MAX];
    game_format(g, s, text, sizeof text);
    return text;
}

/* The same of the state of index i of material mat (x's index: the one the
 * run that named i made, mapped again or remade). */
static const char *index_text(const game *g, tb_index *x, int mat, uint64_t i)
{
    const game_tb_index *ix = tb_index_need(x, mat);
    if (!ix)
        return "(out of memory)";
    game_state s;
    game_tables(g)->unindex(g, ix, mat, i, &s);
    return state_text(g, &s);
}

/* The census of one material (or the total) as a line of text or JSON;
 * whether the classes sum to the published count. */
static void print_census(const game *g, const uint64_t *n, int json)
{
    const game_census_class *c = game_tb_build(game_tables(g))->census_classes;
    int64_t sum = 0, direct = -1;
    int k, at_direct = 0;
    char terms[512] = "";
    size_t len = 0;
    for (k = 0; c[k].name; k++) {
        if (c[k].sign == 1 || c[k].sign == -1) {
            sum += c[k].sign * (int64_t)n[k];
            len += (size_t)snprintf(terms + len, sizeof terms - len, "%s%s", len ? (c[k].sign < 0 ? " - " : " + ") : "",
                                    c[k].name);
        } else if (c[k].sign == 2) {
            direct = (int64_t)n[k];
            at_direct = k;
        }
    }
    if (json) {
        printf(", \"census\": {");
        for (int i = 0; i < k; i++)
            printf("%s\"%s\": %llu", i ? ", " : "", c[i].name, (unsigned long long)n[i]);
        printf(", \"reconciles\": %s}", sum == direct ? "true" : "false");
        return;
    }
    printf("         census:");
    for (int i = 0; i < k; i++)
        printf("%s %s %llu", i ? "," : "", c[i].name, (unsigned long long)n[i]);
    printf("\n         %s = %lld: %s the direct count of %s\n", terms, (long long)sum,
           sum == direct ? "equals" : "DIFFERS from", c[at_direct].name);
}

/* One table's figures, a line of JSON or a block of text. */
static void print_table_stats(const game *g, const tb_stats *st, const uint64_t *cn, const char *unit, const tb_opts *o)
{
    double p = st->positions ? 100.0 / (double)st->positions : 0;
    int last = st->max_distance > 255 ? 255 : st->max_distance;
    if (o->tsv) {
        printf("%s\t%llu\t%llu\t%llu\t%llu\t%d\t%s\t%s\n", st->material, (unsigned long long)st->positions,
               (unsigned long long)st->wins, (unsigned long long)st->draws, (unsigned long long)st->losses,
               st->max_distance, st->n_longest ? state_text(g, &st->longest_state[0]) : "-", st->values_hash);
        return;
    }
    if (o->json) {
        printf("{\"material\": \"%s\", \"positions\": %llu, \"win\": %llu, \"draw\": %llu, \"loss\": %llu, "
               "\"longest\": %d, \"per_ply\": [", st->material, (unsigned long long)st->positions,
               (unsigned long long)st->wins, (unsigned long long)st->draws, (unsigned long long)st->losses, st->max_distance);
        for (int d = 1; d <= last; d++)
            printf("%s%llu", d > 1 ? ", " : "", (unsigned long long)(st->win_at[d] + st->loss_at[d]));
        printf("], \"longest_wins\": %llu, \"longest_win_states\": [", (unsigned long long)st->longest_wins);
        for (int k = 0; k < st->n_longest; k++)
            printf("%s\"%s\"", k ? ", " : "", state_text(g, &st->longest_state[k]));
        printf("], \"values_b2\": \"%s\"", st->values_hash);
        if (o->census)
            print_census(g, cn, 1);
        printf("}\n");
        return;
    }
    printf("%-8s %12llu %s  win %5.1f%%  draw %5.1f%%  loss %5.1f%%  longest %d\n", st->material,
           (unsigned long long)st->positions, unit, (double)st->wins * p, (double)st->draws * p, (double)st->losses * p,
           st->max_distance);
    printf("         resolved per ply:");
    for (int d = 1; d <= last; d++)
        printf(" %llu", (unsigned long long)(st->win_at[d] + st->loss_at[d]));
    printf("\n");
    if (st->longest_wins)
        printf("         longest win, %llu state%s (twins aside)%s\n", (unsigned long long)st->longest_wins,
               st->longest_wins == 1 ? "" : "s", st->longest_wins > (uint64_t)st->n_longest ? ", the first:" : ":");
    for (int k = 0; k < st->n_longest; k++)
        printf("           %s\n", state_text(g, &st->longest_state[k]));
    printf("         values (BLAKE2b-256): %s\n", st->values_hash);
    if (o->census)
        print_census(g, cn, 0);
}

/* The sums over the tables shown: all[] positions, wins, draws, losses;
 * all_at[d] resolved at ply d; total[] the census. */
static void print_total_stats(const game *g, const uint64_t *all, const uint64_t *all_at, const uint64_t *total,
                              const char *unit, const tb_opts *o)
{
    int last = 255;
    while (last > 0 && !all_at[last])
        last--;
    if (o->json) {
        printf("{\"material\": \"total\", \"positions\": %llu, \"win\": %llu, \"draw\": %llu, \"loss\": %llu, "
               "\"per_ply\": [", (unsigned long long)all[0], (unsigned long long)all[1], (unsigned long long)all[2],
               (unsigned long long)all[3]);
        for (int d = 1; d <= last; d++)
            printf("%s%llu", d > 1 ? ", " : "", (unsigned long long)all_at[d]);
        printf("]");
        if (o->census)
            print_census(g, total, 1);
        printf("}\n");
        return;
    }
    printf("%-8s %12llu %s  (%llu win, %llu draw, %llu loss; the tables here)\n", "total", (unsigned long long)all[0], unit,
           (unsigned long long)all[1], (unsigned long long)all[2], (unsigned long long)all[3]);
    printf("         resolved per ply:");
    for (int d = 1; d <= last; d++)
        printf(" %llu", (unsigned long long)all_at[d]);
    printf("\n");
    if (o->census)
        print_census(g, total, 0);
}

static int tb_stats_cmd(game *g, const tb_opts *o)
{
    const game_tb_ops *ops = game_tables(g);
    if (o->census && !game_tb_build(ops)->census)
        return cli_fail(EXIT_USAGE, "tb stats: %s has no census (--census is for Ostle)", g->name);
    if (o->tsv && (o->json || o->census))
        return cli_fail(EXIT_USAGE, "tb stats: --tsv goes alone (not with --json or --census)");
    int mats[4096], n = ops->materials(g, 64, mats, 4096), shown = 0;
    if (o->only) {  /* one material: its table alone is read (a six-piece set hashes for minutes) */
        if ((mats[0] = ops->material_parse(g, o->only)) < 0)
            return cli_fail(EXIT_USAGE, "tb stats: no material '%s' in %s", o->only, g->name);
        n = 1;
    }
    /* a game whose positions hold several states (Ostle's forbidden move) indexes states */
    const char *unit = ops->position_states ? "states" : "positions";
    uint64_t total[GAME_CENSUS_MAX] = { 0 }, all_at[256] = { 0 }, all[4] = { 0 };
    if (o->census)
        cli_catch_interrupt();
    for (int i = 0; i < n; i++) {
        char path[4200];
        tb_path(g, o->dir, mats[i], path, sizeof path);
        int have = access(path, F_OK) == 0;
        if (!have && !o->census)
            continue;
        char name[32], err[600];
        ops->material_name(g, mats[i], name, sizeof name);
        tb_stats st;
        if (have && tb_table_stats(g, o->dir, mats[i], &st, err, sizeof err) != 0)
            return cli_fail(1, "tb stats: %s", err);
        uint64_t cn[GAME_CENSUS_MAX] = { 0 };
        /* a census needs the rules, not the values: it counts a material without a table too */
        if (o->census && tb_census(g, mats[i], o->threads, &cli_stop, cn) != 0)
            return cli_fail(EXIT_INTERRUPTED, "tb stats: interrupted in the census of %s", name);
        for (int k = 0; k < GAME_CENSUS_MAX; k++)
            total[k] += cn[k];
        shown++;
        if (!have) {
            if (o->json)
                printf("{\"material\": \"%s\", \"table\": false", name);
            else
                printf("%-8s (no table in %s)\n", name, o->dir);
            print_census(g, cn, o->json);
            if (o->json)
                printf("}\n");
            continue;
        }
        all[0] += st.positions;
        all[1] += st.wins;
        all[2] += st.draws;
        all[3] += st.losses;
        for (int d = 0; d < 256; d++)
            all_at[d] += st.win_at[d] + st.loss_at[d];
        if (o->tsv && shown == 1)  /* the header above the first row, none before an error */
            printf("material\tpositions\twins\tdraws\tlosses\tlongest\tlongest_position\tvalues_b2\n");
        print_table_stats(g, &st, cn, unit, o);
    }
    if (!shown && o->only)
        return cli_fail(1, "tb stats: no table %s of %s in %s", o->only, g->name, o->dir);
    if (!shown)
        return cli_fail(1, "tb stats: no tables of %s in %s", g->name, o->dir);
    if (shown > 1 && !o->tsv)
        print_total_stats(g, all, all_at, total, unit, o);
    return 0;
}

static void show_reach_progress(const tb_reach_progress *p, void *ctx)
{
    char text[256], json[256];
    snprintf(text, sizeof text, "level %3d  %13llu/%llu expanded  %14llu reached  %7.0f s", p->level,
             (unsigned long long)p->expanded, (unsigned long long)p->frontier, (unsigned long long)p->reached,
             p->seconds);
    snprintf(json, sizeof json, "\"level\": %d, \"expanded\": %llu, \"frontier\": %llu, \"reached\": %llu, "
             "\"seconds\": %.1f", p->level, (unsigned long long)p->expanded, (unsigned long long)p->frontier,
             (unsigned long long)p->reached, p->seconds);
    cli_progress_say(ctx, text, json);
}

static int tb_reach_cmd(game *g, const tb_opts *o)
{
    const game_tb_ops *ops = game_tables(g);
    game_state start;
    game_start(g, &start);
    if (o->from) {
        char err[600];
        if (game_parse(g, o->from, &start, err, sizeof err) != 0)
            return cli_fail(EXIT_USAGE, "tb reach: bad position: %s", err);
    }
    cli_file files[] = { { "--checkpoint", o->checkpoint, 1 }, { "--unreached", o->unreached, 1 } };
    if (cli_distinct_files("tb reach", files, 2))
        return EXIT_USAGE;
    cli_catch_interrupt();
    tb_reach_options ro = { .threads = o->threads, .stop = &cli_stop, .checkpoint = o->checkpoint,
                            .checkpoint_seconds = 600, .log = stderr };
    cli_progress progress = o->progress;
    cli_progress_setup(&progress, "tb reach");
    if (cli_progress_wanted(&progress)) {
        ro.progress = show_reach_progress;
        ro.ctx = &progress;
        ro.log = progress.tty ? NULL : stderr;  /* a log keeps the line per level beside the progress lines */
    }
    static tb_reach_result r;
    char err[600];
    util_file list;
    if (o->unreached && util_file_create(&list, o->unreached, "w", err, sizeof err) != 0)
        return cli_fail(1, "tb reach: cannot write the unreached states: %s", err);
    ro.unreached = o->unreached ? list.f : NULL;
    int rc = tb_reach(g, o->dir, &start, &ro, &r, err, sizeof err);
    cli_progress_end(&progress);
    if (o->unreached && util_file_commit(&list, rc == 0, err, sizeof err) != 0 && rc == 0)
        return cli_fail(1, "tb reach: cannot write the unreached states: %s", err);
    if (rc < 0)
        return cli_fail(1, "tb reach: %s", err);
    if (rc == 1) {
        if (o->checkpoint)
            fprintf(stderr, "interrupted: saved in %s; run again with it to resume\n", o->checkpoint);
        else
            fprintf(stderr, "interrupted (no --checkpoint: nothing saved)\n");
        return EXIT_INTERRUPTED;
    }
    uint64_t reached = 0, unreached = 0;
    char name[32];
    tb_index *x = tb_index_open(g, o->dir);
    if (!x)
        return cli_fail(1, "tb reach: out of memory");
    if (o->json)
        printf("{\"levels\": %d, \"per_level\": [", r.levels);
    else
        printf("states first reached at each distance from the start (plies 0 to %d):\n ", r.levels);
    for (int d = 0; d <= r.levels; d++)
        printf(o->json ? "%s%llu" : "%s %llu", d && o->json ? ", " : "", (unsigned long long)r.at_level[d]);
    if (o->json)
    {
        printf("], \"farthest\": ");
        cli_json_string(stdout, index_text(g, x, r.far_mat, r.far_index));
        printf(", \"materials\": [");
    }
    else
        printf("\nfarthest, %d plies from the start: %s\n", r.levels, index_text(g, x, r.far_mat, r.far_index));
    for (int k = 0; k < r.materials; k++) {
        const tb_reach_material *m = &r.mat[k];
        ops->material_name(g, m->mat, name, sizeof name);
        reached += m->reached;
        unreached += m->unreached;
        if (o->json) {
            printf("%s{\"material\": \"%s\", \"reached\": %llu, \"unreached\": %llu, \"fed\": %llu, \"unreached_first\": [",
                   k ? ", " : "", name, (unsigned long long)m->reached, (unsigned long long)m->unreached,
                   (unsigned long long)m->fed);
            for (int i = 0; i < m->n_witness; i++) {
                printf("%s", i ? ", " : "");
                cli_json_string(stdout, index_text(g, x, m->mat, m->witness[i]));
            }
            printf("]}");
            continue;
        }
        printf("%-8s %14llu states reached, %llu not reached (twins aside), %llu of those a move of their material "
               "leads to from a reached state%s\n",
               name, (unsigned long long)m->reached, (unsigned long long)m->unreached, (unsigned long long)m->fed,
               m->n_witness ? "; the first:" : "");
        for (int i = 0; i < m->n_witness; i++)
            printf("           %s\n", index_text(g, x, m->mat, m->witness[i]));
    }
    if (o->json)
        printf("], \"reached\": %llu, \"unreached\": %llu, \"seconds\": %.1f}\n", (unsigned long long)reached,
               (unsigned long long)unreached, r.seconds);
    else
        printf("%-8s %14llu states reached, %llu not reached; %.1f s\n", "total", (unsigned long long)reached,
               (unsigned long long)unreached, r.seconds);
    tb_index_close(x);
    return 0;
}

/* The options each action reads, besides --dir: of games with tables, and
 * of Othello solved whole by layers. */
static const struct {
    const char *action;
    unsigned tables, layers;
} reads[] = {
    { "build", GIVEN(PIECES) | GIVEN(THREADS) | GIVEN(COMPRESS) | GIVEN(ONLY) | GIVEN(SAVE_EVERY) | GIVEN(WHOLE_BELOW) |
                   GIVEN(TB_CACHE),
      GIVEN(THREADS) | GIVEN(MEMORY) },
    { "probe", GIVEN(JSON) | GIVEN(MOVES), GIVEN(JSON) | GIVEN(MOVES) },
    { "line", GIVEN(JSON) | GIVEN(MAX_PLIES), GIVEN(JSON) | GIVEN(MAX_PLIES) },
    { "verify", GIVEN(THREADS) | GIVEN(ONLY), GIVEN(THREADS) },
    { "stats", GIVEN(JSON) | GIVEN(TSV) | GIVEN(CENSUS) | GIVEN(THREADS) | GIVEN(ONLY), GIVEN(JSON) },
    { "compress", 0, 0 },
    { "reach", GIVEN(FROM) | GIVEN(CHECKPOINT) | GIVEN(UNREACHED) | GIVEN(THREADS) | GIVEN(JSON),
      GIVEN(THREADS) | GIVEN(MEMORY) | GIVEN(JSON) },
};

static unsigned options_of(const char *action, int layers)
{
    for (size_t i = 0; i < sizeof reads / sizeof *reads; i++)
        if (strcmp(action, reads[i].action) == 0)
            return GIVEN(DIR) | (layers ? reads[i].layers : reads[i].tables);
    return GIVEN(DIR);
}

/* An option the action would ignore is refused: 0, or the usage failure. */
static int refuse_other_options(const tb_opts *o, const char *action, const game *g, int layers)
{
    unsigned extra = o->given & ~options_of(action, layers);
    if (!extra)
        return 0;
    int opt = OPT_PIECES + __builtin_ctz(extra);
    const char *name = "?";
    for (const struct option *l = tb_long; l->name; l++)
        if (l->val == opt)
            name = l->name;
    return cli_fail(EXIT_USAGE, "tb %s: --%s is not an option of tb %s for %s (see 'pnsolve tb --help')", action, name,
                    action, g->name);
}

int cmd_tb(int argc, char **argv)
{
    cli_game_opts go;
    tb_opts o = { .dir = "tables", .save_every = 1800, .memory = 8192, .max_plies = 1000 };
    int first;
    if (cli_parse(argc, argv, &go, tb_long, on_option, &o, &first) != 0)
        return EXIT_USAGE;
    if (go.help)
        return fputs(help, stdout), 0;
    if (go.position)
        return cli_fail(EXIT_USAGE, "tb: no --position (tb probe and tb line take POSITION as an argument, tb reach --from)");
    if (argc - first < 2)
        return cli_fail(EXIT_USAGE, "tb: expected ACTION GAME (see 'pnsolve tb --help')");
    const char *action = argv[first];
    int want_args = strcmp(action, "probe") == 0 || strcmp(action, "line") == 0 ? 3 : 2;
    if (strcmp(action, "build") && strcmp(action, "probe") && strcmp(action, "line") && strcmp(action, "verify") &&
        strcmp(action, "stats") && strcmp(action, "compress") && strcmp(action, "reach"))
        return cli_fail(EXIT_USAGE, "tb: unknown action '%s' (build, probe, line, verify, stats, compress, reach)",
                        action);
    if (argc - first != want_args)
        return cli_fail(EXIT_USAGE, "tb %s: expected %s", action, want_args == 3 ? "GAME POSITION" : "GAME");
    struct stat dst;
    if (strcmp(action, "build") && strcmp(action, "reach") && (stat(o.dir, &dst) != 0 || !S_ISDIR(dst.st_mode)))
        return cli_fail(1, "tb %s: no table directory '%s'", action, o.dir);  /* not "no table for material ..." */
    game *g;
    game_state unused;
    int rc = cli_open_game(argv[first + 1], go.variant, NULL, &g, &unused);
    if (rc)
        return rc;
    int layers = !game_has_tables(g) && game_has_solver(g) && game_has_unkey(g);  /* solved whole */
    if ((rc = refuse_other_options(&o, action, g, layers)) != 0) {
        game_close(g);
        return rc;
    }
    if ((o.progress.every > 0 || o.progress.json) && strcmp(action, "build") && strcmp(action, "verify") &&
        strcmp(action, "reach")) {
        game_close(g);
        return cli_fail(EXIT_USAGE, "tb %s: --progress is an option of tb build, verify and reach", action);
    }
    if (!layers && !game_has_tables(g)) {
        game_close(g);
        return cli_fail(EXIT_USAGE, "tb: %s has no endgame tables", argv[first + 1]);
    }
    if (strcmp(action, "probe") == 0 || strcmp(action, "line") == 0) {  /* the probe side: every kind of table */
        rc = strcmp(action, "probe") == 0 ? cli_tb_probe(g, o.dir, argv[first + 2], o.json, o.moves)
                                          : cli_tb_line(g, o.dir, argv[first + 2], o.max_plies, o.json);
        game_close(g);
        return rc;
    }
    if (layers) {
        rc = cli_tb_layers(g, action, o.dir, o.json, o.threads, (uint64_t)o.memory << 20);
        game_close(g);
        return rc;
    }
    if (strcmp(action, "build") == 0) {
        rc = tb_build_cmd(g, &o);
    } else if (strcmp(action, "verify") == 0) {
        char err[600];
        int mat = o.only ? game_tables(g)->material_parse(g, o.only) : 0;
        if (mat < 0) {
            game_close(g);
            return cli_fail(EXIT_USAGE, "tb verify: no material '%s' in %s", o.only, argv[first + 1]);
        }
        cli_progress progress = o.progress;
        cli_progress_setup(&progress, "tb verify");
        int tty = progress.tty;
        tb_verify_watch w = { cli_progress_wanted(&progress) ? show_verify_progress : NULL, &progress, &cli_stop, 0 };
        cli_catch_interrupt();
        long wrong = o.only ? tb_verify_table(g, o.dir, mat, o.threads, stdout, &w, err, sizeof err)
                            : tb_verify_watched(g, o.dir, o.threads, stdout, &w, err, sizeof err);
        if (tty)
            fputs("\r\033[K", stderr);
        rc = wrong < 0 ? cli_fail(1, "tb verify: %s", err) : cli_stop ? EXIT_INTERRUPTED : wrong > 0 ? 1 : 0;
        if (wrong >= 0 && cli_stop)
            printf("verify: stopped, %ld problems so far\n", wrong);
        else if (wrong > 0)
            printf("verify: %ld problems\n", wrong);
        else if (wrong == 0)
            printf("verify: all tables correct\n");
    } else if (strcmp(action, "compress") == 0) {
        char err[600];
        cli_catch_interrupt();
        long n = tb_compress(g, o.dir, &cli_stop, stderr, err, sizeof err);
        rc = n < 0 ? cli_fail(1, "tb compress: %s", err) : cli_stop ? EXIT_INTERRUPTED : 0;
        if (n >= 0)
            fprintf(stderr, "%ld tables compressed in %s\n", n, o.dir);
    } else if (strcmp(action, "reach") == 0) {
        rc = tb_reach_cmd(g, &o);
    } else {
        rc = tb_stats_cmd(g, &o);
    }
    game_close(g);
    return rc;
}
