/* games/ostle/ostle_census.c - Ostle's states counted the way the Ostle paper
 * counts its non-trivial states (its Algorithm 6), class by class, so that
 * the tables' size reconciles exactly with its 11,148,725,918.
 *
 * The paper keeps a state of position X when some position p (of its four
 * materials, any p, reachable or not) has a move into X's symmetry class
 * and X has no immediately winning move; the state is (X, the first move of
 * X back into p's class) when X has one, else (X, nothing forbidden).  So a
 * non-checkmate X has one paper state per class of predecessors that X can
 * move back into, plus its unrestricted state if some predecessor (a move
 * within the material, or a capture from a larger one) is one X cannot
 * move back into.  Our table holds X with nothing forbidden and with each
 * move that undoes a move into X forbidden (ostle_forbiddable), each state
 * once under X's own symmetries.  The classes between the two:
 *   twins       our slots that are images of another slot of a symmetric X
 *   checkmate   our states of an X with a winning move (not twins)
 *   unreached   X with nothing forbidden, when every move into X can be
 *               undone (no predecessor leaves X unrestricted)
 *   merged      restricted states of ours whose undone moves come from
 *               predecessors of one class: the paper keeps one
 *   paper-only  predecessor classes X can move back into only by a move
 *               that does not undo the move into X (a symmetric image, not
 *               the position itself): the paper keeps a state, rule 8
 *               forbids nothing there
 * A literal Algorithm 6 on small boards checks the sum in
 * tests/test_tablebase_ostle.c. */
#include "ostle_impl.h"

_Static_assert(5 + 6 * 9 <= 64, "a signature holds nine orbits of squares");

enum { C_POSITIONS, C_STATES, C_TWINS, C_CHECKMATE, C_UNREACHED, C_MERGED, C_PAPER_ONLY, C_PAPER };

const game_census_class ostle_census_classes[] = {
    [C_POSITIONS] = { "positions", 0, "canonical positions (the paper's P, both materials' sides to move)" },
    [C_STATES] = { "states", 1, "the table's entries, twins included" },
    [C_TWINS] = { "twins", -1, "slots that are symmetric images of another slot of their position" },
    [C_CHECKMATE] = { "checkmate", -1, "states of positions with a winning move (twins aside)" },
    [C_UNREACHED] = { "unreached", -1, "nothing-forbidden states whose every move in can be undone" },
    [C_MERGED] = { "merged", -1, "restricted states whose predecessor class another restricted state has" },
    [C_PAPER_ONLY] = { "paper-only", 1, "predecessor classes reached back only through a symmetric image" },
    [C_PAPER] = { "non-trivial", 2, "the paper's non-trivial states, counted directly" },
    { NULL, 0, NULL },
};

/* The symmetry class of s's position. */
static uint64_t position_key(const game *g, const game_state *s)
{
    game_state p = *s;
    set_meta(&p, hole_of(s), side_of(s), NO_MOVE);
    return ostle_orbit_key(g, &p);
}

/* A cheap invariant of a position's class: the hole's orbit and how many
 * pieces of each side stand on each orbit of squares.  Different
 * signatures, different classes; the class keys (eight images each) are
 * made only where signatures meet, which they seldom do. */
static uint64_t signature(const rank_ostle *r, const uint32_t *orbit, const game_state *s)
{
    int side = side_of(s);
    uint32_t own = (uint32_t)s->w[side], opp = (uint32_t)s->w[!side];
    uint64_t sig = (uint64_t)r->cls[hole_of(s)];
    for (int c = 0; c < r->nclass; c++)
        sig |= (uint64_t)(__builtin_popcount(own & orbit[c]) | __builtin_popcount(opp & orbit[c]) << 3) << (5 + 6 * c);
    return sig;
}

/* The distinct classes of positions ps[0..n) into key; returns how many. */
static int classes(const game *g, const game_state *ps, int n, uint64_t *key)
{
    for (int i = 0; i < n; i++)
        key[i] = position_key(g, &ps[i]);
    return ostle_distinct(key, n);
}

static int member(const uint64_t *v, int n, uint64_t x)
{
    for (int i = 0; i < n; i++)
        if (v[i] == x)
            return 1;
    return 0;
}

/* Whether a symmetry other than the identity maps x onto itself. */
static int symmetric(const rank_ostle *r, const game_state *x)
{
    unsigned hole = hole_of(x);
    for (int k = 1; k < r->nsym; k++)
        if (r->map[k][hole] == hole && rank_ostle_image(r, k, (uint32_t)x->w[0]) == (uint32_t)x->w[0] &&
            rank_ostle_image(r, k, (uint32_t)x->w[1]) == (uint32_t)x->w[1])
            return 1;
    return 0;
}

