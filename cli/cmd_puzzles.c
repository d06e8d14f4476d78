/* cli/cmd_puzzles.c - `pnsolve puzzles GAME` composes mate-in-N problems;
 * `pnsolve solve-puzzle GAME` checks one. */
#include "cli.h"
#include "../render/render.h"
#include "../pns/pns.h"
#include "../puzzle/puzzle.h"
#include "../util/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

static const char puzzles_help[] =
    "usage: pnsolve puzzles GAME --mate-in N [options]\n"
    "Finds positions where the side to move wins in exactly N plies (N odd)\n"
    "against the longest defence, with a unique key, and prints them by score\n"
    "(docs/puzzles.md).  From the endgame tables where the game has them,\n"
    "else from random games and the depth-bounded search.\n"
    "  --mate-in N               the stipulation in plies (odd, 1..99)\n"
    "  --unique shortest|strict  no other first move wins within N (default) |\n"
    "                            at all\n"
    "  --motif M[,M...]          keep puzzles with all of: sacrifice, quiet,\n"
    "                            retreat, capture, approach, hole, self-push, ko\n"
    "  --count K                 puzzles to find (default 10)\n"
    "  --seed S                  random seed (default 1): the same S, the same puzzles\n"
    "  --pieces P|MATERIAL       tables: pieces on the board or one material\n"
    "                            (default: the most pieces the tables have)\n"
    "  --side PLAYER             the player to move (e.g. White, Black)\n"
    "  --samples N               give up after N positions (default 1e9)\n"
    "  --plies L                 without tables: random games of up to L plies (60)\n"
    "  --tb-dir D  --no-tb       endgame tables (default ./tables) or none\n"
    "  --memory MB               search table (default 256)\n"
    "  --json                    one JSON object per puzzle, one per line\n"
    "  --svg DIR                 also one SVG diagram per puzzle in DIR\n"
    "  --html FILE               also a booklet: one page, a numbered diagram per\n"
    "                            problem, the solutions folded; two to an A4 page\n"
    "                            when printed, the answers at the end; --title T and\n"
    "                            --author A head it\n"
    CLI_PROGRESS_HELP;

static const char solve_help[] =
    "usage: pnsolve solve-puzzle GAME --position P --mate-in N [options]\n"
    "Checks the claim 'the side to move wins in N plies': proves it, lists every\n"
    "cook (another key), the duals of the main line and the tries, and says\n"
    "whether the problem is sound (exit 0) or not (exit 1).\n"
    "  --unique shortest|strict  what counts as a cook (default shortest)\n"
    "  --tb-dir D  --no-tb       endgame tables (default ./tables) or none\n"
    "  --memory MB               search table (default 256)\n"
    "  --json                    one JSON object\n";

typedef struct {
    int n, json, no_tb, side_set, count_set;
    puzzle_unique unique;
    unsigned motifs;
    uint64_t count, seed, samples;
    int plies;
    size_t memory;
    const char *tb_dir, *svg, *pieces, *side, *html, *title, *author;
    cli_progress progress;  /* puzzles: a line as each is found */
} puzzle_opts;

enum { OPT_MATE = 256, OPT_UNIQUE, OPT_MOTIF, OPT_COUNT, OPT_SEED, OPT_PIECES, OPT_SIDE, OPT_SAMPLES, OPT_PLIES,
       OPT_TBDIR, OPT_NOTB, OPT_MEMORY, OPT_JSON, OPT_SVG, OPT_HTML, OPT_TITLE, OPT_AUTHOR };

static const struct option puzzle_long[] = {
    { "mate-in", required_argument, NULL, OPT_MATE },
    { "unique", required_argument, NULL, OPT_UNIQUE },
    { "motif", required_argument, NULL, OPT_MOTIF },
    { "count", required_argument, NULL, OPT_COUNT },
    { "seed", required_argument, NULL, OPT_SEED },
    { "pieces", required_argument, NULL, OPT_PIECES },
    { "side", required_argument, NULL, OPT_SIDE },
    { "samples", required_argument, NULL, OPT_SAMPLES },
    { "plies", required_argument, NULL, OPT_PLIES },
    { "tb-dir", required_argument, NULL, OPT_TBDIR },
    { "no-tb", no_argument, NULL, OPT_NOTB },
    { "memory", required_argument, NULL, OPT_MEMORY },
    { "json", no_argument, NULL, OPT_JSON },
    { "svg", required_argument, NULL, OPT_SVG },
    { "html", required_argument, NULL, OPT_HTML },
    { "title", required_argument, NULL, OPT_TITLE },
    { "author", required_argument, NULL, OPT_AUTHOR },
    CLI_PROGRESS_OPTIONS,
    { NULL, 0, NULL, 0 },
};

