/* cli/tb_probe.c - `pnsolve tb probe` and `tb line` for every game with
 * tables, through the probe side (tablebase.h): a position's value, every
 * legal move's value best first (--moves), and the mainline of perfect
 * play.  Win/draw/loss tables print "win K", "loss K" or "draw"; Othello's
 * strong solutions "score S". */
#include "cli.h"
#include "../tablebase/tablebase.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

int cli_tb_value(const game *g, tb_set *t, const game_state *s, tb_value *v, char *err, size_t errlen)
{
    int rc = tb_probe_any(t, s, v, err, errlen);
    if (rc == 0 && tb_set_scored(t))
        snprintf(err, errlen, "not reachable from %s's start (the strong solution holds no other state)", g->name);
    else if (rc == 0) {
        char name[32];
        game_tables(g)->material_name(g, game_tables(g)->material_of(g, s), name, sizeof name);
        snprintf(err, errlen, "no table for material %s (build it with 'pnsolve tb build')", name);
    }
    return rc;
}

static const char *wdl_word(tb_wdl w) { return w == TB_WIN ? "win" : w == TB_LOSS ? "loss" : "draw"; }

/* A value as text: "win K", "loss K", "draw" or "score S". */
static void value_text(const tb_value *v, char *buf, size_t len)
{
    if (v->scored)
        snprintf(buf, len, "score %d", v->score);
    else if (v->wdl == TB_DRAW)
        snprintf(buf, len, "draw");
    else
        snprintf(buf, len, "%s %d", wdl_word(v->wdl), v->distance);
}

/* A value's JSON members after an object's first: "result" and "distance"
 * or "score" (found 0: "result": null). */
static void value_json(const tb_value *v, int found)
{
    if (!found) {
        printf(", \"result\": null");
        return;
    }
    printf(", \"result\": \"%s\"", wdl_word(v->wdl));
    if (v->scored)
        printf(", \"score\": %d", v->score);
    else
        printf(", \"distance\": %d", v->distance);
}

/* Every legal move of s with its child and value, best first: as lines
 * after the position's own, or as the "moves" member of its object. */
static int print_moves(const game *g, tb_set *t, const game_state *s, int json, char *err, size_t errlen)
{
    tb_move_value mv[GAME_MAX_MOVES];
    int n = game_result_of(g, s) == GAME_ONGOING ? tb_probe_moves(t, s, mv, err, errlen) : 0;
    if (n < 0)
        return -1;
    if (json)
        printf(", \"moves\": [");
    for (int i = 0; i < n; i++) {
        game_state c = *s;
        game_play(g, &c, mv[i].move);
        char move[GAME_TEXT_MAX], child[GAME_TEXT_MAX], value[64];
        game_format_move(g, s, mv[i].move, move, sizeof move);
        game_format(g, &c, child, sizeof child);
        if (json) {
            printf("%s{\"move\": ", i ? ", " : "");
            cli_json_string(stdout, move);
            printf(", \"position\": ");
            cli_json_string(stdout, child);
            value_json(&mv[i].value, mv[i].found);
            printf("}");
        } else {
            if (mv[i].found)
                value_text(&mv[i].value, value, sizeof value);
            else
                snprintf(value, sizeof value, "unknown");
            printf("%-8s %-10s %s\n", move, value, child);
        }
    }
    if (json)
        printf("]");
    return 0;
}

/* Prints one position's answer; 0, 1 (a table problem) or 2 (a bad
 * position).  lenient (reading '-'): a problem is a line on stdout. */
static int probe_one(const game *g, tb_set *t, const char *text, int json, int moves, int lenient)
{
    game_state s;
    tb_value v;
    char err[600];
    int rc = game_parse(g, text, &s, err, sizeof err) == 0 ? cli_tb_value(g, t, &s, &v, err, sizeof err) : -2;
    if (rc == 1 && !json && !moves && tb_set_scored(t)) {  /* Othello's own lines: the score, the best moves */
        printf("score %d\nbest", v.score);
        tb_move_value mv[GAME_MAX_MOVES];
        int n = game_result_of(g, &s) == GAME_ONGOING ? tb_probe_moves(t, &s, mv, err, sizeof err) : 0;
        for (int i = 0; i < n && mv[i].found && mv[i].value.score == v.score; i++) {
            char move[GAME_TEXT_MAX];
            game_format_move(g, &s, mv[i].move, move, sizeof move);
            printf(" %s", move);
        }
        printf("%s\n", n > 0 ? "" : " (the game is over)");
        return 0;
    }
    if (rc == 1 && json) {
        printf("{\"position\": ");
        cli_json_string(stdout, text);
        value_json(&v, 1);
        rc = moves ? print_moves(g, t, &s, 1, err, sizeof err) == 0 : 1;
        printf("}\n");
    } else if (rc == 1) {
        char value[64];
        value_text(&v, value, sizeof value);
        printf("%s\n", value);
        rc = moves ? print_moves(g, t, &s, 0, err, sizeof err) == 0 : 1;
    }
    if (rc == 1)
        return 0;
    int code = rc == -2 ? EXIT_USAGE : 1;
    if (!lenient)
        return cli_fail(code, "tb probe: %s%s", rc == -2 ? "bad position: " : "", err);
    if (json) {
        printf("{\"position\": ");
        cli_json_string(stdout, text);
        printf(", \"error\": ");
        cli_json_string(stdout, err);
        printf("}\n");
    } else
        printf("error %s\n", err);
    return code;
}

