/* cli/engine.c - `pnsolve engine`: a line protocol for GUIs and scripts,
 * one JSON object a line in and one a line out (docs/engine.md).  A thin
 * layer over the public API (pnsolve.h): the engine holds a game, a
 * position and the tables, and runs one search at a time on a thread of
 * its own while it goes on reading, so that `stop` reaches it.  JSON is
 * read and written through jansson (Debian's libjansson), here alone. */
#include "cli.h"
#include "../api/pnsolve.h"

#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    pnsolve_game *game;
    pnsolve_tables *tables;
    char position[PNSOLVE_TEXT_MAX];
    pthread_mutex_t out;        /* one line at a time on stdout */
    /* the search under way (at most one) */
    pthread_t thread;
    int running;                /* a search was started and not yet joined */
    volatile int done;          /* it has printed its result */
    volatile int cancel;
    json_t *job;                /* the prove request (its id, question, limits) */
    char job_position[PNSOLVE_TEXT_MAX];
} engine;

static void join_search(engine *E);

static const char *const help =
    "usage: pnsolve engine\n"
    "A line protocol on stdin and stdout for GUIs and scripts: one JSON object a\n"
    "line in, one a line out (docs/engine.md).  Each request has a \"cmd\" and may\n"
    "have an \"id\", which its answers and progress objects echo:\n"
    "  version; game {\"game\": SPEC, \"variant\", \"tables\": DIR}; position\n"
    "  {\"position\": P} (none: the start); moves; play {\"move\": M}; probe (every\n"
    "  move's value: the tables, else a search of each move under the limits);\n"
    "  prove {\"question\": win|advantage|value|score, \"max_seconds\", \"max_nodes\",\n"
    "  \"memory_mb\", \"threads\", \"progress\": SECONDS}; stop (the running search\n"
    "  answers with what it has); quit (stops a running search).  A failure is\n"
    "  {\"error\": \"...\"} and the engine reads on; the end of input ends it once a\n"
    "  running search has answered.\n";

/* Writes o as one line (and frees it), with the request's id if it has one. */
static void send(engine *E, json_t *o, const json_t *req)
{
    json_t *id = req ? json_object_get(req, "id") : NULL;
    if (id)
        json_object_set(o, "id", id);
    char *line = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    pthread_mutex_lock(&E->out);
    if (line)
        printf("%s\n", line);
    fflush(stdout);
    pthread_mutex_unlock(&E->out);
    free(line);
    json_decref(o);
}

static void send_error(engine *E, const json_t *req, const char *fmt, const char *what)
{
    char text[800];
    snprintf(text, sizeof text, fmt, what);
    send(E, json_pack("{s:s}", "error", text), req);
}

/* The position as an answer: canonical, whether the game is over. */
static json_t *position_object(engine *E)
{
    int over = 0, result = 0, score = 0;
    char err[300];
    pnsolve_position_over(E->game, E->position, &over, &result, &score, err, sizeof err);
    json_t *o = json_pack("{s:s, s:b}", "position", E->position, "over", over);
    if (over)
        json_object_set_new(o, "result", json_string(result > 0 ? "win" : result < 0 ? "loss" : "draw"));
    return o;
}

static int need_game(engine *E, const json_t *req)
{
    if (E->game)
        return 1;
    send_error(E, req, "%s", "no game yet: send {\"cmd\": \"game\", \"game\": SPEC} first");
    return 0;
}

static void req_game(engine *E, const json_t *req)
{
    const char *spec = json_string_value(json_object_get(req, "game"));
    const char *variant = json_string_value(json_object_get(req, "variant"));
    const char *dir = json_string_value(json_object_get(req, "tables"));
    char err[600];
    if (!spec)
        return send_error(E, req, "%s", "game: no \"game\" (a string such as \"jungle\" or \"othello:4x4\")");
    if (E->running && E->done)
        join_search(E);
    if (E->running)
        return send_error(E, req, "%s", "game: a search is running on the game (send stop first)");
    pnsolve_game *g = pnsolve_game_open(spec, variant, err, sizeof err);
    if (!g)
        return send_error(E, req, "game: %s", err);
    pnsolve_tables *t = dir ? pnsolve_tables_open(g, dir, err, sizeof err) : NULL;
    if (dir && !t) {
        pnsolve_game_close(g);
        return send_error(E, req, "game: %s", err);
    }
    pnsolve_tables_close(E->tables);
    pnsolve_game_close(E->game);
    E->game = g, E->tables = t;
    pnsolve_game_start(g, E->position, sizeof E->position);
    json_t *o = position_object(E);
    json_object_set_new(o, "game", json_string(pnsolve_game_name(g)));
    json_object_set_new(o, "tables", json_boolean(t != NULL));
    send(E, o, req);
}

