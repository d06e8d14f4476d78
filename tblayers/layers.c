/* tblayers/layers.c - strong solutions of games whose every move but a
 * pass adds a piece (Othello on small boards), by retrograde analysis over
 * the layers of reachable states that sweep.c finds: from the full board
 * up, each state's exact final score for the side to move, the best over
 * its moves of the negated child's score; a pass state (its only move
 * keeps the board) takes its partner's, the rank beside it in its own
 * layer, after the others.  A state is one rank of its symmetry class; its
 * score is a signed byte at the state's index in the layer's set, saved a
 * layer at a time (tbfile/scores.c) so that a build resumes.
 */
#include "tblayers.h"
#include "../tbfile/tbfile.h"
#include "../util/util.h"

#include <stdlib.h>

#define MISSING (-129)   /* no score: a child is not in its layer */
#define PASSES (-130)    /* no score yet: the state passes */

/* The score for the side to move of state s at the end of the game. */
static int final_score(const game *g, const game_state *s)
{
    int v = game_score(g, s);
    return game_to_move(g, s) == 0 ? v : -v;
}

/* Whether s's only move is a pass (its child in the same layer). */
static int passes(const game *g, const game_state *s)
{
    game_move mv[GAME_MAX_MOVES];
    game_state c;
    return game_moves(g, s, mv) == 1 && tb_move_passes(g, s, mv[0], &c);
}

/* The score of s, a state of layer i, from its children's in layer i + 1;
 * PASSES when s passes (its score is its partner's), MISSING when a child
 * is not there (a fault of the forward pass, or a damaged file). */
static int derive(const tb_layers *t, int i, const game_state *s)
{
    const game *g = t->g;
    game_move mv[GAME_MAX_MOVES];
    int nm = game_moves(g, s, mv);
    if (nm == 0)
        return final_score(g, s);
    int best = -128, images;
    for (int k = 0; k < nm; k++) {
        game_state c;
        if (tb_move_passes(g, s, mv[k], &c))
            return PASSES;  /* a pass is a state's only move */
        int64_t at = i + 1 < t->layers ? tb_sweep_find(&t->set[i + 1], game_layer_rank(g, &c, &images)) : -1;
        if (at < 0)
            return MISSING;
        int v = -t->score[i + 1][at];
        best = v > best ? v : best;
    }
    return best;
}

typedef struct {
    tb_layers *t;
    int i, k;                    /* layer, segment */
    int round;                   /* 0: the states that move or are over; 1: the pass states, and the counts */
    int check;                   /* verify: count disagreements, store nothing */
    uint64_t wrong;
    tb_layer_stats st;
} layer_job;

/* One round over the states of segment k of layer i whose unary bits lie
 * in words [first, end): scored (or checked) from their children, the pass
 * states in the second round from their partner (the rank beside theirs,
 * the same board with the other side to move, which moves). */
static void score_range(void *ctx, uint64_t first, uint64_t end)
{
    layer_job *j = ctx;
    tb_layers *t = j->t;
    const tb_sweep_set *l = &t->set[j->i];
    int8_t *score = t->score[j->i];
    util_efset_walk w;
    util_efset_walk_start(&w, &l->seg[j->k], first, end);
    uint64_t v, idx, wrong = 0;
    tb_layer_stats st = { 0 };
    while (util_efset_walk_next(&w, &v, &idx)) {
        uint64_t r = (uint64_t)j->k * l->h.span + v, at = l->first[j->k] + idx;
        game_state s;
        game_layer_unrank(t->g, l->h.empties, r, &s);
        int sc = j->round == 0 ? derive(t, j->i, &s) : PASSES;  /* round 1 scores the pass states alone */
        if (j->round == 1 && passes(t->g, &s)) {
            int64_t p = tb_sweep_find(l, r ^ 1);
            sc = p < 0 ? MISSING : -score[p];
        }
        if (sc == MISSING || (sc != PASSES && j->check && sc != score[at]))
            wrong++;
        else if (sc != PASSES && !j->check)
            score[at] = (int8_t)sc;
        if (j->round == 1) {
            int images;
            game_layer_rank(t->g, &s, &images);
            sc = score[at];
            st.wins += sc > 0 ? (uint64_t)images : 0;
            st.draws += sc == 0 ? (uint64_t)images : 0;
            st.losses += sc < 0 ? (uint64_t)images : 0;
            if (j->check) {  /* the header's counts, as the sweep made them */
                game_move mv[GAME_MAX_MOVES];
                int nm = game_moves(t->g, &s, mv);
                uint64_t *kind = nm == 0 ? &st.finished : passes(t->g, &s) ? &st.passing : &st.moving;
                *kind += (uint64_t)images;
                st.states += (uint64_t)images;
            }
        }
    }
    __atomic_fetch_add(&j->wrong, wrong, __ATOMIC_RELAXED);
    __atomic_fetch_add(&j->st.wins, st.wins, __ATOMIC_RELAXED);
    __atomic_fetch_add(&j->st.draws, st.draws, __ATOMIC_RELAXED);
    __atomic_fetch_add(&j->st.losses, st.losses, __ATOMIC_RELAXED);
    __atomic_fetch_add(&j->st.states, st.states, __ATOMIC_RELAXED);
    __atomic_fetch_add(&j->st.moving, st.moving, __ATOMIC_RELAXED);
    __atomic_fetch_add(&j->st.passing, st.passing, __ATOMIC_RELAXED);
    __atomic_fetch_add(&j->st.finished, st.finished, __ATOMIC_RELAXED);
}

