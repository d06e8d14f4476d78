/* cli/serve_api.c - the server's read-only endpoints: the games, a
 * position with every move's value, the mainline, the board's picture,
 * the campaign's status and the puzzles (docs/serve.md). */
#include "serve.h"
#include "campaign_cli.h"
#include "../render/render.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define LINE_PLIES_MAX 5000

static const char *wdl_word(int w) { return w > 0 ? "win" : w < 0 ? "loss" : "draw"; }

/* v's members ("result" and "distance" or "score") into o. */
static void put_value(json_t *o, const tb_value *v)
{
    json_object_set_new(o, "result", json_string(wdl_word(v->wdl)));
    if (v->scored)
        json_object_set_new(o, "score", json_integer(v->score));
    else
        json_object_set_new(o, "distance", json_integer(v->distance));
}

/* The game and position of a query: 0, or a 400 reply naming the field. */
static int game_and_position(serve_ctx *c, serve_param_fn param, void *conn, serve_game **sg, game_state *s,
                             serve_reply *r)
{
    const char *spec = param(conn, "game"), *pos = param(conn, "position");
    char err[1600];
    if (!spec || !*spec)
        return serve_error(r, 400, "game: missing (e.g. game=jungle)"), -1;
    if (!(*sg = serve_game_get(c, spec, err, sizeof err)))
        return serve_error(r, 400, "%s", err), -1;
    if (!pos || !*pos) {
        game_start((*sg)->g, s);
        return 0;
    }
    if (game_parse((*sg)->g, pos, s, err, sizeof err) != 0)
        return serve_error(r, 400, "position: %s", err), -1;
    return 0;
}

/* A finished state's result for player p, with the score where the game
 * scores; plies: 0 for the state itself, 1 for a move into it (as the
 * tables count a move into a child lost in d plies a win in d + 1). */
static void put_over(json_t *o, const game *g, const game_state *s, int p, int plies)
{
    game_result res = game_result_of(g, s);
    int w = game_outcome_for(res, p);
    json_object_set_new(o, "result", json_string(wdl_word(w)));
    if (g->score_bound > 0) {
        int score = game_score(g, s);  /* the first player's */
        json_object_set_new(o, "score", json_integer(p == 0 ? score : -score));
    } else {
        json_object_set_new(o, "distance", json_integer(w ? plies : 0));
    }
}

/* The legal moves of s, no value known (tb_probe_moves's form, its order). */
static int unvalued_moves(const game *g, const game_state *s, tb_move_value *out)
{
    game_move mv[GAME_MAX_MOVES];
    int n = game_moves(g, s, mv);
    for (int i = 0; i < n; i++)
        out[i] = (tb_move_value){ .move = mv[i], .found = 0 };
    return n;
}

static void get_position(serve_ctx *c, serve_param_fn param, void *conn, serve_reply *r)
{
    serve_game *sg;
    game_state s;
    if (game_and_position(c, param, conn, &sg, &s, r) != 0)
        return;
    const game *g = sg->g;
    char text[GAME_TEXT_MAX], err[600];
    game_format(g, &s, text, sizeof text);
    int mover = game_to_move(g, &s), over = game_result_of(g, &s) != GAME_ONGOING;
    json_t *o = json_pack("{ss ss ss sb}", "game", sg->spec, "position", text, "to_move", g->ops->player[mover],
                          "over", over);
    tb_value v;
    int found = sg->tables ? cli_tb_value(g, sg->tables, &s, &v, err, sizeof err) : over;
    if (found < 0) {
        json_decref(o);
        return serve_error(r, 500, "tables: %s", err);
    }
    json_t *value = json_object();
    if (over)
        put_over(value, g, &s, mover, 0);
    else if (found)
        put_value(value, &v);
    json_object_set_new(o, "value", found ? value : (json_decref(value), json_null()));
    json_object_set_new(o, "source", json_string(over ? "rules" : found ? "tables" : "none"));
    /* every move, valued by the tables where they are; a move without a
     * value that ends the game gets the rules', the others are open */
    tb_move_value mv[GAME_MAX_MOVES];
    int n = over ? 0 : sg->tables ? tb_probe_moves(sg->tables, &s, mv, err, sizeof err) : unvalued_moves(g, &s, mv);
    if (n < 0) {
        json_decref(o);
        return serve_error(r, 500, "tables: %s", err);
    }
    json_t *moves = json_array();
    for (int i = 0; i < n; i++) {
        game_state ch = s;
        game_play(g, &ch, mv[i].move);
        char move[GAME_TEXT_MAX], child[GAME_TEXT_MAX];
        game_format_move(g, &s, mv[i].move, move, sizeof move);
        game_format(g, &ch, child, sizeof child);
        json_t *m = json_pack("{ss ss}", "move", move, "position", child);
        if (mv[i].found)
            put_value(m, &mv[i].value);
        else if (game_result_of(g, &ch) != GAME_ONGOING)
            put_over(m, g, &ch, mover, 1);
        else
            json_object_set_new(m, "result", json_string("open"));
        json_array_append_new(moves, m);
    }
    json_object_set_new(o, "moves", moves);
    serve_json(r, 200, o);
}