static const struct { const char *name; unsigned flag; } motif_names[] = {
    { "sacrifice", PUZZLE_MOTIF_SACRIFICE }, { "quiet", PUZZLE_MOTIF_QUIET }, { "retreat", GAME_MOTIF_RETREAT },
    { "capture", GAME_MOTIF_CAPTURE }, { "approach", GAME_MOTIF_APPROACH }, { "hole", GAME_MOTIF_HOLE },
    { "self-push", GAME_MOTIF_SELF_PUSH }, { "ko", PUZZLE_MOTIF_KO },
};

static int parse_motifs(const char *arg, unsigned *out)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", arg);
    *out = 0;
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        size_t i = 0;
        while (i < sizeof motif_names / sizeof motif_names[0] && strcmp(tok, motif_names[i].name) != 0)
            i++;
        if (i == sizeof motif_names / sizeof motif_names[0])
            return -1;
        *out |= motif_names[i].flag;
    }
    return *out ? 0 : -1;
}

static int on_option(int opt, const char *arg, void *ctx)
{
    puzzle_opts *p = ctx;
    switch (opt) {
    case OPT_MATE:
        return cli_int(arg, 1, 99, &p->n) != 0 || p->n % 2 == 0 ? -1 : 0;
    case OPT_UNIQUE:
        if (strcmp(arg, "shortest") == 0) p->unique = PUZZLE_UNIQUE_SHORTEST;
        else if (strcmp(arg, "strict") == 0) p->unique = PUZZLE_UNIQUE_STRICT;
        else return -1;
        return 0;
    case OPT_MOTIF: return parse_motifs(arg, &p->motifs);
    case OPT_COUNT:
    case OPT_SEED:
    case OPT_SAMPLES:
        return cli_u64(arg, opt != OPT_SEED, UINT64_MAX,
                       opt == OPT_COUNT ? &p->count : opt == OPT_SEED ? &p->seed : &p->samples);
    case OPT_PLIES:
        return cli_int(arg, 0, 10000, &p->plies);
    case OPT_PIECES: p->pieces = arg; return *arg ? 0 : -1;
    case OPT_SIDE: p->side = arg; return *arg ? 0 : -1;
    case OPT_TBDIR: p->tb_dir = arg; return *arg ? 0 : -1;
    case OPT_NOTB: p->no_tb = 1; return 0;
    case OPT_JSON: p->json = 1; return 0;
    case OPT_SVG: p->svg = arg; return *arg ? 0 : -1;
    case OPT_HTML: p->html = arg; return *arg ? 0 : -1;
    case OPT_TITLE: p->title = arg; return *arg ? 0 : -1;
    case OPT_AUTHOR: p->author = arg; return *arg ? 0 : -1;
    case OPT_MEMORY: {
        long v;
        if (cli_long(arg, 1, 1L << 20, &v) != 0) return -1;
        p->memory = (size_t)v << 20;
        return 0;
    }
    default: return cli_progress_option(&p->progress, opt, arg) == 0 ? 0 : -1;
    }
}

/* --- printing --------------------------------------------------------------- */

static void stipulation(const game *g, const game_state *s, const puzzle_problem *p, char *buf, size_t len)
{
    /* plies, as the search counts; composers count the attacker's moves */
    snprintf(buf, len, "%s to move wins in %d plies (%d moves)", g->ops->player[game_to_move(g, s)], p->n,
             (p->n + 1) / 2);
}

/* "1. c2c3 d6d5 2. e2e3 ..." with the attacker's moves numbered. */
static void line_text(const game *g, const game_state *s, const puzzle_problem *p, char *buf, size_t len)
{
    game_state t = *s;
    size_t used = 0;
    buf[0] = 0;
    for (int i = 0; i < p->line_len && used + 32 < len; i++) {
        char mv[GAME_TEXT_MAX];
        game_format_move(g, &t, p->line[i], mv, sizeof mv);
        if (i % 2 == 0)
            used += (size_t)snprintf(buf + used, len - used, "%s%d. ", i ? " " : "", i / 2 + 1);
        else
            used += (size_t)snprintf(buf + used, len - used, " ");
        used += (size_t)snprintf(buf + used, len - used, "%s", mv);
        game_play(g, &t, p->line[i]);
    }
}