/* Layer i's scores (or, check, their agreement with the children: the
 * states that disagree) on every thread, its win/draw/loss counts into
 * *st; the layers above it scored. */
static uint64_t layer_pass(tb_layers *t, int i, int threads, int check, tb_layer_stats *st)
{
    tb_sweep_set *l = &t->set[i];
    uint64_t wrong = 0;
    st->wins = st->draws = st->losses = 0;
    if (check)
        st->states = st->moving = st->passing = st->finished = 0;
    for (int round = 0; round < 2; round++)
        for (int k = 0; k < l->h.segments; k++) {
            layer_job j = { .t = t, .i = i, .k = k, .round = round, .check = check };
            util_parallel(threads, l->seg[k].high_words, 1024, score_range, &j);
            wrong += j.wrong;
            st->wins += j.st.wins, st->draws += j.st.draws, st->losses += j.st.losses;
            st->states += j.st.states, st->moving += j.st.moving, st->passing += j.st.passing;
            st->finished += j.st.finished;
        }
    return wrong;
}

int tb_layers_build(const game *g, const char *dir, const tb_sweep_options *o, uint64_t max_bytes, char *err,
                    size_t errlen)
{
    tb_sweep_layer counts[TB_LAYERS_MAX];
    int n, rc = tb_sweep(g, dir, o, counts, TB_LAYERS_MAX, &n, err, errlen);
    if (rc != 0)
        return rc;
    uint64_t states = 0, ranks = 0;
    for (int i = 0; i < n && i < TB_LAYERS_MAX; i++)
        states += counts[i].states, ranks += counts[i].ranks;
    tb_layers *t = tb_layers_open_sets(g, dir, err, errlen);
    if (!t)
        return -1;
    uint64_t bytes = ranks;  /* a score each, beside the sets */
    for (int i = 0; i < t->layers; i++)
        bytes += tb_sweep_bytes(&t->set[i]);
    if (max_bytes && bytes > max_bytes) {
        tb_layers_close(t);
        return util_error(err, errlen, "%s: %llu states (%llu up to symmetry) need %.1f GB to solve, more than the "
                          "%.1f GB allowed", g->name, (unsigned long long)states, (unsigned long long)ranks,
                          bytes / 1e9, max_bytes / 1e9);
    }
    for (int i = t->layers - 1; i >= 0 && rc == 0; i--) {
        double t0 = util_clock();
        int got = tb_layers_load(t, i, dir, err, errlen);
        if (got < 0) {
            rc = -1;
        } else if (got == 0) {
            if (o->stop && *o->stop) {
                rc = 1;
                break;
            }
            if (!(t->score[i] = malloc(tb_layers_size(t, i) ? tb_layers_size(t, i) : 1))) {
                rc = util_error(err, errlen, "out of memory");
                break;
            }
            if (layer_pass(t, i, o->threads, 0, &t->st[i]) != 0)
                rc = util_error(err, errlen, "a child missing from the layer of %d empty squares (the forward pass "
                                "is wrong)", t->set[i].h.empties - 1);
            else
                rc = tb_layers_save(t, i, dir, err, errlen);
        }
        if (rc == 0 && o->log)
            fprintf(o->log, "%s: %2d empty: %llu wins, %llu draws, %llu losses for the side to move; %s in %.1f s\n",
                    g->name, t->set[i].h.empties, (unsigned long long)t->st[i].wins,
                    (unsigned long long)t->st[i].draws, (unsigned long long)t->st[i].losses,
                    got ? "read" : "solved", util_clock() - t0);
    }
    tb_layers_close(t);
    return rc;
}

uint64_t tb_layers_verify(const tb_layers *t, int threads)
{
    uint64_t wrong = 0;
    for (int i = 0; i < t->layers; i++) {
        tb_layer_stats st = t->st[i];
        wrong += layer_pass((tb_layers *)t, i, threads, 1, &st);
        wrong += st.wins != t->st[i].wins || st.draws != t->st[i].draws || st.losses != t->st[i].losses;
        wrong += st.states != t->st[i].states || st.moving != t->st[i].moving || st.passing != t->st[i].passing ||
                 st.finished != t->st[i].finished;
    }
    return wrong;
}

