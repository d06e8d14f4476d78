/* games/ostle_census.c - Ostle's states counted the way the Ostle paper
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
 * tests/test_ostle_tb.c. */
#include "ostle_impl.h"

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

static int member(const uint64_t *v, int n, uint64_t x)
{
    for (int i = 0; i < n; i++)
        if (v[i] == x)
            return 1;
    return 0;
}

/* The counts of one canonical position x (side 0 to move). */
static void census_position(const game *g, const game_state *x, uint64_t *n)
{
    game_move f[GAME_MAX_MOVES], mv[GAME_MAX_MOVES];
    uint64_t slot[GAME_MAX_MOVES], back[GAME_MAX_MOVES], out[GAME_MAX_MOVES], extra[GAME_MAX_MOVES];
    int nf = ostle_forbiddable(g, x, f);
    n[C_POSITIONS]++;
    n[C_STATES] += 1 + (uint64_t)nf;
    for (int i = 0; i < nf; i++) {
        game_state s = *x;
        set_meta(&s, hole_of(x), 0, f[i]);
        slot[i] = ostle_orbit_key(g, &s);
    }
    int entries = ostle_distinct(slot, nf);
    n[C_TWINS] += (uint64_t)(nf - entries);
    /* the classes x moves into, keeping every piece; and whether a move wins */
    int pieces = __builtin_popcountll(x->w[0] | x->w[1]), no = 0, wins = 0;
    int nm = game_moves(g, x, mv);
    for (int i = 0; i < nm; i++) {
        game_state c = *x;
        game_play(g, &c, mv[i]);
        if (__builtin_popcountll(c.w[0] | c.w[1]) == pieces)
            out[no++] = position_key(g, &c);
        else
            wins |= game_result_of(g, &c) == GAME_WIN0;
    }
    if (wins) {
        n[C_CHECKMATE] += 1 + (uint64_t)entries;
        return;
    }
    no = ostle_distinct(out, no);
    for (int i = 0; i < nf; i++) {
        game_state c = *x;
        game_play(g, &c, f[i]);
        back[i] = position_key(g, &c);
    }
    int nb = ostle_distinct(back, nf);
    n[C_MERGED] += (uint64_t)(entries - nb);
    /* moves into x that leave nothing forbidden: x with nothing forbidden
     * is the paper's too unless x can move back into each one's class */
    game_state pred[GAME_MAX_MOVES];
    int np = ostle_unmoves_state(g, x, pred, mv), ne = 0, unrestricted = 0;
    for (int j = 0; j < np; j++) {
        uint64_t k = position_key(g, &pred[j]);
        if (!member(out, no, k))
            unrestricted = 1;
        else if (!member(back, nb, k))
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
    for (uint64_t p = first; p < end; p++) {
        game_state x;
        if (ostle_board_canonical(g, mat, p, &x))
            census_position(g, &x, counts);
    }
}