/* The state before ply `ply` of the main line. */
static game_state line_state(const game *g, const game_state *s, const puzzle_problem *p, int ply)
{
    game_state t = *s;
    for (int i = 0; i < ply; i++)
        game_play(g, &t, p->line[i]);
    return t;
}

static const char *try_outcome(puzzle_try_outcome o)
{
    return o == PUZZLE_TRY_LOSS ? "loses" : o == PUZZLE_TRY_DRAW ? "draws" : o == PUZZLE_TRY_SLOWER ? "wins only later"
                                                                                              : "no win in time";
}

static void motif_list(unsigned f, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = 0;
    for (size_t i = 0; i < sizeof motif_names / sizeof motif_names[0]; i++)
        if (f & motif_names[i].flag)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "", motif_names[i].name);
}

static void print_notes(FILE *out, const game *g, const game_state *s, const puzzle_problem *p);

static void print_text(FILE *out, const game *g, const game_state *s, const puzzle_problem *p, int number, int diagram)
{
    char text[GAME_TEXT_MAX], stip[128], line[4096], motifs[256], mv[GAME_TEXT_MAX];
    game_format(g, s, text, sizeof text);
    stipulation(g, s, p, stip, sizeof stip);
    line_text(g, s, p, line, sizeof line);
    motif_list(p->motifs, motifs, sizeof motifs);
    if (number)
        fprintf(out, "Puzzle %d  (score %.0f)\n", number, p->score);
    if (diagram)
        game_diagram(g, s, out);
    fprintf(out, "position: %s\n%s\n", text, stip);
    game_format_move(g, s, p->key, mv, sizeof mv);
    fprintf(out, "key: %s%s%s%s\n", mv, *motifs ? "  (" : "", motifs, *motifs ? ")" : "");
    fprintf(out, "solution: %s\n", line);
    print_notes(out, g, s, p);
    fputc('\n', out);
}

/* The duals and tries of p from s, a line each. */
static void print_notes(FILE *out, const game *g, const game_state *s, const puzzle_problem *p)
{
    char mv[GAME_TEXT_MAX], rf[GAME_TEXT_MAX];
    if (p->nduals == 0)
        fprintf(out, "duals: none\n");
    for (int i = 0; i < p->nduals; i++) {
        game_state t = line_state(g, s, p, p->duals[i].ply);
        game_format_move(g, &t, p->duals[i].move, mv, sizeof mv);
        game_format_move(g, &t, p->line[p->duals[i].ply], rf, sizeof rf);
        fprintf(out, "dual: ply %d %s (as well as %s)\n", p->duals[i].ply + 1, mv, rf);
    }
    fprintf(out, "tries: %d\n", p->ntries);
    for (int i = 0; i < p->ntries; i++) {
        const puzzle_try *t = &p->tries[i];
        game_state a = *s;
        game_format_move(g, &a, t->move, mv, sizeof mv);
        game_play(g, &a, t->move);
        if (t->has_refutation) {
            game_format_move(g, &a, t->refutation, rf, sizeof rf);
            if (t->outcome == PUZZLE_TRY_SLOWER)
                fprintf(out, "  try %s? %s! (%s: in %d)\n", mv, rf, try_outcome(t->outcome), t->distance);
            else
                fprintf(out, "  try %s? %s! (%s)\n", mv, rf, try_outcome(t->outcome));
        } else {
            fprintf(out, "  try %s? (%s at once)\n", mv, try_outcome(t->outcome));
        }
    }
}

