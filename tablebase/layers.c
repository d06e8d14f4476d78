/* tablebase/layers.c - strong solutions of games whose every move but a
 * pass adds a piece (Othello on small boards), by retrograde analysis over
 * the layers of reachable states that sweep.c finds: from the full board
 * up, each state's exact final score for the side to move, the best over
 * its moves of the negated child's score; a pass state (its only move
 * keeps the board) takes its partner's, the rank beside it in its own
 * layer, after the others.  A state is one rank of its symmetry class; its
 * score is a signed byte at the state's index in the layer's set.
 *
 * Files beside the layers' sets: <dir>/<game>.e<empties>.pnss per layer, a
 * header (magic, game, empties, states, counts, checksums) and the scores;
 * each written to a temporary name and renamed, so a build resumes after
 * the last layer solved.
 */
#include "tb_internal.h"
#include "../util/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define SCORES_MAGIC "PNSSCOR1"
#define LAYERS_MAX 41
#define MISSING (-129)   /* no score: a child is not in its layer */
#define PASSES (-130)    /* no score yet: the state passes */

typedef struct {
    char magic[8];
    char game[GAME_NAME_MAX];
    int32_t empties, unused;
    uint64_t states;             /* scores that follow: the layer's set's size */
    tb_layer_stats st;
    uint64_t data_checksum, header_checksum;
} scores_header;

struct tb_layers {
    const game *g;
    int layers, first_empties;   /* layer i holds the states with first_empties - i empty squares */
    tb_sweep_set set[LAYERS_MAX];
    int8_t *score[LAYERS_MAX];
    tb_layer_stats st[LAYERS_MAX];
};

void tb_layers_path(const game *g, const char *dir, char *buf, size_t len)
{
    game_state s;
    game_start(g, &s);
    tb_layer_file(g, dir, game_empties(g, &s), "pnss", buf, len);
}

static uint64_t header_checksum(scores_header h)
{
    h.header_checksum = 0;
    return tb_checksum(&h, sizeof h);
}

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

static int save_scores(const tb_layers *t, int i, const char *dir, char *err, size_t errlen)
{
    const tb_sweep_set *l = &t->set[i];
    scores_header h = { .empties = l->h.empties, .states = tb_layers_size(t, i), .st = t->st[i] };
    memcpy(h.magic, SCORES_MAGIC, 8);
    snprintf(h.game, sizeof h.game, "%s", t->g->name);
    h.data_checksum = tb_checksum(t->score[i], h.states);
    h.header_checksum = header_checksum(h);
    char path[4400], why[600];
    tb_layer_file(t->g, dir, l->h.empties, "pnss", path, sizeof path);
    util_file f;
    if (util_file_create(&f, path, "wb", err, errlen) != 0)
        return -1;
    int ok = fwrite(&h, sizeof h, 1, f.f) == 1 && fwrite(t->score[i], 1, h.states, f.f) == h.states;
    if (util_file_commit(&f, ok, why, sizeof why) != 0 || !ok)
        return util_error(err, errlen, "%s: cannot write it%s%s", path, ok ? ": " : "", ok ? why : "");
    return 0;
}

/* Layer i's scores from dir: 1, 0 when there is no file, -1 with err. */
static int load_scores(tb_layers *t, int i, const char *dir, char *err, size_t errlen)
{
    char path[4400];
    tb_layer_file(t->g, dir, t->set[i].h.empties, "pnss", path, sizeof path);
    FILE *f = util_fopen_regular(path);
    if (!f)
        return errno == ENOENT ? 0 : util_error(err, errlen, "%s: %s", path, util_open_why(errno));
    scores_header h;
    const char *why = NULL;
    if (fread(&h, sizeof h, 1, f) != 1 || memcmp(h.magic, SCORES_MAGIC, 8) != 0 ||
        header_checksum(h) != h.header_checksum)
        why = "not a layer's scores, or its header is damaged";
    else if (strncmp(h.game, t->g->name, sizeof h.game) != 0 || h.empties != t->set[i].h.empties)
        why = "the scores of another game or layer";
    else if (h.states != tb_layers_size(t, i))
        why = "damaged (not as many scores as the layer has states)";
    else if (!(t->score[i] = malloc(h.states ? h.states : 1)))
        why = "out of memory";
    else if (fread(t->score[i], 1, h.states, f) != h.states || fgetc(f) != EOF ||
             tb_checksum(t->score[i], h.states) != h.data_checksum)
        why = "damaged (checksum)";
    fclose(f);
    if (why) {
        free(t->score[i]);
        t->score[i] = NULL;
        return util_error(err, errlen, "%s: %s", path, why);
    }
    t->st[i] = h.st;
    return 1;
}

