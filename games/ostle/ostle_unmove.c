/* games/ostle/ostle_unmove.c - Ostle's rules played backwards, for the tables
 * (ostle_tb.c): the positions a move leads from and the moves rule 8 can
 * forbid.  Checked against the forward rules in tests/test_games_rules.c. */
#include "ostle_impl.h"

/* Positions without their forbidden move: the table builder adds it back
 * (docs/ostle.md). */

/* s before the mover's hole move from square `from` in direction d^1. */
static void hole_back(const game_state *s, unsigned from, int mover, game_state *out)
{
    *out = *s;
    set_meta(out, from, mover, NO_MOVE);
}

/* s before the mover's piece stepped from empty square sq in direction d,
 * pushing the pieces ahead of it one square on: the pieces from sq's
 * neighbour to `at` move back one square each. */
static void push_back(const ostle_geom *gm, const game_state *s, int sq, int d, int at, int mover, game_state *out)
{
    uint64_t moved[2] = { 0, 0 }, placed[2] = { 0, 0 };
    for (int q = gm->step[sq][d], to = sq; ; to = q, q = gm->step[q][d]) {
        int c = (int)((s->w[1] >> q) & 1);
        moved[c] |= 1ULL << q;
        placed[c] |= 1ULL << to;
        if (q == at)
            break;
    }
    *out = *s;
    for (int c = 0; c < 2; c++)
        out->w[c] = (s->w[c] & ~moved[c]) | placed[c];
    set_meta(out, hole_of(s), mover, NO_MOVE);
}

/* The pushes into s's position (all, or with `plain` only those that leave
 * nothing forbidden: a single piece, or a chain whose last piece is the
 * mover's).  A piece of the mover's stepped from an empty square sq; the
 * chain ends before an empty square or the run's end, never at the hole
 * (that would have removed a piece). */
static int pushes(const ostle_geom *gm, const game_state *s, int plain, game_state *out, game_move *moves)
{
    unsigned hole = hole_of(s);
    int mover = !side_of(s), n = 0;
    uint64_t occ = s->w[0] | s->w[1];
    for (int sq = 0; sq < gm->cells; sq++) {
        if ((unsigned)sq == hole || ((occ >> sq) & 1))
            continue;
        for (int d = 0; d < 4; d++) {
            int first = gm->step[sq][d];
            if (first < 0 || !((s->w[mover] >> first) & 1))
                continue;
            for (int at = first; at >= 0 && (unsigned)at != hole && ((occ >> at) & 1); at = gm->step[at][d]) {
                if (plain && at != first && !((s->w[mover] >> at) & 1))
                    continue;
                push_back(gm, s, sq, d, at, mover, &out[n]);
                if (moves)
                    moves[n] = (unsigned)sq * 4 + (unsigned)d;
                n++;
            }
        }
    }
    return n;
}

int ostle_unmoves(const game *g, const game_state *s, game_state *out, game_move *moves)
{
    const ostle_geom *gm = geom(g);
    unsigned hole = hole_of(s);
    int mover = !side_of(s), n = 0;
    uint64_t occ = s->w[0] | s->w[1];
    /* the hole came from an empty neighbour */
    for (int d = 0; d < 4; d++) {
        int from = gm->step[hole][d];
        if (from >= 0 && !((occ >> from) & 1)) {
            hole_back(s, (unsigned)from, mover, &out[n]);
            if (moves)
                moves[n] = (unsigned)from * 4 + ((unsigned)d ^ 1);
            n++;
        }
    }
    return n + pushes(gm, s, 0, out + n, moves ? moves + n : NULL);
}

/* Adds q to out[0..n) unless it is there; returns the new count. */
static int add_new(game_state *out, int n, const game_state *q)
{
    for (int i = 0; i < n; i++)
        if (out[i].w[0] == q->w[0] && out[i].w[1] == q->w[1])
            return n;  /* same hole and side: the sets decide */
    out[n] = *q;
    return n + 1;
}

/* The positions one piece larger from which a move of the mover's that
 * removed a piece (the mover's own or the other's: off the board or into
 * the hole) leads to s's position: the mover's piece stepped from an empty
 * square sq, alone off the board or into the hole, or pushing a chain whose
 * last piece fell.  A side never has more pieces than the board is wide.
 * Several moves may lead from one position (a piece that fell alone, or a
 * chain of the mover's own that lost its last piece, is the same position
 * with a piece of the mover's on sq), kept once. */