static void req_position(engine *E, const json_t *req)
{
    const char *p = json_string_value(json_object_get(req, "position"));
    char buf[PNSOLVE_TEXT_MAX], err[600];
    if (pnsolve_position_check(E->game, p, buf, sizeof buf, err, sizeof err) != PNSOLVE_OK)
        return send_error(E, req, "position: %s", err);
    memcpy(E->position, buf, sizeof buf);
    send(E, position_object(E), req);
}

static void req_moves(engine *E, const json_t *req)
{
    char buf[8192], err[600];
    int n;
    if (pnsolve_moves(E->game, E->position, buf, sizeof buf, &n, err, sizeof err) != PNSOLVE_OK)
        return send_error(E, req, "moves: %s", err);
    json_t *list = json_array();
    char *save = NULL;
    for (char *m = strtok_r(buf, " ", &save); m; m = strtok_r(NULL, " ", &save))
        json_array_append_new(list, json_string(m));
    send(E, json_pack("{s:s, s:o}", "position", E->position, "moves", list), req);
}

static void req_play(engine *E, const json_t *req)
{
    const char *m = json_string_value(json_object_get(req, "move"));
    char buf[PNSOLVE_TEXT_MAX], err[600];
    if (!m)
        return send_error(E, req, "%s", "play: no \"move\" (a string in the game's notation)");
    if (pnsolve_play(E->game, E->position, m, buf, sizeof buf, err, sizeof err) != PNSOLVE_OK)
        return send_error(E, req, "play: %s", err);
    memcpy(E->position, buf, sizeof buf);
    send(E, position_object(E), req);
}

/* A move's value as members of o: "result" and "distance" or "score". */
static void put_value(json_t *o, int known, int wdl, int distance, int has_score, int score)
{
    if (!known) {
        json_object_set_new(o, "result", json_string("open"));
        return;
    }
    json_object_set_new(o, "result", json_string(wdl > 0 ? "win" : wdl < 0 ? "loss" : "draw"));
    if (has_score)
        json_object_set_new(o, "score", json_integer(score));
    else if (distance >= 0)
        json_object_set_new(o, "distance", json_integer(distance));
}

/* The search's limits of a request into o (defaults otherwise): 0, or -1
 * naming the bad field in *bad. */
static int read_limits(const json_t *req, pnsolve_options *o, const char **bad)
{
    json_t *v;
    if ((v = json_object_get(req, "max_seconds")) && (!json_is_number(v) || json_number_value(v) < 0))
        return *bad = "max_seconds", -1;
    o->max_seconds = v ? json_number_value(v) : o->max_seconds;
    if ((v = json_object_get(req, "max_nodes")) && (!json_is_integer(v) || json_integer_value(v) < 0))
        return *bad = "max_nodes", -1;
    o->max_nodes = v ? (uint64_t)json_integer_value(v) : o->max_nodes;
    if ((v = json_object_get(req, "memory_mb")) &&
        (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > (1 << 20)))
        return *bad = "memory_mb", -1;
    o->memory_mb = v ? (size_t)json_integer_value(v) : o->memory_mb;
    if ((v = json_object_get(req, "threads")) &&
        (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > 256))
        return *bad = "threads", -1;
    o->threads = v ? (int)json_integer_value(v) : o->threads;
    return 0;
}

/* probe: every move's value from the tables where they are open, else by
 * a search of each move under the request's limits (2 s a move). */