typedef struct {
    const game *g;
    const rank_ostle *r;
    uint32_t orbit[9];  /* the squares of each hole class */
} census_ctx;

/* The counts of one canonical position x (side 0 to move). */
static void census_position(const census_ctx *cx, const game_state *x, uint64_t *n)
{
    const game *g = cx->g;
    game_move f[GAME_MAX_MOVES], mv[GAME_MAX_MOVES];
    game_state kid[GAME_MAX_MOVES], back[GAME_MAX_MOVES], pred[GAME_MAX_MOVES];
    uint64_t key[GAME_MAX_MOVES], kid_sig[GAME_MAX_MOVES], kid_key[GAME_MAX_MOVES], back_key[GAME_MAX_MOVES];
    uint64_t extra[GAME_MAX_MOVES];
    int nf = ostle_forbiddable(g, x, f), sym = symmetric(cx->r, x);
    n[C_POSITIONS]++;
    n[C_STATES] += 1 + (uint64_t)nf;
    int entries = nf;
    if (sym) {
        for (int i = 0; i < nf; i++) {
            game_state s = *x;
            set_meta(&s, hole_of(x), 0, f[i]);
            key[i] = ostle_orbit_key(g, &s);
        }
        entries = ostle_distinct(key, nf);
        n[C_TWINS] += (uint64_t)(nf - entries);
    }
    /* the positions x moves to, keeping every piece; and whether a move wins */
    int pieces = __builtin_popcountll(x->w[0] | x->w[1]), nk = 0, wins = 0;
    int nm = game_moves(g, x, mv);
    for (int i = 0; i < nm; i++) {
        game_state c = *x;
        game_play(g, &c, mv[i]);
        if (__builtin_popcountll(c.w[0] | c.w[1]) == pieces) {
            kid_sig[nk] = signature(cx->r, cx->orbit, &c);
            kid[nk++] = c;
        } else {
            wins |= game_result_of(g, &c) == GAME_WIN0;
        }
    }
    if (wins) {
        n[C_CHECKMATE] += 1 + (uint64_t)entries;
        return;
    }
    /* the classes of the moves that undo a move into x: keyed only if
     * their signatures meet (or x is symmetric), or a predecessor's needs them */
    uint64_t back_sig[GAME_MAX_MOVES];
    int clash = sym;
    for (int i = 0; i < nf; i++) {
        back[i] = *x;
        game_play(g, &back[i], f[i]);
        back_sig[i] = signature(cx->r, cx->orbit, &back[i]);
        for (int j = 0; j < i && !clash; j++)
            clash = back_sig[j] == back_sig[i];
    }
    int nb = nf, back_keyed = clash;  /* distinct signatures, distinct classes */
    if (clash)
        nb = classes(g, back, nf, back_key);
    n[C_MERGED] += (uint64_t)(entries - nb);
    /* moves into x that leave nothing forbidden: x with nothing forbidden
     * is the paper's too unless x can move back into each one's class */
    int np = ostle_unmoves_state(g, x, pred, mv), ne = 0, unrestricted = 0, nkk = -1;
    for (int j = 0; j < np; j++) {
        if (!member(kid_sig, nk, signature(cx->r, cx->orbit, &pred[j]))) {
            unrestricted = 1;
            continue;
        }
        if (nkk < 0)
            nkk = classes(g, kid, nk, kid_key);
        if (!back_keyed) {
            classes(g, back, nf, back_key);  /* nf distinct ones, as counted */
            back_keyed = 1;
        }
        uint64_t k = position_key(g, &pred[j]);
        if (!member(kid_key, nkk, k))
            unrestricted = 1;
        else if (!member(back_key, nb, k))
            extra[ne++] = k;
    }
    ne = ostle_distinct(extra, ne);
    if (!unrestricted)
        unrestricted = ostle_uncaptures(g, x, pred) > 0;  /* a capture is never undone */
    n[C_UNREACHED] += (uint64_t)!unrestricted;
    n[C_PAPER_ONLY] += (uint64_t)ne;
    n[C_PAPER] += (uint64_t)(nb + ne + unrestricted);
}

void ostle_census(const game *g, int mat, uint64_t first, uint64_t end, uint64_t *counts)
{
    census_ctx cx = { .g = g, .r = &geom(g)->tb->r };
    for (int sq = 0; sq < cx.r->cells; sq++)
        cx.orbit[cx.r->cls[sq]] |= 1u << sq;
    for (uint64_t p = first; p < end; p++) {
        game_state x;
        if (ostle_board_canonical(g, mat, p, &x))
            census_position(&cx, &x, counts);
    }
}
