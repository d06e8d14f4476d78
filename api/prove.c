/* api/prove.c - the public API's searches (pnsolve.h): a question proved
 * from a position, with the search's progress and its line. */
#include "api.h"
#include "../pns/pns.h"
#include "../pwrite/pwrite.h"
#include "../util/util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void pnsolve_options_default(pnsolve_options *o)
{
    if (!o)
        return;
    memset(o, 0, sizeof *o);
    o->question = PNSOLVE_QUESTION_WIN;
    o->threads = 1;
}

/* The caller's progress hook, called with the search's figures. */
typedef struct {
    const pnsolve_options *o;
} hook;

static void on_progress(const pns_progress *p, void *ctx)
{
    const pnsolve_options *o = ((const hook *)ctx)->o;
    pnsolve_progress q = { p->nodes, p->seconds, p->pn, p->dn };
    o->progress(&q, o->ctx);
}

/* The line of r from s as text into out. */
static void write_line(const game *g, const game_state *root, const pns_result *r, pnsolve_result *out)
{
    game_state s = *root;
    size_t at = 0;
    out->line[0] = 0;
    out->line_len = 0;
    for (int i = 0; i < r->pv_len; i++) {
        char mv[64];
        game_format_move(g, &s, r->pv[i], mv, sizeof mv);
        size_t need = strlen(mv) + (at ? 1 : 0);
        if (at + need + 1 > sizeof out->line)
            break;
        at += (size_t)snprintf(out->line + at, sizeof out->line - at, "%s%s", at ? " " : "", mv);
        out->line_len++;
        game_play(g, &s, r->pv[i]);
    }
}

/* WIN or ADVANTAGE, its proof written to o->proof_path when solved. */
static pnsolve_status prove_question(const game *g, const game_state *s, const pnsolve_options *o,
                                     const pns_options *po, pns_result *r, char *err, size_t errlen)
{
    if (!o->proof_path) {
        pns_solve(g, s, po, r);
        return PNSOLVE_OK;
    }
    util_file f;
    char why[600];
    if (util_file_create(&f, o->proof_path, "w", why, sizeof why) != 0)
        return pnsolve_api_fail(PNSOLVE_EIO, err, errlen, "%s", why);
    int rc = pwrite_proof(g, s, po, f.f, r);
    if (util_file_commit(&f, rc == 0, why, sizeof why) != 0 && rc == 0)
        return pnsolve_api_fail(PNSOLVE_EIO, err, errlen, "%s", why);
    if (rc != 0 && r->status != PNS_UNKNOWN)
        return pnsolve_api_fail(PNSOLVE_EIO, err, errlen, "%s: the proof was not written%s%s", o->proof_path,
                    r->error[0] ? ": " : "", r->error);
    return PNSOLVE_OK;
}

pnsolve_status pnsolve_prove(const pnsolve_game *h, const char *position, const pnsolve_options *o,
                             pnsolve_result *out, char *err, size_t errlen)
{
    if (!h || !o || !out)
        return pnsolve_api_fail(PNSOLVE_EINVAL, err, errlen, "no %s (NULL)", !h ? "game" : !o ? "options" : "result");
    const game *g = h->g;
    game_state s;
    memset(out, 0, sizeof *out);
    if (o->question < PNSOLVE_QUESTION_WIN || o->question > PNSOLVE_QUESTION_SCORE)
        return pnsolve_api_fail(PNSOLVE_EINVAL, err, errlen, "question %d is none of pnsolve_question's", (int)o->question);
    /* bytes = MB << 20 must not wrap: a table of "2^44 MB" would be 0 bytes */
    if (o->memory_mb > (SIZE_MAX >> 20) / 2)
        return pnsolve_api_fail(PNSOLVE_EINVAL, err, errlen, "memory_mb %zu is more than a size_t of bytes can hold", o->memory_mb);
    pnsolve_status rc = pnsolve_api_position(g, position, &s, err, errlen);
    if (rc != PNSOLVE_OK)
        return rc;
    if (o->question == PNSOLVE_QUESTION_SCORE && g->score_bound <= 0)
        return pnsolve_api_fail(PNSOLVE_EINVAL, err, errlen, "%s has no scores", g->name);
    if (o->proof_path && o->question != PNSOLVE_QUESTION_WIN && o->question != PNSOLVE_QUESTION_ADVANTAGE)
        return pnsolve_api_fail(PNSOLVE_EINVAL, err, errlen, "a proof file is written for the win and advantage questions");
    pns_options po;
    pns_defaults(&po);
    if (o->question == PNSOLVE_QUESTION_SCORE)
        pns_score_defaults(&po);
    po.question = o->question == PNSOLVE_QUESTION_ADVANTAGE ? PNS_ADVANTAGE : PNS_WIN;
    po.max_nodes = o->max_nodes;
    po.max_seconds = o->max_seconds;
    po.memory = (o->memory_mb ? o->memory_mb : 256) << 20;
    po.threads = o->threads;
    po.stop = o->cancel;
    hook k = { o };
    if (o->progress) {
        po.progress = on_progress;
        po.ctx = &k;
        po.progress_every = o->progress_seconds;
    }
    if (o->tb_dir && !(po.tb = tb_open_lazy(g, o->tb_dir)))
        return pnsolve_api_fail(PNSOLVE_ENOMEM, err, errlen, "out of memory");
    pns_result r, adv;
    memset(&r, 0, sizeof r);
    memset(&adv, 0, sizeof adv);
    switch (o->question) {
    case PNSOLVE_QUESTION_VALUE: {
        int value = pns_value(g, &s, &po, &r, &adv);
        out->answer = value == 2 ? PNSOLVE_OPEN : PNSOLVE_PROVEN;
        out->value = value == 2 ? 0 : value;
        uint64_t nodes = r.nodes + adv.nodes;
        double seconds = r.seconds + adv.seconds;
        if (value == 0 || value == -1 || (value == 2 && r.status == PNS_DISPROVEN))
            r = adv;  /* a draw's or a loss's line is the advantage search's */
        r.nodes = nodes, r.seconds = seconds;
        break;
    }
    case PNSOLVE_QUESTION_SCORE: {
        int score;
        int found = pns_score(g, &s, &po, -g->score_bound, g->score_bound, &score, &r);
        out->answer = found >= 0 ? PNSOLVE_PROVEN : PNSOLVE_OPEN;
        out->value = found >= 0 ? score : 0;
        break;
    }
    default:
        rc = prove_question(g, &s, o, &po, &r, err, errlen);
        out->answer = r.status == PNS_PROVEN ? PNSOLVE_PROVEN : r.status == PNS_DISPROVEN ? PNSOLVE_DISPROVEN
                                                                                        : PNSOLVE_OPEN;
    }
    tb_close(po.tb);
    if (rc == PNSOLVE_OK && r.error[0] && out->answer == PNSOLVE_OPEN)
        rc = pnsolve_api_fail(PNSOLVE_EIO, err, errlen, "%s", r.error);
    out->nodes = r.nodes;
    out->seconds = r.seconds;
    out->stopped_by = r.stopped_by;
    write_line(g, &s, &r, out);
    return rc;
}