static void req_probe(engine *E, const json_t *req)
{
    static pnsolve_move_value mv[256];
    char err[600];
    int n = 0;
    pnsolve_status rc;
    if (E->tables) {
        rc = pnsolve_tables_probe_moves(E->tables, E->position, mv, 256, &n, err, sizeof err);
    } else {
        pnsolve_options o;
        pnsolve_options_default(&o);
        o.max_seconds = 2;
        const char *bad;
        if (read_limits(req, &o, &bad) != 0)
            return send_error(E, req, "probe: a bad \"%s\"", bad);
        rc = pnsolve_search_moves(E->game, E->position, &o, mv, 256, &n, err, sizeof err);
    }
    if (rc != PNSOLVE_OK)
        return send_error(E, req, "probe: %s", err);
    json_t *o = position_object(E), *list = json_array();
    if (E->tables && n > 0 && mv[0].known)  /* the position's own value: its best move's (Fathom's root) */
        put_value(o, 1, mv[0].wdl, mv[0].distance, mv[0].has_score, mv[0].score);
    for (int i = 0; i < n; i++) {
        json_t *m = json_pack("{s:s, s:s}", "move", mv[i].move, "position", mv[i].position);
        put_value(m, mv[i].known, mv[i].wdl, mv[i].distance, mv[i].has_score, mv[i].score);
        json_array_append_new(list, m);
    }
    json_object_set_new(o, "source", json_string(E->tables ? "tables" : "search"));
    json_object_set_new(o, "moves", list);
    send(E, o, req);
}

static const char *const questions[] = { "win", "advantage", "value", "score" };

/* The search's progress, every "progress" seconds, as an object. */
static void on_progress(const pnsolve_progress *p, void *ctx)
{
    engine *E = ctx;
    json_t *o = json_pack("{s:{s:I, s:f, s:I, s:I}}", "progress", "nodes", (json_int_t)p->nodes, "seconds",
                          p->seconds, "pn", (json_int_t)p->pn, "dn", (json_int_t)p->dn);
    send(E, o, E->job);
}

/* The search thread: proves the job's question from its position, sends
 * the result, and marks itself done. */
static void *search_main(void *arg)
{
    engine *E = arg;
    const json_t *req = E->job;
    const char *q = json_string_value(json_object_get(req, "question"));
    pnsolve_options o;
    pnsolve_options_default(&o);
    for (int i = 0; i < 4; i++)
        if (q && strcmp(q, questions[i]) == 0)
            o.question = (pnsolve_question)i;
    const char *bad = NULL;
    read_limits(req, &o, &bad);  /* checked before the thread started */
    json_t *every = json_object_get(req, "progress");
    if (every && json_number_value(every) > 0) {
        o.progress = on_progress;
        o.ctx = E;
        o.progress_seconds = json_number_value(every);
    }
    o.cancel = &E->cancel;
    pnsolve_result r;
    char err[600];
    if (pnsolve_prove(E->game, E->job_position, &o, &r, err, sizeof err) != PNSOLVE_OK) {
        send_error(E, req, "prove: %s", err);
    } else {
        const char *answer = r.answer == PNSOLVE_PROVEN ? "proven" : r.answer == PNSOLVE_DISPROVEN ? "disproven" : "open";
        json_t *out = json_pack("{s:s, s:s, s:s, s:I, s:f}", "position", E->job_position, "question",
                                questions[o.question], "answer", answer, "nodes", (json_int_t)r.nodes, "seconds",
                                r.seconds);
        if (r.answer == PNSOLVE_PROVEN && o.question == PNSOLVE_QUESTION_VALUE)
            json_object_set_new(out, "result", json_string(r.value > 0 ? "win" : r.value < 0 ? "loss" : "draw"));
        if (r.answer == PNSOLVE_PROVEN && o.question == PNSOLVE_QUESTION_SCORE)
            json_object_set_new(out, "score", json_integer(r.value));
        if (r.stopped_by)
            json_object_set_new(out, "stopped_by", json_string(r.stopped_by));
        json_t *line = json_array();
        char *save = NULL;
        for (char *m = strtok_r(r.line, " ", &save); m; m = strtok_r(NULL, " ", &save))
            json_array_append_new(line, json_string(m));
        json_object_set_new(out, "line", line);
        send(E, out, req);
    }
    E->done = 1;
    return NULL;
}

/* Waits for the search under way, if any, and forgets it. */
static void join_search(engine *E)
{
    if (!E->running)
        return;
    pthread_join(E->thread, NULL);
    E->running = 0;
    json_decref(E->job);
    E->job = NULL;
}

