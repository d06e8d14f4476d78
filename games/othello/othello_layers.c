/* games/othello/othello_layers.c - perfect ranks of the states of a layer.
 *
 * A state with d discs on a board of N squares (numbered row by row) is its
 * occupied set (one of C(N, d), numbered by its combinatorial (colex) rank),
 * which of those discs are Black (d bits, in square order) and the side to
 * move: rank = ((colex << d) | black) << 1 | side, below C(N, d) 2^(d+1).
 * The two sides to move of one board are ranks 2k and 2k + 1, so a pass
 * state sits beside its partner.  The reachable states are closed under
 * the board symmetries that fix the start (on 5x5 the main diagonal only);
 * a state is ranked by its least image under those, so a set of ranks holds
 * each such orbit once.
 */
#include "othello_layers.h"
#include "othello_bits.h"

#include <stdlib.h>
#include <string.h>
#if defined(__BMI2__)
#include <immintrin.h>
#endif

#define MAX_SQUARES 40
#define CHUNK 8                       /* squares per lookup of a symmetry's table */
#define CHUNKS (MAX_SQUARES / CHUNK)

struct othello_layers {
    int w, h, n;
    uint64_t binom[MAX_SQUARES + 1][MAX_SQUARES + 1];
    int symmetries;                   /* besides the identity */
    uint64_t image[7][CHUNKS][1 << CHUNK];  /* each chunk's squares under symmetry k */
};

/* Bits of an 8x8 bitboard's W x H corner, row by row, to bit row * W + col, and back. */
static uint64_t pack(const othello_layers *x, uint64_t b)
{
    uint64_t out = 0, row = (1ULL << x->w) - 1;
    for (int r = 0; r < x->h; r++)
        out |= (b >> (8 * r) & row) << (x->w * r);
    return out;
}

static uint64_t unpack(const othello_layers *x, uint64_t p)
{
    uint64_t out = 0, row = (1ULL << x->w) - 1;
    for (int r = 0; r < x->h; r++)
        out |= (p >> (x->w * r) & row) << (8 * r);
    return out;
}

static uint64_t map_bits(const othello_layers *x, uint64_t p, int s)
{
    uint64_t out = 0;
    for (int c = 0; p; c++, p >>= CHUNK)
        out |= x->image[s][c][p & ((1 << CHUNK) - 1)];
    return out;
}

static uint64_t extract(uint64_t v, uint64_t mask)
{
#if defined(__BMI2__)
    return _pext_u64(v, mask);
#else
    uint64_t out = 0;
    for (int i = 0; mask; mask &= mask - 1, i++)
        if (v & mask & -mask)
            out |= 1ULL << i;
    return out;
#endif
}

static uint64_t deposit(uint64_t v, uint64_t mask)
{
#if defined(__BMI2__)
    return _pdep_u64(v, mask);
#else
    uint64_t out = 0;
    for (int i = 0; mask; mask &= mask - 1, i++)
        if (v >> i & 1)
            out |= mask & -mask;
    return out;
#endif
}

othello_layers *othello_layers_new(int w, int h, uint64_t black, uint64_t white)
{
    othello_layers *x = calloc(1, sizeof *x);
    if (!x)
        return NULL;
    x->w = w, x->h = h, x->n = w * h;
    for (int i = 0; i <= MAX_SQUARES; i++)
        for (int k = 0; k <= i; k++)
            x->binom[i][k] = k == 0 || k == i ? 1 : x->binom[i - 1][k - 1] + x->binom[i - 1][k];
    if (x->n > MAX_SQUARES)
        return x;
    for (int k = 1; k < (w == h ? 8 : 4); k++) {
        if (othello_transform(black, k, w, h) != black || othello_transform(white, k, w, h) != white)
            continue;
        int s = x->symmetries++;
        for (int c = 0; c < CHUNKS; c++)
            for (int v = 0; v < 1 << CHUNK; v++) {
                uint64_t bits = (uint64_t)v << (c * CHUNK) & ((1ULL << x->n) - 1);
                x->image[s][c][v] = pack(x, othello_transform(unpack(x, bits), k, w, h));
            }
    }
    return x;
}

void othello_layers_free(othello_layers *x) { free(x); }

uint64_t othello_layers_size(const othello_layers *x, int empties)
{
    int d = x->n - empties;
    if (x->n > MAX_SQUARES || d < 0 || empties < 0)
        return 0;
    return x->binom[x->n][d] << (d + 1);
}

/* The rank of packed sets. */
static uint64_t rank_packed(const othello_layers *x, uint64_t b, uint64_t w, int side)
{
    uint64_t occ = b | w, colex = 0;
    int k = 1;
    for (uint64_t o = occ; o; o &= o - 1, k++)
        colex += x->binom[__builtin_ctzll(o)][k];
    int d = k - 1;
    return ((colex << d) | extract(b, occ)) << 1 | (uint64_t)side;
}

uint64_t othello_layers_rank(const othello_layers *x, uint64_t black, uint64_t white, int side, int *images)
{
    uint64_t b = pack(x, black), w = pack(x, white);
    uint64_t own = rank_packed(x, b, w, side), best = own;
    int fixed = 1;  /* the symmetries that leave the state as it is, the identity included */
    for (int s = 0; s < x->symmetries; s++) {
        uint64_t r = rank_packed(x, map_bits(x, b, s), map_bits(x, w, s), side);
        best = r < best ? r : best;
        fixed += r == own;
    }
    *images = (x->symmetries + 1) / fixed;  /* the orbit: the group's size over the stabiliser's */
    return best;
}

void othello_layers_unrank(const othello_layers *x, int empties, uint64_t r, uint64_t *black, uint64_t *white,
                           int *side)
{
    int d = x->n - empties;
    *side = (int)(r & 1);
    r >>= 1;
    uint64_t pattern = r & ((1ULL << d) - 1), colex = r >> d, occ = 0;
    int sq = x->n - 1;
    for (int k = d; k >= 1; k--) {
        while (x->binom[sq][k] > colex)
            sq--;
        colex -= x->binom[sq][k];
        occ |= 1ULL << sq;
        sq--;
    }
    uint64_t b = deposit(pattern, occ);
    *black = unpack(x, b);
    *white = unpack(x, occ & ~b);
}