int ostle_uncaptures(const game *g, const game_state *s, game_state *out)
{
    const ostle_geom *gm = geom(g);
    unsigned hole = hole_of(s);
    int mover = !side_of(s), n = 0;
    uint64_t occ = s->w[0] | s->w[1];
    int room[2] = { __builtin_popcountll(s->w[0]) < gm->w, __builtin_popcountll(s->w[1]) < gm->w };
    for (int sq = 0; sq < gm->cells; sq++) {
        if ((unsigned)sq == hole || ((occ >> sq) & 1))
            continue;
        for (int d = 0; d < 4; d++) {
            game_state q;
            int at = gm->step[sq][d];
            if (at < 0 || (unsigned)at == hole) {
                if (room[mover]) {
                    q = *s;
                    q.w[mover] |= 1ULL << sq;
                    set_meta(&q, hole, mover, NO_MOVE);
                    n = add_new(out, n, &q);
                }
                continue;
            }
            if (!((s->w[mover] >> at) & 1))
                continue;
            while (gm->step[at][d] >= 0 && (unsigned)gm->step[at][d] != hole && ((occ >> gm->step[at][d]) & 1))
                at = gm->step[at][d];
            int beyond = gm->step[at][d];
            if (beyond >= 0 && (unsigned)beyond != hole)
                continue;  /* the chain stopped before an empty square: nothing fell */
            for (int c = 0; c < 2; c++)
                if (room[c]) {
                    push_back(gm, s, sq, d, at, mover, &q);
                    q.w[c] |= 1ULL << at;
                    n = add_new(out, n, &q);
                }
        }
    }
    return n;
}

/* A move leaves forbidden its reversal when that is a move: a hole move
 * always, a push when its chain's last piece is the opponent's (who may not
 * push it straight back).  So a forbidden move names at most one move into
 * the state, found by walking back from it. */
int ostle_unmoves_state(const game *g, const game_state *s, game_state *out, game_move *moves)
{
    const ostle_geom *gm = geom(g);
    unsigned hole = hole_of(s), f = forbidden_of(s);
    int mover = !side_of(s);
    if (f == NO_MOVE)
        return pushes(gm, s, 1, out, moves);
    uint64_t occ = s->w[0] | s->w[1];
    unsigned x = f >> 2;
    int e = (int)(f & 3);
    if (x == hole) {
        int from = gm->step[hole][e];
        if (from < 0 || ((occ >> from) & 1))
            return 0;
        hole_back(s, (unsigned)from, mover, out);
        moves[0] = (unsigned)from * 4 + ((unsigned)e ^ 1);
        return 1;
    }
    /* the push in direction e^1 whose chain ended on x */
    if (!((s->w[!mover] >> x) & 1))
        return 0;
    int first = (int)x;
    while (gm->step[first][e] >= 0 && ((occ >> gm->step[first][e]) & 1))
        first = gm->step[first][e];
    int sq = gm->step[first][e];
    if (first == (int)x || sq < 0 || (unsigned)sq == hole || !((s->w[mover] >> first) & 1))
        return 0;
    push_back(gm, s, sq, e ^ 1, (int)x, mover, out);
    moves[0] = (unsigned)sq * 4 + ((unsigned)e ^ 1);
    return 1;
}

/* Bitboards, a direction at a time: the chains that end in an opponent's
 * piece before an open square, grown back through the pieces behind it;
 * the side to move's pieces on them start a forbiddable push. */
int ostle_forbiddable(const game *g, const game_state *s, game_move *out)
{
    const ostle_geom *gm = geom(g);
    unsigned hole = hole_of(s);
    int me = side_of(s), n = 0;
    uint32_t own = (uint32_t)s->w[me], opp = (uint32_t)s->w[!me], occ = own | opp;
    uint32_t open = gm->board & ~occ & ~(1u << hole);
    /* the opponent moved the hole here from an empty neighbour */
    for (unsigned d = 0; d < 4; d++) {
        int to = gm->step[hole][d];
        if (to >= 0 && !((occ >> to) & 1))
            out[n++] = hole * 4 + d;
    }
    /* the opponent pushed a chain ending in my piece sq, from the square
     * after the run's last piece (the pusher's, so the opponent's) */
    uint32_t from[4], any = 0;
    for (int d = 0; d < 4; d++) {
        uint32_t run = opp & step_set(gm, open, d ^ 1);
        for (uint32_t grow = run; grow; run |= grow)
            grow = step_set(gm, grow, d ^ 1) & occ & ~run;
        from[d] = run & own;
        any |= from[d];
    }
    for (; any; any &= any - 1) {
        unsigned sq = (unsigned)__builtin_ctz(any);
        for (unsigned d = 0; d < 4; d++)
            if ((from[d] >> sq) & 1)
                out[n++] = sq * 4 + d;
    }
    return n;
}