static void req_prove(engine *E, const json_t *req)
{
    if (E->running && E->done)
        join_search(E);
    if (E->running)
        return send_error(E, req, "%s", "prove: a search is running (send stop first)");
    const char *q = json_string_value(json_object_get(req, "question"));
    int known = !q;
    for (int i = 0; i < 4 && q; i++)
        known |= strcmp(q, questions[i]) == 0;
    if (!known)
        return send_error(E, req, "prove: \"question\" is \"%s\", not win, advantage, value or score", q);
    pnsolve_options o;
    pnsolve_options_default(&o);
    const char *bad;
    json_t *every = json_object_get(req, "progress");
    if (read_limits(req, &o, &bad) != 0 || (every && !json_is_number(every) && (bad = "progress")))
        return send_error(E, req, "prove: a bad \"%s\"", bad);
    E->job = json_deep_copy(req);
    memcpy(E->job_position, E->position, sizeof E->position);
    E->cancel = 0;
    E->done = 0;
    if (pthread_create(&E->thread, NULL, search_main, E) != 0) {
        json_decref(E->job);
        E->job = NULL;
        return send_error(E, req, "%s", "prove: cannot start the search's thread");
    }
    E->running = 1;
}

static void req_stop(engine *E, const json_t *req)
{
    if (!E->running || E->done) {
        join_search(E);
        return send_error(E, req, "%s", "stop: no search is running");
    }
    __atomic_store_n(&E->cancel, 1, __ATOMIC_RELAXED);
    join_search(E);  /* the search sends its result, open or answered, under the prove's id */
    send(E, json_pack("{s:b}", "stopped", 1), req);
}

/* One request: 1 to go on reading, 0 after quit. */
static int handle(engine *E, const char *line)
{
    json_error_t jerr;
    json_t *req = json_loads(line, JSON_REJECT_DUPLICATES, &jerr);
    if (!req || !json_is_object(req)) {
        send_error(E, NULL, "not a JSON object: %s", req ? "another JSON value" : jerr.text);
        json_decref(req);
        return 1;
    }
    const char *cmd = json_string_value(json_object_get(req, "cmd"));
    int go_on = 1;
    if (!cmd)
        send_error(E, req, "%s", "no \"cmd\" (version, game, position, moves, play, probe, prove, stop, quit)");
    else if (strcmp(cmd, "version") == 0)
        send(E, json_pack("{s:s, s:i}", "version", pnsolve_version(), "protocol", 1), req);
    else if (strcmp(cmd, "game") == 0)
        req_game(E, req);
    else if (strcmp(cmd, "stop") == 0)
        req_stop(E, req);
    else if (strcmp(cmd, "quit") == 0)
        go_on = 0;
    else if (strcmp(cmd, "position") && strcmp(cmd, "moves") && strcmp(cmd, "play") && strcmp(cmd, "probe") &&
             strcmp(cmd, "prove"))
        send_error(E, req, "unknown \"cmd\" \"%s\" (version, game, position, moves, play, probe, prove, stop, quit)",
                   cmd);
    else if (need_game(E, req))
        (strcmp(cmd, "position") == 0 ? req_position
         : strcmp(cmd, "moves") == 0  ? req_moves
         : strcmp(cmd, "play") == 0   ? req_play
         : strcmp(cmd, "probe") == 0  ? req_probe
                                      : req_prove)(E, req);
    json_decref(req);
    return go_on;
}

int cmd_engine(int argc, char **argv)
{
    if (argc > 2 || (argc == 2 && strcmp(argv[1], "--help") && strcmp(argv[1], "-h")))
        return cli_fail(EXIT_USAGE, "engine: takes no arguments (it reads requests from stdin; see --help)");
    if (argc == 2)
        return fputs(help, stdout), 0;
    engine E;
    memset(&E, 0, sizeof E);
    pthread_mutex_init(&E.out, NULL);
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int go_on = 1;
    while (go_on && (n = getline(&line, &cap, stdin)) != -1) {
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            line[--n] = 0;
        if (n > 0)
            go_on = handle(&E, line);
    }
    /* quit stops the search, which says what it had; the end of input lets
     * it finish within its limits (a script's piped requests get answers) */
    if (!go_on)
        __atomic_store_n(&E.cancel, 1, __ATOMIC_RELAXED);
    join_search(&E);
    free(line);
    pnsolve_tables_close(E.tables);
    pnsolve_game_close(E.game);
    pthread_mutex_destroy(&E.out);
    return 0;
}