void tb_layers_close(tb_layers *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->layers; i++) {
        tb_sweep_free(&t->set[i]);
        free(t->score[i]);
    }
    free(t);
}

/* Every layer's set of g from dir, the last one with no state that moves:
 * NULL with err when one is missing or damaged. */
static tb_layers *open_sets(const game *g, const char *dir, char *err, size_t errlen)
{
    tb_layers *t = calloc(1, sizeof *t);
    if (!t) {
        util_error(err, errlen, "out of memory");
        return NULL;
    }
    t->g = g;
    game_state s;
    game_start(g, &s);
    t->first_empties = game_empties(g, &s);
    for (int e = t->first_empties; e >= 0 && t->layers < LAYERS_MAX; e--) {
        int got = tb_sweep_load(g, dir, e, &t->set[t->layers], err, errlen);
        if (got <= 0) {
            if (got == 0)
                util_error(err, errlen, "%s is not solved in %s: no layer of %d empty squares "
                           "(pnsolve tb build %s --dir %s)", g->name, dir, e, g->name, dir);
            tb_layers_close(t);
            return NULL;
        }
        tb_sweep_layer *st = &t->set[t->layers].h.st;
        t->st[t->layers] = (tb_layer_stats){ .empties = e, .states = st->states, .moving = st->moving,
                                             .passing = st->passing, .finished = st->finished };
        if (t->layers++, st->moving == 0)
            break;
    }
    return t;
}

int tb_layers_build(const game *g, const char *dir, const tb_sweep_options *o, uint64_t max_bytes, char *err,
                    size_t errlen)
{
    tb_sweep_layer counts[LAYERS_MAX];
    int n, rc = tb_sweep(g, dir, o, counts, LAYERS_MAX, &n, err, errlen);
    if (rc != 0)
        return rc;
    uint64_t states = 0, ranks = 0;
    for (int i = 0; i < n && i < LAYERS_MAX; i++)
        states += counts[i].states, ranks += counts[i].ranks;
    tb_layers *t = open_sets(g, dir, err, errlen);
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
        int got = load_scores(t, i, dir, err, errlen);
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
                rc = save_scores(t, i, dir, err, errlen);
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

tb_layers *tb_layers_open(const game *g, const char *dir, char *err, size_t errlen)
{
    if (!game_has_layers(g)) {
        util_error(err, errlen, "%s has no layer ranks (games whose every move adds a piece, up to 40 squares)",
                   g->name);
        return NULL;
    }
    tb_layers *t = open_sets(g, dir, err, errlen);
    for (int i = 0; t && i < t->layers; i++) {
        int got = load_scores(t, i, dir, err, errlen);
        if (got == 0)
            util_error(err, errlen, "%s is not solved in %s: the layer of %d empty squares has no scores "
                       "(pnsolve tb build %s --dir %s)", g->name, dir, t->set[i].h.empties, g->name, dir);
        if (got <= 0) {
            tb_layers_close(t);
            return NULL;
        }
    }
    return t;
}

int tb_layers_probe(const tb_layers *t, const game_state *s, int *score)
{
    int e = game_empties(t->g, s), i = t->first_empties - e, images;
    if (e < 0 || i < 0 || i >= t->layers)
        return 0;
    int64_t at = tb_sweep_find(&t->set[i], game_layer_rank(t->g, s, &images));
    if (at < 0)
        return 0;
    *score = t->score[i][at];
    return 1;
}

int tb_layers_count(const tb_layers *t) { return t->layers; }

uint64_t tb_layers_size(const tb_layers *t, int i)
{
    const tb_sweep_set *l = &t->set[i];
    return l->first[l->h.segments - 1] + l->seg[l->h.segments - 1].n;
}

void tb_layers_each(const tb_layers *t, int i, void (*fn)(void *ctx, const game_state *s, int score, int images),
                    void *ctx)
{
    const tb_sweep_set *l = &t->set[i];
    for (int k = 0; k < l->h.segments; k++) {
        util_efset_walk w;
        util_efset_walk_start(&w, &l->seg[k], 0, l->seg[k].high_words);
        uint64_t v, idx;
        while (util_efset_walk_next(&w, &v, &idx)) {
            game_state s;
            int images;
            game_layer_unrank(t->g, l->h.empties, (uint64_t)k * l->h.span + v, &s);
            game_layer_rank(t->g, &s, &images);
            fn(ctx, &s, t->score[i][l->first[k] + idx], images);
        }
    }
}

void tb_layers_stats(const tb_layers *t, int i, tb_layer_stats *st) { *st = t->st[i]; }

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
