/* games/jungle/jungle_board.c - Jungle Checkers' move generator, for the rules
 * and for the tables' first pass alike. */
#include "jungle_impl.h"

void jungle_target_masks(const game *g, const game_state *s, int c, uint64_t target[4])
{
    uint64_t empty = ~(s->w[0] | s->w[1]) & BOARD_MASK & ~(1ULL << den_of[c]);
    uint64_t weaker_or_equal = 0, opp_rat = 0, opp_elephant = 0;
    for (int strength = 0; strength < 4; strength++) {
        unsigned q = sq_of(s, 2 * strength + (1 - c));
        uint64_t bit = q == JUNGLE_ABSENT ? 0 : 1ULL << q;
        weaker_or_equal |= bit;
        target[strength] = empty | weaker_or_equal;
        if (strength == 0) opp_rat = bit;
        if (strength == 3) opp_elephant = bit;
    }
    target[0] |= opp_elephant;             /* the rat catches the elephant */
    if (g->variant)
        target[3] &= ~opp_rat;             /* classic: the elephant fears the rat */
}

int jungle_moves_onto(const game *g, const game_state *s, uint64_t onto, game_move *out, int *elsewhere)
{
    *elsewhere = 0;
    if (ended_by_last_move(s))
        return 0;
    int c = (int)s->w[3], n = 0;
    uint64_t target[4];
    jungle_target_masks(g, s, c, target);
    for (int strength = 0; strength < 4; strength++) {
        int p = 2 * strength + c;
        unsigned sq = sq_of(s, p);
        if (sq == JUNGLE_ABSENT)
            continue;
        uint64_t to = neighbours(1ULL << sq) & target[strength];
        *elsewhere += __builtin_popcountll(to & ~onto);
        for (to &= onto; to; to &= to - 1)
            out[n++] = sq | (unsigned)__builtin_ctzll(to) << 6 | (unsigned)p << 12;
    }
    return n;
}