typedef struct {
    const game *g;
    json_t *line;
} line_json;

static void ply_json(void *ctx, int ply, const char *move, const game_state *s, const tb_value *v)
{
    line_json *l = ctx;
    char text[GAME_TEXT_MAX];
    game_format(l->g, s, text, sizeof text);
    json_t *p = json_pack("{si ss ss}", "ply", ply, "move", move, "position", text);
    put_value(p, v);
    json_array_append_new(l->line, p);
}

static void get_line(serve_ctx *c, serve_param_fn param, void *conn, serve_reply *r)
{
    serve_game *sg;
    game_state s;
    if (game_and_position(c, param, conn, &sg, &s, r) != 0)
        return;
    int max = 1000;
    const char *m = param(conn, "max_plies");
    if (m && cli_int(m, 1, LINE_PLIES_MAX, &max) != 0)
        return serve_error(r, 400, "max_plies: a number of 1 to %d", LINE_PLIES_MAX);
    if (!sg->tables)
        return serve_error(r, 400, "game: no tables of %s are served (--tb-dir)", sg->spec);
    char err[600], text[GAME_TEXT_MAX];
    tb_value v;
    int found = cli_tb_value(sg->g, sg->tables, &s, &v, err, sizeof err);
    if (found <= 0)
        return serve_error(r, found < 0 ? 500 : 400, "position: %s", err);
    game_format(sg->g, &s, text, sizeof text);
    json_t *o = json_pack("{ss ss}", "game", sg->spec, "position", text);
    put_value(o, &v);
    line_json l = { sg->g, json_array() };
    cli_line_end end;
    if (cli_tb_walk(sg->g, sg->tables, s, max, ply_json, &l, &end, err, sizeof err) != 0) {
        json_decref(o), json_decref(l.line);
        return serve_error(r, 500, "tables: %s", err);
    }
    json_object_set_new(o, "line", l.line);
    json_object_set_new(o, "end", json_string(cli_line_end_key[end]));
    serve_json(r, 200, o);
}

static void get_svg(serve_ctx *c, serve_param_fn param, void *conn, serve_reply *r)
{
    serve_game *sg;
    game_state s;
    if (game_and_position(c, param, conn, &sg, &s, r) != 0)
        return;
    char *buf = NULL, text[GAME_TEXT_MAX];
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return serve_error(r, 500, "out of memory");
    game_format(sg->g, &s, text, sizeof text);
    render_svg_any(sg->g, &s, sg->spec, text, f);
    fclose(f);
    r->status = 200;
    r->type = "image/svg+xml";
    r->body = buf;
    r->len = len;
}

static void get_games(serve_ctx *c, serve_reply *r)
{
    static const char *const known[] = { "jungle", "ostle", "othello:4x4", "othello:6x6", "othello:8x8", "tictactoe",
                                         NULL };
    json_t *list = json_array();
    pthread_mutex_lock(&c->lock);
    for (int i = 0; i < c->nstart; i++)
        json_array_append_new(list, json_pack("{ss sb}", "game", c->games[i].spec, "tables", 1));
    pthread_mutex_unlock(&c->lock);
    for (int i = 0; known[i]; i++) {
        int have = 0;
        for (size_t k = 0; k < json_array_size(list); k++)
            have |= strcmp(json_string_value(json_object_get(json_array_get(list, k), "game")), known[i]) == 0;
        if (!have)
            json_array_append_new(list, json_pack("{ss sb}", "game", known[i], "tables", 0));
    }
    serve_json(r, 200, json_pack("{so sb sb sb}", "games", list, "read_only", c->read_only, "proofs", c->proofs[0] != 0,
                                 "campaign", c->campaign[0] != 0));
}

