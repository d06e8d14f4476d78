/* tablebase/moves.c - every legal move's value and a best move, from the
 * values of the positions the moves lead to (Fathom's root probe). */
#include "set.h"
#include "../util/util.h"

int tb_probe_any(tb_set *t, const game_state *s, tb_value *v, char *err, size_t errlen)
{
    game_result r = game_result_of(t->g, s);
    if (r == GAME_ONGOING || t->layers)  /* a strong solution holds its finished states too */
        return tb_probe(t, s, v, err, errlen);
    *v = (tb_value){ .wdl = (tb_wdl)game_outcome_for(r, game_to_move(t->g, s)) };
    return 1;
}

/* The value of the position after a move, for the player who made it. */
static int child_value(tb_set *t, const game_state *c, int mover, tb_value *v, char *err, size_t errlen)
{
    int rc = tb_probe_any(t, c, v, err, errlen);
    if (rc == 1 && game_to_move(t->g, c) != mover) {
        v->wdl = (tb_wdl)-v->wdl;
        v->score = -v->score;
    }
    return rc;
}

long tb_move_rank(const tb_move_value *m)
{
    if (!m->found)
        return 3L << 40;
    if (m->value.scored)
        return 1000 - m->value.score;
    return m->value.wdl == TB_WIN ? m->value.distance : m->value.wdl == TB_DRAW ? 1L << 40
                                                                                 : (2L << 40) - m->value.distance;
}

int tb_probe_moves(tb_set *t, const game_state *s, tb_move_value *out, char *err, size_t errlen)
{
    game_move mv[GAME_MAX_MOVES];
    int n = game_moves(t->g, s, mv), mover = game_to_move(t->g, s);
    for (int i = 0; i < n; i++) {
        game_state c = *s;
        game_play(t->g, &c, mv[i]);
        tb_move_value *m = &out[i];
        m->move = mv[i];
        int rc = child_value(t, &c, mover, &m->value, err, errlen);
        if (rc < 0)
            return -1;
        m->found = rc == 1;
        if (m->found && m->value.wdl != TB_DRAW && !m->value.scored)
            m->value.distance++;  /* the move itself */
    }
    for (int i = 1; i < n; i++)  /* an insertion sort: stable, and a position has few moves */
        for (int j = i; j > 0 && tb_move_rank(&out[j - 1]) > tb_move_rank(&out[j]); j--) {
            tb_move_value x = out[j];
            out[j] = out[j - 1], out[j - 1] = x;
        }
    return n;
}

int tb_best_move(tb_set *t, const game_state *s, game_move *best, tb_value *v, char *err, size_t errlen)
{
    int rc = tb_probe(t, s, v, err, errlen);
    if (rc != 1)
        return rc;
    game_move mv[GAME_MAX_MOVES];
    int n = game_moves(t->g, s, mv), mover = game_to_move(t->g, s);
    for (int i = 0; i < n; i++) {
        game_state c = *s;
        game_play(t->g, &c, mv[i]);
        tb_value cv;
        if ((rc = child_value(t, &c, mover, &cv, err, errlen)) != 1)
            return rc;
        /* the child's distance is one ply shorter than s's along a best move */
        if (v->scored ? cv.score == v->score
                      : cv.wdl == v->wdl && (v->wdl == TB_DRAW || cv.distance == v->distance - 1)) {
            *best = mv[i];
            return 1;
        }
    }
    return util_error(err, errlen, "the tables disagree with themselves: no move keeps the value of a state");
}