/* The value of the child a move leads to, for the side that made it,
 * proved by search under q: out->known 0 when the limits stopped it. */
static pnsolve_status search_child(const pnsolve_game *h, const game_state *s, game_move m, pnsolve_move_value *out,
                                   const pnsolve_options *q, char *err, size_t errlen)
{
    const game *g = h->g;
    game_state c = *s;
    game_play(g, &c, m);
    pnsolve_status rc;
    int flip = game_to_move(g, &c) != game_to_move(g, s), scores = g->score_bound > 0;
    out->distance = -1;
    out->has_score = scores;
    game_result end = game_result_of(g, &c);
    if (end != GAME_ONGOING) {  /* the move ends the game: its result, one ply */
        int v = game_outcome_for(end, game_to_move(g, s)), sc = game_score(g, &c);
        out->known = 1;
        out->wdl = v;
        out->distance = 1;
        out->score = scores ? (game_to_move(g, s) == 0 ? sc : -sc) : 0;
        return PNSOLVE_OK;
    }
    pnsolve_options o = *q;
    o.question = scores ? PNSOLVE_QUESTION_SCORE : PNSOLVE_QUESTION_VALUE;
    o.proof_path = NULL;
    pnsolve_result r;
    if ((rc = pnsolve_prove(h, out->position, &o, &r, err, errlen)) != PNSOLVE_OK)
        return rc;
    out->known = r.answer == PNSOLVE_PROVEN;
    if (out->known) {
        int v = flip ? -r.value : r.value;  /* the child's side to move, turned to the mover's */
        out->score = scores ? v : 0;
        out->wdl = v > 0 ? 1 : v < 0 ? -1 : 0;
    }
    return PNSOLVE_OK;
}

pnsolve_status pnsolve_search_moves(const pnsolve_game *h, const char *position, const pnsolve_options *o,
                                    pnsolve_move_value *out, int cap, int *count, char *err, size_t errlen)
{
    if (!h || !out || !count)
        return pnsolve_api_fail(PNSOLVE_EINVAL, err, errlen, "no %s (NULL)", !h ? "game" : "output");
    pnsolve_options q;
    if (o) {
        q = *o;
    } else {  /* the documented defaults: 2 s and 256 MB a move, one thread */
        pnsolve_options_default(&q);
        q.max_seconds = 2;
    }
    game_state s;
    pnsolve_status rc = pnsolve_api_position(h->g, position, &s, err, errlen);
    if (rc != PNSOLVE_OK)
        return rc;
    *count = 0;
    game_move mv[GAME_MAX_MOVES];
    int n = game_result_of(h->g, &s) == GAME_ONGOING ? game_moves(h->g, &s, mv) : 0;
    if (n > cap)
        return pnsolve_api_fail(PNSOLVE_ESPACE, err, errlen, "%d moves, room for %d", n, cap);
    for (int i = 0; i < n; i++)  /* every move named, each open until searched */
        if ((rc = pnsolve_api_move_value(h->g, &s, mv[i], &out[i], err, errlen)) != PNSOLVE_OK)
            return rc;
    for (int i = 0; i < n && !(q.cancel && __atomic_load_n(q.cancel, __ATOMIC_RELAXED)); i++)
        if ((rc = search_child(h, &s, mv[i], &out[i], &q, err, errlen)) != PNSOLVE_OK)
            return rc;
    pnsolve_api_sort_moves(out, n);
    *count = n;
    return PNSOLVE_OK;
}
