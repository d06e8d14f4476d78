/* games/ostle_unmove.c - Ostle's rules played backwards, for the tables
 * (ostle_tb.c): the positions a move leads from and the moves rule 8 can
 * forbid.  Checked against the forward rules in tests/test_rules.c. */
#include "ostle_impl.h"

/* Positions without their forbidden move: the table builder adds it back
 * (docs/ostle.md). */

int ostle_unmoves(const game *g, const game_state *s, game_state *out, game_move *moves)
{
    const ostle_geom *gm = geom(g);
    unsigned hole = hole_of(s);
    int mover = !side_of(s), n = 0;  /* the side that made the move */
    uint64_t occ = s->w[0] | s->w[1];
    /* the hole came from an empty neighbour */
    for (int d = 0; d < 4; d++) {
        int from = gm->step[hole][d];
        if (from >= 0 && !((occ >> from) & 1)) {
            out[n] = *s;
            set_meta(&out[n], (unsigned)from, mover, NO_MOVE);
            if (moves)
                moves[n] = (unsigned)from * 4 + ((unsigned)d ^ 1);
            n++;
        }
    }
    /* a piece of the mover's stepped from an empty square sq in direction d,
     * pushing the k - 1 pieces ahead of it one square on; the chain of k ends
     * before an empty square or the run's end, never at the hole (that
     * would have removed a piece) */
    for (int sq = 0; sq < gm->cells; sq++) {
        if ((unsigned)sq == hole || ((occ >> sq) & 1))
            continue;
        for (int d = 0; d < 4; d++) {
            int first = gm->step[sq][d];
            if (first < 0 || !((s->w[mover] >> first) & 1))
                continue;
            int at = first;
            while (at >= 0 && (unsigned)at != hole && ((occ >> at) & 1)) {
                /* pieces first .. at move back one square: first -> sq, and each
                 * later one onto its predecessor's square */
                game_state p = *s;
                uint64_t moved[2] = { 0, 0 }, placed[2] = { 0, 0 };
                for (int q = first, to = sq; ; to = q, q = gm->step[q][d]) {
                    int c = (int)((s->w[1] >> q) & 1);
                    moved[c] |= 1ULL << q;
                    placed[c] |= 1ULL << to;
                    if (q == at)
                        break;
                }
                for (int c = 0; c < 2; c++)
                    p.w[c] = (s->w[c] & ~moved[c]) | placed[c];
                set_meta(&p, hole, mover, NO_MOVE);
                if (moves)
                    moves[n] = (unsigned)sq * 4 + (unsigned)d;
                out[n++] = p;
                at = gm->step[at][d];
            }
        }
    }
    return n;
}

int ostle_forbiddable(const game *g, const game_state *s, game_move *out)
{
    const ostle_geom *gm = geom(g);
    unsigned hole = hole_of(s);
    int me = side_of(s), n = 0;
    uint64_t occ = s->w[0] | s->w[1];
    /* the opponent moved the hole here from an empty neighbour */
    for (unsigned d = 0; d < 4; d++) {
        int to = gm->step[hole][d];
        if (to >= 0 && !((occ >> to) & 1))
            out[n++] = hole * 4 + d;
    }
    /* the opponent pushed a chain ending in my piece sq, from the square
     * after the run's last piece (the pusher's, so the opponent's) */
    for (uint64_t own = s->w[me]; own; own &= own - 1) {
        unsigned sq = (unsigned)__builtin_ctzll(own);
        for (unsigned d = 0; d < 4; d++) {
            int last = (int)sq, next = gm->step[sq][d];
            while (next >= 0 && (unsigned)next != hole && ((occ >> next) & 1)) {
                last = next;
                next = gm->step[next][d];
            }
            if (last != (int)sq && ((s->w[!me] >> last) & 1) && next >= 0 && (unsigned)next != hole)
                out[n++] = sq * 4 + d;
        }
    }
    return n;
}