static void print_json(const game *g, const game_state *s, const puzzle_problem *p)
{
    char text[GAME_TEXT_MAX], stip[128], mv[GAME_TEXT_MAX];
    game_format(g, s, text, sizeof text);
    stipulation(g, s, p, stip, sizeof stip);
    printf("{\"position\":");
    cli_json_string(stdout, text);
    printf(",\"stipulation\":");
    cli_json_string(stdout, stip);
    printf(",\"mate_in\":%d,\"distance\":%d,\"sound\":%s,\"key\":", p->n, p->distance,
           p->sound == 1 ? "true" : p->sound == 0 ? "false" : "null");
    game_format_move(g, s, p->key, mv, sizeof mv);
    cli_json_string(stdout, mv);
    printf(",\"main_line\":[");
    game_state t = *s;
    for (int i = 0; i < p->line_len; i++) {
        game_format_move(g, &t, p->line[i], mv, sizeof mv);
        printf("%s", i ? "," : "");
        cli_json_string(stdout, mv);
        game_play(g, &t, p->line[i]);
    }
    printf("],\"duals\":[");
    for (int i = 0; i < p->nduals; i++) {
        game_state u = line_state(g, s, p, p->duals[i].ply);
        game_format_move(g, &u, p->duals[i].move, mv, sizeof mv);
        printf("%s{\"ply\":%d,\"move\":", i ? "," : "", p->duals[i].ply + 1);
        cli_json_string(stdout, mv);
        putchar('}');
    }
    printf("],\"cooks\":[");
    for (int i = 0; i < p->ncooks; i++) {
        game_format_move(g, s, p->cooks[i], mv, sizeof mv);
        printf("%s", i ? "," : "");
        cli_json_string(stdout, mv);
    }
    printf("],\"tries\":[");
    for (int i = 0; i < p->ntries; i++) {
        const puzzle_try *tr = &p->tries[i];
        game_state a = *s;
        game_format_move(g, &a, tr->move, mv, sizeof mv);
        printf("%s{\"move\":", i ? "," : "");
        cli_json_string(stdout, mv);
        game_play(g, &a, tr->move);
        printf(",\"outcome\":\"%s\"", try_outcome(tr->outcome));
        if (tr->outcome == PUZZLE_TRY_SLOWER)
            printf(",\"distance\":%d", tr->distance);
        if (tr->has_refutation) {
            game_format_move(g, &a, tr->refutation, mv, sizeof mv);
            printf(",\"refutation\":");
            cli_json_string(stdout, mv);
        }
        putchar('}');
    }
    printf("],\"motifs\":[");
    int k = 0;
    for (size_t i = 0; i < sizeof motif_names / sizeof motif_names[0]; i++)
        if (p->motifs & motif_names[i].flag)
            printf("%s\"%s\"", k++ ? "," : "", motif_names[i].name);
    printf("],\"score\":%.0f}\n", p->score);
}

static int write_svg(const game *g, const game_state *s, const puzzle_problem *p, const char *dir, int number)
{
    char path[4200], stip[128], line[4096], caption[4096 + 2 * GAME_TEXT_MAX + 32], mv[GAME_TEXT_MAX],
        text[GAME_TEXT_MAX];
    snprintf(path, sizeof path, "%s/puzzle-%03d.svg", dir, number);
    stipulation(g, s, p, stip, sizeof stip);
    line_text(g, s, p, line, sizeof line);
    game_format_move(g, s, p->key, mv, sizeof mv);
    game_format(g, s, text, sizeof text);
    snprintf(caption, sizeof caption, "%s. Key %s. Solution: %s", text, mv, line);
    char err[4600];
    int rc = render_svg_write(g, s, stip, caption, path, err, sizeof err);
    return rc == 0 ? 0 : cli_fail(rc == RENDER_NO_BOARD ? EXIT_USAGE : 1, "%s", err);
}

/* --- shared setup ----------------------------------------------------------- */

static tb_set *open_tables(const game *g, const puzzle_opts *p)
{
    if (p->no_tb || !game_has_tables(g))
        return NULL;
    struct stat st;
    const char *dir = p->tb_dir ? p->tb_dir : "tables";
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return NULL;
    return tb_open_lazy(g, dir);
}

/* The most pieces of any table file present in dir, 0 if none. */
static int most_pieces(const game *g, const char *dir)
{
    int mats[4096], n = game_tables(g)->materials(g, CLI_MAX_PIECES, mats, 4096), best = 0;
    for (int i = 0; i < n; i++) {
        char path[4200];
        struct stat st;
        tb_path(g, dir, mats[i], path, sizeof path);
        int k = game_tables(g)->material_pieces(g, mats[i]);
        if (k > best && stat(path, &st) == 0)
            best = k;
    }
    return best;
}

typedef struct {
    game_state s;
    puzzle_problem p;
    uint64_t order;
} found_puzzle;

typedef struct {
    found_puzzle *v;
    size_t n, cap;
    uint64_t want;  /* the count asked for, for the progress line */
    double t0;
    cli_progress *progress;
} found_list;