int cli_tb_probe(const game *g, const char *dir, const char *position, int json, int moves)
{
    char err[4600];
    tb_set *t = tb_open(g, dir, err, sizeof err);
    if (!t)
        return cli_fail(1, "tb probe: %s", err);
    int rc = 0;
    if (strcmp(position, "-") != 0) {
        rc = probe_one(g, t, position, json, moves, 0);
    } else {
        char *line = NULL;
        size_t cap = 0;
        ssize_t len;
        while ((len = getline(&line, &cap, stdin)) != -1) {
            while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
                line[--len] = 0;
            if (!*line)
                continue;
            int r = probe_one(g, t, line, json, moves, 1);
            if (r > rc)
                rc = r;
        }
        free(line);
    }
    tb_close(t);
    return rc;
}

/* One ply of the mainline: as a line, or an object of the "line" list. */
typedef struct {
    const game *g;
    int json;
} ply_printer;

static void print_ply(void *ctx, int ply, const char *move, const game_state *s, const tb_value *v)
{
    const ply_printer *p = ctx;
    const game *g = p->g;
    int json = p->json;
    char text[GAME_TEXT_MAX], value[64];
    game_format(g, s, text, sizeof text);
    if (json) {
        printf("%s{\"ply\": %d, \"move\": ", ply > 1 ? ", " : "", ply);
        cli_json_string(stdout, move);
        printf(", \"position\": ");
        cli_json_string(stdout, text);
        value_json(v, 1);
        printf("}");
        return;
    }
    value_text(v, value, sizeof value);
    printf("%4d. %-8s %-10s %s\n", ply, move, value, text);
}

const char *const cli_line_end_key[] = { "over", "repetition", "max-plies", "no-table" };

int cli_tb_walk(const game *g, tb_set *t, game_state s, int max_plies, cli_ply_fn on_ply, void *ctx,
                cli_line_end *end, char *err, size_t errlen)
{
    game_key *seen = malloc(sizeof *seen * ((size_t)max_plies + 1));
    if (!seen)
        return util_error(err, errlen, "out of memory");
    seen[0] = game_key_of(g, &s);
    *end = CLI_LINE_MAX;
    int ply = 0, rc = 0;
    while (ply < max_plies) {
        if (game_result_of(g, &s) != GAME_ONGOING) {
            *end = CLI_LINE_OVER;
            break;
        }
        game_move best;
        tb_value v;
        int got = tb_best_move(t, &s, &best, &v, err, errlen);
        if (got <= 0) {
            rc = got < 0 ? -1 : 0;
            *end = CLI_LINE_NO_TABLE;
            break;
        }
        char move[GAME_TEXT_MAX];
        game_format_move(g, &s, best, move, sizeof move);
        game_play(g, &s, best);
        if (cli_tb_value(g, t, &s, &v, err, errlen) != 1) {
            rc = 0;
            *end = CLI_LINE_NO_TABLE;
            break;
        }
        on_ply(ctx, ++ply, move, &s, &v);
        game_key k = game_key_of(g, &s);
        int again = 0;
        for (int i = 0; i < ply && !again; i++)
            again = game_key_equal(seen[i], k);
        seen[ply] = k;
        if (again) {
            *end = CLI_LINE_REPEATED;
            break;
        }
    }
    free(seen);
    return rc;
}

int cli_tb_line(const game *g, const char *dir, const char *position, int max_plies, int json)
{
    char err[4600];
    game_state s;
    if (game_parse(g, position, &s, err, sizeof err) != 0)
        return cli_fail(EXIT_USAGE, "tb line: bad position: %s", err);
    tb_set *t = tb_open(g, dir, err, sizeof err);
    if (!t)
        return cli_fail(1, "tb line: %s", err);
    tb_value v;
    if (cli_tb_value(g, t, &s, &v, err, sizeof err) != 1) {
        tb_close(t);
        return cli_fail(1, "tb line: %s", err);
    }
    char value[64];
    value_text(&v, value, sizeof value);
    if (json) {
        printf("{\"position\": ");
        cli_json_string(stdout, position);
        value_json(&v, 1);
        printf(", \"line\": [");
    } else {
        printf("%4d. %-8s %-10s %s\n", 0, "-", value, position);
    }
    cli_line_end end = CLI_LINE_MAX;
    err[0] = 0;
    ply_printer pp = { g, json };
    int rc = cli_tb_walk(g, t, s, max_plies, print_ply, &pp, &end, err, sizeof err);
    static const char *const why[] = { "the game is over", "a repetition: a draw", "the ply limit",
                                       "a position no table holds" };
    if (json) {
        printf("], \"end\": \"%s\"}\n", cli_line_end_key[end]);
    } else {
        printf("end: %s%s%s\n", why[end], err[0] ? ": " : "", err[0] ? err : "");
    }
    tb_close(t);
    return rc < 0 ? cli_fail(1, "tb line: %s", err) : 0;
}