/* The campaign's status, typed: null where nothing is known yet. */
static void get_campaign(serve_ctx *c, serve_reply *r)
{
    if (!c->campaign[0])
        return serve_error(r, 404, "no campaign is served (--campaign DIR)");
    char err[CAMPAIGN_PATH_MAX + 512];
    campaign *cp = campaign_load(c->campaign, err, sizeof err);
    campaign_state st;
    if (!cp || campaign_status(cp, &st, err, sizeof err) != 0) {
        campaign_close(cp);
        return serve_error(r, 500, "campaign: %s", err);
    }
    const campaign_spec *sp = campaign_spec_of(cp);
    char q[64];
    json_t *o = json_pack("{ss ss ss ss si sb si si si si sf}", "game", sp->game, "variant", sp->variant, "position",
                          sp->position, "question", campaign_kind_word(sp->kind, sp->k, q, sizeof q), "depth", sp->depth,
                          "decided", st.decided, "answered", (int)st.answered, "open", (int)st.open_needed, "frontier",
                          (int)st.frontier, "in_flight", st.decided ? 0 : (int)st.in_flight, "seconds", st.seconds);
    json_object_set_new(o, "lower", st.has_lower ? json_integer(st.lower) : json_null());
    json_object_set_new(o, "upper", st.has_upper ? json_integer(st.upper) : json_null());
    json_object_set_new(o, "proven", st.decided && sp->kind != CAMPAIGN_SCORE ? json_boolean(st.proven) : json_null());
    json_object_set_new(o, "eta", st.eta >= 0 ? json_real(st.eta) : json_null());
    campaign_close(cp);
    serve_json(r, 200, o);
}

/* The puzzles of a `puzzles --json` file, one object a line. */
static void get_puzzles(serve_ctx *c, serve_reply *r)
{
    if (!c->puzzles)
        return serve_error(r, 404, "no puzzles are served (--puzzles FILE)");
    FILE *f = util_fopen_regular(c->puzzles);
    if (!f)
        return serve_error(r, 500, "puzzles: cannot read %s", c->puzzles);
    json_t *list = json_array();
    char *line = NULL;
    size_t cap = 0;
    int n = 0;
    while (getline(&line, &cap, f) > 0 && n < 10000) {
        json_error_t je;
        json_t *p = json_loads(line, 0, &je);
        if (p && json_is_object(p))
            json_array_append_new(list, p), n++;
        else
            json_decref(p);
    }
    free(line);
    fclose(f);
    /* the file does not name its game: the first game whose notation reads its first position */
    static const char *const games[] = { "jungle", "ostle", "ostle:4x4", "ostle:4x5", "ostle:5x4", "ostle:3x4",
                                         "ostle:4x3", "ostle:3x3", NULL };
    const char *pos = json_string_value(json_object_get(json_array_get(list, 0), "position")), *found = NULL;
    for (int i = 0; pos && games[i] && !found; i++) {
        char err[600];
        serve_game *sg = serve_game_get(c, games[i], err, sizeof err);
        game_state s;
        if (sg && game_parse(sg->g, pos, &s, err, sizeof err) == 0)
            found = games[i];
    }
    serve_json(r, 200, json_pack("{so so}", "game", found ? json_string(found) : json_null(), "puzzles", list));
}

int serve_api_get(serve_ctx *c, const char *path, serve_param_fn param, void *conn, serve_reply *r)
{
    if (strcmp(path, "position") == 0)
        get_position(c, param, conn, r);
    else if (strcmp(path, "line") == 0)
        get_line(c, param, conn, r);
    else if (strcmp(path, "svg") == 0)
        get_svg(c, param, conn, r);
    else if (strcmp(path, "games") == 0)
        get_games(c, r);
    else if (strcmp(path, "campaign") == 0)
        get_campaign(c, r);
    else if (strcmp(path, "puzzles") == 0)
        get_puzzles(c, r);
    else
        return -1;
    return 0;
}