/* The problems found as a booklet at p->html: 0, or an exit code (said). */
static int write_booklet(const game *g, const found_list *found, const puzzle_opts *p)
{
    size_t n = found->n;
    render_booklet_item *items = calloc(n, sizeof *items);
    char (*stip)[128] = calloc(n, sizeof *stip), (*key)[GAME_TEXT_MAX + 272] = calloc(n, sizeof *key);
    char (*line)[4096] = calloc(n, sizeof *line);
    char **analysis = calloc(n, sizeof *analysis);
    int rc = items && stip && key && line && analysis ? 0 : cli_fail(1, "puzzles: out of memory");
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const game_state *s = &found->v[i].s;
        const puzzle_problem *pz = &found->v[i].p;
        size_t len;
        FILE *m = open_memstream(&analysis[i], &len);
        if (!m)
            rc = cli_fail(1, "puzzles: out of memory");
        else {
            print_notes(m, g, s, pz);
            fclose(m);
        }
        char mv[GAME_TEXT_MAX], motifs[256];
        game_format_move(g, s, pz->key, mv, sizeof mv);
        motif_list(pz->motifs, motifs, sizeof motifs);
        snprintf(key[i], sizeof key[i], "%s%s%s%s", mv, *motifs ? " (" : "", motifs, *motifs ? ")" : "");
        line_text(g, s, pz, line[i], sizeof line[i]);
        stipulation(g, s, pz, stip[i], sizeof stip[i]);
        items[i] = (render_booklet_item){ s, stip[i], key[i], line[i], analysis[i] ? analysis[i] : "" };
    }
    char title[GAME_NAME_MAX + 128];
    if (p->title)
        snprintf(title, sizeof title, "%s", p->title);
    else
        snprintf(title, sizeof title, "%s: %zu problems, mate in %d plies (%d moves)", g->name, n, p->n,
                 (p->n + 1) / 2);
    char err[4600];
    if (rc == 0) {
        int w = render_booklet_write(p->html, title, p->author, g, items, (int)n, err, sizeof err);
        rc = w == 0 ? 0 : cli_fail(w == RENDER_NO_BOARD ? EXIT_USAGE : 1, "%s", err);
        if (rc == 0)
            fprintf(stderr, "puzzles: wrote %s\n", p->html);
    }
    free(key);
    free(line);
    for (size_t i = 0; analysis && i < found->n; i++)
        free(analysis[i]);
    free(analysis), free(stip), free(items);
    return rc;
}

static int on_found(const game_state *s, const puzzle_problem *p, void *ctx)
{
    found_list *l = ctx;
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        found_puzzle *v = realloc(l->v, cap * sizeof *v);
        if (!v)
            return 1;
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n] = (found_puzzle){ *s, *p, l->n };
    l->n++;
    if (cli_progress_wanted(l->progress)) {
        char text[128], json[128];
        double t = util_clock() - l->t0;
        snprintf(text, sizeof text, "%zu of %llu found, %.0f s", l->n, (unsigned long long)l->want, t);
        snprintf(json, sizeof json, "\"found\": %zu, \"wanted\": %llu, \"seconds\": %.1f", l->n,
                 (unsigned long long)l->want, t);
        cli_progress_say(l->progress, text, json);
    }
    return 0;
}

/* Higher score first; the order found breaks ties (reproducible output). */
static int by_score(const void *a, const void *b)
{
    const found_puzzle *x = a, *y = b;
    if (x->p.score != y->p.score)
        return x->p.score < y->p.score ? 1 : -1;
    return x->order < y->order ? -1 : 1;
}

/* Both commands' options and their one argument, GAME: 0 to go on, else
 * the exit code (after the help or one line of error). */
static int parse_common(int argc, char **argv, const char *help, puzzle_opts *p, cli_game_opts *go, int *first,
                        int *exit_code)
{
    memset(p, 0, sizeof *p);
    p->count = 10;
    p->seed = 1;
    p->plies = 60;
    p->memory = (size_t)256 << 20;
    *exit_code = EXIT_USAGE;
    if (cli_parse(argc, argv, go, puzzle_long, on_option, p, first) != 0)
        return -1;
    if (go->help) {
        fputs(help, stdout);
        *exit_code = 0;
        return -1;
    }
    if (argc - *first != 1) {
        cli_fail(EXIT_USAGE, "%s: expected GAME (try 'pnsolve %s --help')", argv[0], argv[0]);
        return -1;
    }
    if (!p->n) {
        cli_fail(EXIT_USAGE, "%s: --mate-in N is required", argv[0]);
        return -1;
    }
    return 0;
}

/* Whether an output of p would replace the game's file or the other output (said). */
static int outputs_clash(const char *spec, const puzzle_opts *p)
{
    cli_file files[] = { { "the game file", cli_game_file(spec), 0 }, { "--svg", p->svg, 1 }, { "--html", p->html, 1 } };
    return cli_distinct_files("puzzles", files, 3);
}

/* The problems found, best first: as text or JSON, and as SVG files and a
 * booklet where asked; 0, or an exit code (said). */
static int print_found(const game *g, found_list *found, const puzzle_opts *p)
{
    int rc = 0;
    if (found->n)  /* qsort of NULL is undefined even for none */
        qsort(found->v, found->n, sizeof *found->v, by_score);
    for (size_t i = 0; i < found->n && rc == 0; i++) {
        if (p->json)
            print_json(g, &found->v[i].s, &found->v[i].p);
        else
            print_text(stdout, g, &found->v[i].s, &found->v[i].p, (int)i + 1, 1);
        if (p->svg)
            rc = write_svg(g, &found->v[i].s, &found->v[i].p, p->svg, (int)i + 1);
    }
    if (rc == 0 && p->html && found->n)
        rc = write_booklet(g, found, p);
    return rc;
}

int cmd_puzzles(int argc, char **argv)
{
    cli_game_opts go;
    puzzle_opts p;
    int first, rc;
    if (parse_common(argc, argv, puzzles_help, &p, &go, &first, &rc) != 0)
        return rc;
    if (go.position)
        return cli_fail(EXIT_USAGE, "puzzles: --position is for solve-puzzle");
    if (outputs_clash(argv[first], &p))
        return EXIT_USAGE;
    game *g;
    game_state s;
    if ((rc = cli_open_game(argv[first], go.variant, NULL, &g, &s)) != 0)
        return rc;
    puzzle_search q = { .n = p.n, .unique = p.unique, .motifs = p.motifs, .side = -1, .material = -1,
                            .count = p.count, .max_samples = p.samples, .seed = p.seed, .playout_plies = p.plies,
                            .stop = &cli_stop };
    if (p.side) {
        q.side = strcasecmp(p.side, g->ops->player[0]) == 0 ? 0 : strcasecmp(p.side, g->ops->player[1]) == 0 ? 1 : -2;
        if (q.side == -2) {
            rc = cli_fail(EXIT_USAGE, "puzzles: --side must be %s or %s", g->ops->player[0], g->ops->player[1]);
            goto out_game;
        }
    }
    tb_set *tb = open_tables(g, &p);
    if (tb) {
        const char *dir = p.tb_dir ? p.tb_dir : "tables";
        int k;
        if (p.pieces && cli_int(p.pieces, 2, CLI_MAX_PIECES, &k) == 0)
            q.pieces = k;
        else if (p.pieces && (q.material = game_tables(g)->material_parse(g, p.pieces)) < 0) {
            rc = cli_fail(EXIT_USAGE, "puzzles: --pieces '%s' is neither a piece count (2-%d) nor a material", p.pieces,
                          CLI_MAX_PIECES);
            goto out_tb;
        } else if (!p.pieces && !(q.pieces = most_pieces(g, dir))) {
            tb_close(tb);
            tb = NULL;  /* no tables there: compose from random games */
        }
    } else if (p.pieces) {
        rc = cli_fail(EXIT_USAGE, "puzzles: --pieces needs endgame tables (--tb-dir)");
        goto out_game;
    }
    pns_options o;
    pns_defaults(&o);
    o.tb = tb;
    o.stop = &cli_stop;
    o.max_seconds = 10;  /* strict uniqueness beyond the tables: a bounded question */
    q.o = &o;
    if (p.svg && cli_make_dir(p.svg) != 0) {
        rc = cli_fail(1, "puzzles: cannot create '%s': %s", p.svg, strerror(errno));
        goto out_tb;
    }
    pns_mate *m = pns_mate_new(g, tb, p.memory);
    if (!m) {
        rc = cli_fail(1, "puzzles: out of memory");
        goto out_tb;
    }
    pns_mate_set_stop(m, &cli_stop);
    cli_catch_interrupt();
    cli_progress_setup(&p.progress, "puzzles");
    found_list found = { .want = p.count, .t0 = util_clock(), .progress = &p.progress };
    q.found = on_found;
    q.ctx = &found;
    uint64_t exhausted = 0;
    q.exhausted = &exhausted;
    char err[512];
    int64_t samples = puzzle_find(m, tb, &q, err, sizeof err);
    if (samples < 0 && !cli_stop)
        rc = cli_fail(1, "puzzles: %s", err);
    if (found.n)
        cli_progress_end(&p.progress);
    if (rc == 0)
        rc = print_found(g, &found, &p);
    char why[128] = "";
    if (cli_stop)
        snprintf(why, sizeof why, " (interrupted)");
    else if (exhausted)
        snprintf(why, sizeof why, " (stopped: the space is seen, %llu positions, none new in the last %llu draws)",
                 (unsigned long long)exhausted, 20 * (unsigned long long)exhausted);
    else if (found.n < p.count)
        snprintf(why, sizeof why, " (gave up: --samples)");
    if (rc == 0)
        fprintf(stderr, "puzzles: %zu found in %lld positions looked at%s\n", found.n, (long long)(samples < 0 ? 0 : samples), why);
    if (rc == 0 && cli_stop)
        rc = EXIT_INTERRUPTED;
    free(found.v);
    pns_mate_free(m);
out_tb:
    tb_close(tb);
out_game:
    game_close(g);
    return rc;
}

int cmd_solve_puzzle(int argc, char **argv)
{
    cli_game_opts go;
    puzzle_opts p;
    int first, rc;
    if (parse_common(argc, argv, solve_help, &p, &go, &first, &rc) != 0)
        return rc;
    if (!go.position)
        return cli_fail(EXIT_USAGE, "solve-puzzle: --position P is required");
    if (p.motifs || p.svg || p.html || p.pieces || p.side || p.title || p.author || p.progress.every > 0 ||
        p.progress.json)
        return cli_fail(EXIT_USAGE, "solve-puzzle: --motif, --svg, --html, --title, --author, --pieces, --side and "
                                    "--progress are for puzzles");
    game *g;
    game_state s;
    if ((rc = cli_open_game(argv[first], go.variant, go.position, &g, &s)) != 0)
        return rc;
    if (game_result_of(g, &s) != GAME_ONGOING) {
        game_close(g);
        return cli_fail(EXIT_USAGE, "solve-puzzle: the game is already over in that position");
    }
    tb_set *tb = open_tables(g, &p);
    pns_options o;
    pns_defaults(&o);
    o.tb = tb;
    o.stop = &cli_stop;
    pns_mate *m = pns_mate_new(g, tb, p.memory);
    if (!m) {
        tb_close(tb);
        game_close(g);
        return cli_fail(1, "solve-puzzle: out of memory");
    }
    pns_mate_set_stop(m, &cli_stop);
    cli_catch_interrupt();
    puzzle_problem pz;
    char err[512];
    if (puzzle_check(m, &s, p.n, p.unique, &o, &pz, err, sizeof err) != 0) {
        rc = cli_fail(cli_stop ? EXIT_INTERRUPTED : 1, "solve-puzzle: %s", err);
    } else if (p.json) {
        print_json(g, &s, &pz);
        rc = pz.sound == 1 ? 0 : 1;
    } else {
        char stip[128], mv[GAME_TEXT_MAX];
        stipulation(g, &s, &pz, stip, sizeof stip);
        printf("claim: %s\n", stip);
        if (pz.distance == 0)
            printf("claim: disproven (no win within %d plies)\n", p.n);
        else if (pz.distance < p.n)
            printf("claim: the win is shorter: in %d\n", pz.distance);
        else
            printf("claim: proven (and no win within %d)\n", p.n - 2);
        for (int i = 0; i < pz.ncooks; i++) {
            game_format_move(g, &s, pz.cooks[i], mv, sizeof mv);
            printf("cook: %s\n", mv);
        }
        if (pz.distance) {
            print_text(stdout, g, &s, &pz, 0, 1);
            printf("nodes: %llu\n", (unsigned long long)pns_mate_nodes(m));
        }
        printf("sound: %s\n", pz.sound == 1 ? "yes" : pz.sound == 0 ? "no" : "undecided (df-pn stayed open)");
        rc = pz.sound == 1 ? 0 : 1;
    }
    pns_mate_free(m);
    tb_close(tb);
    game_close(g);
    return rc;
}
